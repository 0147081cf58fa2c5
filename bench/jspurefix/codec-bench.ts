// jspurefix side of the codec benchmark: the same NewOrderSingle / NewOrderMultileg bytes through its
// AsciiParser (tokenise + structure against the dictionary), the checks its session makes on every
// inbound message (CheckSum, invalid(), undefinedForMsg(), missing()), then toObject() and the same typed reads;
// and the same ExecutionReport through its AsciiMsgTransmitter (header from its session factory, body,
// BodyLength patch, checksum) into a Buffer.
//
// jspurefix is not a dependency of the project: bench/run.ts installs it into bench/.build/jspurefix
// (see install.ts) and runs this file in its own process:
//   node --import tsx bench/jspurefix/codec-bench.ts --prefix DIR --dict FIX44.xml [--rounds N] [--nos-ops N] [--multileg-ops N] [--er-ops N]
// Prints one JSON object like bench/fix-codec.ts.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXECUTION_REPORT, NEW_ORDER_MULTILEG, NEW_ORDER_SINGLE } from '../codec-messages';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string' },
    dict: { type: 'string' },
    rounds: { type: 'string', default: '9' },
    'nos-ops': { type: 'string', default: '20000' },
    'multileg-ops': { type: 'string', default: '10000' },
    'er-ops': { type: 'string', default: '20000' },
  },
});
if (!args.prefix || !args.dict)
  throw new Error('usage: codec-bench.ts --prefix DIR --dict FIX44.xml [--rounds N] [--nos-ops N] [--multileg-ops N] [--er-ops N]');

// The slice of jspurefix's API used here (the package is loaded at run time, so no compile-time types).
type Loose = Record<string, unknown>;
interface MsgView {
  getString(tag: number): string | null;
  checksum(): number;
  invalid(): number[];
  undefinedForMsg(): string | null;
  missing(): number[];
  toObject(): Loose | null;
}
interface ScopedConfig {
  sessionContainer: { resolve<T>(token: unknown): T };
}
interface AsciiParserLike {
  on(event: 'msg', listener: (msgType: string, view: MsgView) => void): void;
  parseBuffer(buffer: Buffer): void;
}
interface Transmitter {
  msgSeqNum: number;
  time: Date;
  encoder: { reset(): void; trim(): Buffer };
  encodeMessage(msgType: string, obj: Loose): Loose | null;
}
interface Jspurefix {
  SessionContainer: new () => {
    registerGlobal(level: string): void;
    makeSystem(description: Loose): Promise<{ resolve<T>(token: unknown): T }>;
  };
  DITokens: { IJsFixConfig: unknown; ParseBuffer: unknown; maxMessageLen: unknown };
  AsciiParser: new (config: ScopedConfig, stream: null, buffer: unknown, maxMessageLen: number) => AsciiParserLike;
}

const requireFromPrefix = createRequire(resolve(args.prefix, 'node_modules', 'jspurefix', 'package.json'));
requireFromPrefix('reflect-metadata');
const jsfix = requireFromPrefix('jspurefix') as Jspurefix;
// Not re-exported from the package root; its own benchmark uses it the same way.
const { makeSessionScope } = requireFromPrefix('./dist/runtime/session-scope') as { makeSessionScope(config: unknown): ScopedConfig };
const { AsciiMsgTransmitter } = requireFromPrefix('./dist/transport/ascii/ascii-msg-transmitter') as {
  AsciiMsgTransmitter: new (config: ScopedConfig) => Transmitter;
};
const version = (requireFromPrefix('./package.json') as { version: string }).version;

const sys = new jsfix.SessionContainer();
sys.registerGlobal('error');
const container = await sys.makeSystem({
  application: { type: 'acceptor', name: 'bench', protocol: 'ascii', dictionary: args.dict, tcp: { host: '127.0.0.1', port: 0 } },
  BeginString: 'FIX.4.4',
  SenderCompId: EXECUTION_REPORT.header[49],
  TargetCompID: EXECUTION_REPORT.header[56],
  HeartBtInt: 30,
  // The shortest BodyLength jspurefix writes: it reserves a fixed width and pads the number with zeros.
  BodyLengthChars: 4,
});
const config = container.resolve<unknown>(jsfix.DITokens.IJsFixConfig);
const scoped = makeSessionScope(config);

// ---- parse: one parser, the message handed over as one socket read would hand it.
const parser = new jsfix.AsciiParser(
  scoped,
  null,
  scoped.sessionContainer.resolve(jsfix.DITokens.ParseBuffer),
  scoped.sessionContainer.resolve<number>(jsfix.DITokens.maxMessageLen),
);
let lastObject: Loose | null = null;
parser.on('msg', (_msgType, view) => {
  // What its session's checkIntegrity does first: the parser itself does not verify the CheckSum.
  if (Number.parseInt(view.getString(10) ?? '', 10) !== view.checksum()) throw new Error('jspurefix: checksum mismatch');
  const invalid = view.invalid();
  const undefinedForMsg = view.undefinedForMsg();
  const missing = view.missing();
  if (invalid.length || undefinedForMsg || missing.length) {
    throw new Error(`jspurefix rejects the sample: invalid ${invalid} undefined ${undefinedForMsg} missing ${missing}`);
  }
  lastObject = view.toObject();
});

function parse(bytes: Buffer): Loose {
  lastObject = null;
  parser.parseBuffer(bytes);
  if (!lastObject) throw new Error('jspurefix produced no message');
  return lastObject;
}

interface Party {
  id: unknown;
  source: unknown;
  role: unknown;
}
function parties(group: unknown, idKey: string, sourceKey: string, roleKey: string): Party[] {
  const list = Array.isArray(group) ? (group as Loose[]) : [];
  return list.map((p) => ({ id: p[idKey], source: p[sourceKey], role: p[roleKey] }));
}

function toNewOrder(o: Loose) {
  const instrument = (o.Instrument ?? {}) as Loose;
  const qty = (o.OrderQtyData ?? {}) as Loose;
  return {
    clOrdId: o.ClOrdID,
    account: o.Account,
    side: o.Side,
    symbol: instrument.Symbol,
    securityType: instrument.SecurityType,
    maturity: instrument.MaturityMonthYear,
    orderQty: qty.OrderQty,
    price: o.Price,
    ordType: o.OrdType,
    timeInForce: o.TimeInForce,
    transactTime: o.TransactTime,
    parties: parties((o.Parties as Loose | undefined)?.NoPartyIDs, 'PartyID', 'PartyIDSource', 'PartyRole'),
  };
}

function toMultileg(o: Loose) {
  const legs = ((o.LegOrdGrp as Loose | undefined)?.NoLegs ?? []) as Loose[];
  return {
    ...toNewOrder(o),
    legs: legs.map((l) => {
      const leg = (l.InstrumentLeg ?? {}) as Loose;
      return {
        symbol: leg.LegSymbol,
        maturity: leg.LegMaturityMonthYear,
        ratio: leg.LegRatioQty,
        side: leg.LegSide,
        qty: l.LegQty,
        parties: parties(
          (l.NestedParties as Loose | undefined)?.NoNestedPartyIDs,
          'NestedPartyID',
          'NestedPartyIDSource',
          'NestedPartyRole',
        ),
      };
    }),
  };
}

// ---- encode: the ExecutionReport body by field name, values as the same strings our engine gets.
const transmitter = new AsciiMsgTransmitter(scoped);
transmitter.time = new Date(Date.UTC(2026, 2, 15, 9, 30, 1, 200));
transmitter.msgSeqNum = EXECUTION_REPORT.firstSeqNum;
const b = EXECUTION_REPORT.body;
const executionReportBody = (): Loose => ({
  OrderID: b[37],
  ExecID: b[17],
  ExecType: b[150],
  OrdStatus: b[39],
  Account: b[1],
  Instrument: { Symbol: b[55], SecurityType: b[167], MaturityMonthYear: b[200] },
  Side: b[54],
  OrderQtyData: { OrderQty: b[38] },
  OrdType: b[40],
  Price: b[44],
  TimeInForce: b[59],
  LastQty: b[32],
  LastPx: b[31],
  LeavesQty: b[151],
  CumQty: b[14],
  AvgPx: b[6],
  TransactTime: b[60],
  ClOrdID: b[11],
});

function encodeExecutionReport(): Buffer {
  transmitter.encoder.reset();
  if (!transmitter.encodeMessage('8', executionReportBody())) throw new Error('jspurefix could not encode the ExecutionReport');
  return transmitter.encoder.trim();
}

function measure(name: string, op: () => unknown, opsPerRound: number, rounds: number) {
  for (let i = 0; i < opsPerRound * 3; i++) op();
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < opsPerRound; i++) op();
    rates.push(Math.round((opsPerRound * 1e9) / Number(process.hrtime.bigint() - t0)));
  }
  const sorted = [...rates].sort((x, y) => x - y);
  return { name, medianPerSec: sorted[Math.floor(sorted.length / 2)]!, rounds: rates };
}

// Sanity: what the benchmark claims to read is there.
const nosSample = toNewOrder(parse(NEW_ORDER_SINGLE));
if (nosSample.parties.length !== 2 || nosSample.clOrdId !== 'ORD-000042')
  throw new Error(`NOS sample did not parse: ${JSON.stringify(nosSample)}`);
const mlSample = toMultileg(parse(NEW_ORDER_MULTILEG));
if (mlSample.legs.length !== 2 || mlSample.legs[1]!.parties[0]?.id !== 'ACME-CAPITAL')
  throw new Error(`multileg sample did not parse: ${JSON.stringify(mlSample)}`);
const erSample = encodeExecutionReport().toString('latin1');
transmitter.msgSeqNum = EXECUTION_REPORT.firstSeqNum;

const rounds = Number(args.rounds);
const results = [
  measure('nos_parse_validate_typed', () => toNewOrder(parse(NEW_ORDER_SINGLE)), Number(args['nos-ops']), rounds),
  measure('multileg_parse_validate_typed', () => toMultileg(parse(NEW_ORDER_MULTILEG)), Number(args['multileg-ops']), rounds),
  measure('execution_report_encode', encodeExecutionReport, Number(args['er-ops']), rounds),
];
console.log(JSON.stringify({ benchmark: 'jspurefix-codec', version, node: process.version, executionReportSample: erSample, results }));
process.exit(0);
