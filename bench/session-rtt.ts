// Session round trip: what our session layer adds to a loopback TCP round trip.
//   floor:   the NewOrderSingle's bytes written to a raw echo socket and read back (no FIX at all)
//   session: Initiator.send(NewOrderSingle) → conformance Acceptor (parse, validate, store, EchoApplication
//            sends it back under a new header) → Initiator parses, validates, stores and hands it to fromApp
// Both ends run in this process on one event loop, for the floor and the session alike, so the
// difference is the engine's work on both sides. Samples are taken one at a time (no pipelining).
//   npx tsx bench/session-rtt.ts [--samples N] [--warmup N]      prints one JSON object
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import {
  createSessionCodec,
  formatUtcTimestamp,
  Initiator,
  MemoryStoreFactory,
  outgoing,
  startConformanceAcceptor,
  Tag,
  type InboundMessage,
} from '../packages/fix/src/index';
import { NEW_ORDER_SINGLE } from './codec-messages';

export interface LatencySummary {
  readonly samples: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
}

function summarize(ns: bigint[]): LatencySummary {
  const us = ns.map((n) => Number(n) / 1000).sort((a, b) => a - b);
  const at = (q: number) => us[Math.min(us.length - 1, Math.floor(q * us.length))]!;
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    samples: us.length,
    p50Us: round(at(0.5)),
    p90Us: round(at(0.9)),
    p99Us: round(at(0.99)),
    meanUs: round(us.reduce((a, b) => a + b, 0) / us.length),
  };
}

/** Raw loopback echo of the same bytes: the floor no FIX engine can go under. */
async function tcpFloor(bytes: Buffer, warmup: number, samples: number): Promise<LatencySummary> {
  const server = createServer((s) => {
    s.setNoDelay(true);
    s.on('data', (d) => s.write(d));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client: Socket = connect({ host: '127.0.0.1', port });
  client.setNoDelay(true);
  await once(client, 'connect');
  let pending = 0;
  let done: (() => void) | undefined;
  client.on('data', (d) => {
    pending -= d.length;
    if (pending <= 0) done?.();
  });
  const one = () =>
    new Promise<void>((resolve) => {
      done = resolve;
      pending = bytes.length;
      client.write(bytes);
    });
  for (let i = 0; i < warmup; i++) await one();
  const out: bigint[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = process.hrtime.bigint();
    await one();
    out.push(process.hrtime.bigint() - t0);
  }
  client.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return summarize(out);
}

/** Initiator → conformance acceptor (echo) → Initiator, one order at a time. */
async function sessionRoundTrip(warmup: number, samples: number): Promise<LatencySummary> {
  const acceptor = await startConformanceAcceptor({ port: 0, host: '127.0.0.1', storeFactory: new MemoryStoreFactory() });
  let onEcho: ((m: InboundMessage) => void) | undefined;
  let loggedOn!: () => void;
  const logon = new Promise<void>((resolve) => (loggedOn = resolve));
  const initiator = await Initiator.start({
    host: '127.0.0.1',
    port: acceptor.port,
    sessionID: { beginString: 'FIX.4.4', senderCompID: 'TW', targetCompID: 'ISLD' },
    settings: { heartBtIntSec: 30, validate: true },
    app: { onLogon: () => loggedOn(), fromApp: (m) => onEcho?.(m) },
    storeFactory: new MemoryStoreFactory(),
    codec: createSessionCodec(),
    reconnect: false,
  });
  await Promise.race([logon, new Promise((_, reject) => setTimeout(() => reject(new Error('no logon within 5 s')), 5000).unref())]);
  const transactTime = formatUtcTimestamp(Date.now());
  let n = 0;
  const order = () =>
    outgoing('D', [
      [Tag.Account, 'ACC-7788'],
      [Tag.ClOrdID, `ORD-${++n}`],
      [Tag.OrderQty, '2500'],
      [Tag.OrdType, '2'],
      [Tag.Price, '14325.50'],
      [Tag.Side, '1'],
      [Tag.Symbol, 'TD3C'],
      [Tag.TimeInForce, '0'],
      [Tag.TransactTime, transactTime],
      [Tag.SecurityType, 'FUT'],
      [Tag.MaturityMonthYear, '202604'],
      [Tag.NoPartyIDs, '2'],
      [Tag.PartyID, 'JSMITH'],
      [Tag.PartyIDSource, 'D'],
      [Tag.PartyRole, '11'],
      [Tag.PartyID, 'ACME-CAP'],
      [Tag.PartyIDSource, 'D'],
      [Tag.PartyRole, '3'],
    ]);
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const clOrdID = `ORD-${n + 1}`;
      onEcho = (m) => {
        if (m.get(Tag.ClOrdID) === clOrdID) resolve();
        else reject(new Error(`echo of ${m.get(Tag.ClOrdID)} while waiting for ${clOrdID}`));
      };
      initiator.send(order()).catch(reject);
    });
  for (let i = 0; i < warmup; i++) await one();
  const out: bigint[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = process.hrtime.bigint();
    await one();
    out.push(process.hrtime.bigint() - t0);
  }
  await initiator.stop(1000);
  await acceptor.stop(1000);
  return summarize(out);
}

export interface SessionRttResult {
  readonly benchmark: 'session-rtt';
  readonly messageBytes: number;
  readonly floor: LatencySummary;
  readonly session: LatencySummary;
  /** Session p50 minus floor p50: what the engine adds, both sides together. */
  readonly addedP50Us: number;
  readonly addedP99Us: number;
}

export async function runSessionRtt(samples = 20_000, warmup = 3_000): Promise<SessionRttResult> {
  const floor = await tcpFloor(NEW_ORDER_SINGLE, warmup, samples);
  const session = await sessionRoundTrip(warmup, samples);
  return {
    benchmark: 'session-rtt',
    messageBytes: NEW_ORDER_SINGLE.length,
    floor,
    session,
    addedP50Us: Math.round((session.p50Us - floor.p50Us) * 10) / 10,
    addedP99Us: Math.round((session.p99Us - floor.p99Us) * 10) / 10,
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const { values } = parseArgs({ options: { samples: { type: 'string', default: '20000' }, warmup: { type: 'string', default: '3000' } } });
  const result = await runSessionRtt(Number(values.samples), Number(values.warmup));
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
