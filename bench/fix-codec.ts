// FIX codec throughput: parse+validate into a typed object (NewOrderSingle with two parties,
// NewOrderMultileg with two legs) and ExecutionReport encode. Prints one JSON object.
// Run: npx tsx bench/fix-codec.ts   (about 15 s; median msgs/s over several timed rounds after warm-up)
// "Typed object" means the fields an order desk reads (ids, side, instrument, exact decimal
// quantity and price, times, parties, legs) pulled into a plain object, as the server does.
import { loadavg } from 'node:os';
import {
  Dictionary,
  FixEncoder,
  FixMessageBuilder,
  FixParser,
  MsgType,
  Tag,
  type FixMessage,
  type FixTimestamp,
} from '../packages/fix/src/index';
import { EXECUTION_REPORT, NEW_ORDER_MULTILEG, NEW_ORDER_SINGLE } from './codec-messages';

// The same bytes bench/run.ts gives QuickFIX C++ and jspurefix.
const NOS = NEW_ORDER_SINGLE;
const NOML = NEW_ORDER_MULTILEG;

interface Party {
  id: string | undefined;
  source: string | undefined;
  role: string | undefined;
}
interface NewOrder {
  clOrdId: string;
  account: string | undefined;
  side: string;
  symbol: string | undefined;
  securityType: string | undefined;
  maturity: string | undefined;
  orderQty: string | undefined;
  price: string | undefined;
  ordType: string;
  timeInForce: string | undefined;
  transactTime: FixTimestamp;
  parties: Party[];
}
interface Leg {
  symbol: string | undefined;
  maturity: string | undefined;
  ratio: string | undefined;
  side: string | undefined;
  qty: string | undefined;
  parties: Party[];
}

function parties(
  view: { getGroup(tag: number): FixMessage['getGroup'] extends (t: number) => infer R ? R : never },
  countTag: number,
  idTag: number,
  sourceTag: number,
  roleTag: number,
): Party[] {
  return view.getGroup(countTag).map((e) => ({ id: e.get(idTag), source: e.getChar(sourceTag), role: e.get(roleTag) }));
}

function toNewOrder(m: FixMessage): NewOrder {
  if (m.rejection || m.garbled) throw new Error(`unexpected invalid message: ${JSON.stringify(m.rejection ?? m.garbled)}`);
  return {
    clOrdId: m.require(Tag.ClOrdID),
    account: m.get(Tag.Account),
    side: m.getChar(Tag.Side)!,
    symbol: m.get(Tag.Symbol),
    securityType: m.get(Tag.SecurityType),
    maturity: m.get(Tag.MaturityMonthYear),
    orderQty: m.getDecimal(Tag.OrderQty),
    price: m.getDecimal(Tag.Price),
    ordType: m.getChar(Tag.OrdType)!,
    timeInForce: m.getChar(Tag.TimeInForce),
    transactTime: m.getTimestamp(Tag.TransactTime)!,
    parties: parties(m, Tag.NoPartyIDs, Tag.PartyID, Tag.PartyIDSource, Tag.PartyRole),
  };
}

function toMultileg(m: FixMessage): NewOrder & { legs: Leg[] } {
  const order = toNewOrder(m);
  const legs = m.getGroup(Tag.NoLegs).map((l) => ({
    symbol: l.get(Tag.LegSymbol),
    maturity: l.get(Tag.LegMaturityMonthYear),
    ratio: l.getDecimal(Tag.LegRatioQty),
    side: l.getChar(Tag.LegSide),
    qty: l.getDecimal(Tag.LegQty),
    parties: parties(l, Tag.NoNestedPartyIDs, Tag.NestedPartyID, Tag.NestedPartyIDSource, Tag.NestedPartyRole),
  }));
  return { ...order, legs };
}

const dictionary = Dictionary.fix44();
const parser = new FixParser(dictionary);
const encoder = new FixEncoder(dictionary);
let seq = EXECUTION_REPORT.firstSeqNum - 1;
// SendingTime is passed as a Date, as a sender passes its clock's now, and formatted per message; a
// fixed instant keeps the bytes comparable with QuickFIX's (bench/run.ts checks them).
const SENDING_TIME_MS = Date.UTC(2026, 2, 15, 9, 30, 1, 200);

function encodeExecutionReport(): Buffer {
  const er = new FixMessageBuilder(MsgType.ExecutionReport)
    .set(Tag.MsgSeqNum, ++seq)
    .set(Tag.SenderCompID, 'FIXDESKBRK')
    .set(Tag.SendingTime, new Date(SENDING_TIME_MS))
    .set(Tag.TargetCompID, 'CLIENTDESK01')
    .set(Tag.Account, 'ACC-778812')
    .set(Tag.AvgPx, '14325.5')
    .set(Tag.ClOrdID, 'ORD-20260315-000042')
    .set(Tag.CumQty, '1000')
    .set(Tag.ExecID, 'EXE-20260315-0000981')
    .set(Tag.LastPx, '14325.5')
    .set(Tag.LastQty, '1000')
    .set(Tag.OrderID, 'BRK-20260315-000042')
    .set(Tag.OrderQty, '2500')
    .set(Tag.OrdStatus, '1')
    .set(Tag.OrdType, '2')
    .set(Tag.Price, '14325.50')
    .set(Tag.Side, '1')
    .set(Tag.Symbol, 'TD3C')
    .set(Tag.TimeInForce, '0')
    .set(Tag.TransactTime, '20260315-09:30:01.199')
    .set(Tag.ExecType, 'F')
    .set(Tag.LeavesQty, '1500')
    .set(Tag.SecurityType, 'FUT')
    .set(Tag.MaturityMonthYear, '202604');
  return encoder.encode(er);
}

function measure(
  name: string,
  op: () => unknown,
  opsPerRound: number,
  rounds: number,
): { name: string; medianPerSec: number; rounds: number[] } {
  for (let i = 0; i < opsPerRound * 3; i++) op(); // warm-up: let the JIT settle
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < opsPerRound; i++) op();
    const ns = Number(process.hrtime.bigint() - t0);
    rates.push(Math.round((opsPerRound * 1e9) / ns));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  return { name, medianPerSec: sorted[Math.floor(sorted.length / 2)]!, rounds: rates };
}

// Sanity: the inputs are what the benchmark claims and they parse cleanly.
const sample = toMultileg(parser.parse(NOML));
if (sample.legs.length !== 2 || sample.legs[1]!.parties[0]!.id !== 'ACME-CAPITAL') throw new Error('multileg sample did not parse');
if (toNewOrder(parser.parse(NOS)).parties.length !== 2) throw new Error('NOS sample did not parse');
const erSample = parser.parse(encodeExecutionReport());
// The builder chain above spells out EXECUTION_REPORT field by field (the way a server builds one).
for (const [tag, value] of Object.entries({ ...EXECUTION_REPORT.header, ...EXECUTION_REPORT.body })) {
  if (erSample.get(Number(tag)) !== value) throw new Error(`ExecutionReport tag ${tag} differs from bench/codec-messages.ts`);
}
if (!erSample.isValid)
  throw new Error(`encoded ExecutionReport does not validate: ${JSON.stringify(erSample.rejection ?? erSample.garbled)}`);

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const results = [
  measure('nos_parse_validate_typed', () => toNewOrder(parser.parse(NOS)), 200_000, rounds),
  measure('multileg_parse_validate_typed', () => toMultileg(parser.parse(NOML)), 100_000, rounds),
  measure('execution_report_encode', encodeExecutionReport, 200_000, rounds),
];
console.log(
  JSON.stringify(
    {
      benchmark: 'fix-codec',
      node: process.version,
      // Other work on the machine skews throughput; the 1-minute load average says how much.
      loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
      nosBytes: NOS.length,
      multilegBytes: NOML.length,
      executionReportBytes: erSample.raw.length,
      results,
    },
    null,
    2,
  ),
);
