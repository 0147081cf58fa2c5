// A FIX client for the integration tests: our own initiator logged on as a client connector.
import {
  createSessionCodec,
  Initiator,
  MemoryLogFactory,
  MemoryStoreFactory,
  outgoing,
  type FixMessage,
  type InitiatorTlsConfig,
  type SessionID,
} from '@fixdesk/fix';
import { until } from './until';

export interface ReceivedMessage {
  msgType: string;
  seq: number;
  get(tag: number): string | undefined;
  raw: string;
  message: FixMessage;
}

/**
 * One logon attempt with no reconnect: resolves with the session's events (the Logout's text among
 * them) once the logon completed or the connection was closed. `stores` keeps the client's numbers
 * across attempts, as a real client keeps them.
 */
export async function logonAttempt(
  port: number,
  compId: string,
  stores: MemoryStoreFactory = new MemoryStoreFactory(),
  options: { tls?: InitiatorTlsConfig; resetOnLogon?: boolean; timeoutMs?: number; heartBtIntSec?: number } = {},
): Promise<{ loggedOn: boolean; events: string[] }> {
  const logs = new MemoryLogFactory();
  let loggedOn = false;
  const initiator = await Initiator.start({
    host: '127.0.0.1',
    port,
    ...(options.tls ? { tls: options.tls } : {}),
    sessionID: { beginString: 'FIX.4.4', senderCompID: compId, targetCompID: 'FIXDESK' },
    settings: { heartBtIntSec: options.heartBtIntSec ?? 30, resetOnLogon: options.resetOnLogon ?? false },
    storeFactory: stores,
    codec: createSessionCodec(),
    logFactory: logs,
    reconnect: false,
    app: { onLogon: () => void (loggedOn = true), fromApp: () => undefined },
  });
  // Not an error when neither comes: the events say what happened.
  await until(
    'a logon or a disconnection',
    () => loggedOn || logs.lines.some((l) => l.kind === 'event' && l.text.startsWith('disconnected: ')),
    options.timeoutMs ?? 5000,
    10,
  ).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 50));
  const events = logs.lines.map((l) => `${l.kind}: ${l.text}`);
  await initiator.stop();
  return { loggedOn, events };
}

export class TestFixClient {
  readonly received: ReceivedMessage[] = [];
  private initiator: Initiator | undefined;
  private loggedOn = false;
  readonly sessionID: SessionID;

  constructor(
    readonly compId: string,
    readonly storeFactory = new MemoryStoreFactory(),
    readonly targetCompId = 'FIXDESK',
  ) {
    this.sessionID = { beginString: 'FIX.4.4', senderCompID: compId, targetCompID: targetCompId };
  }

  /** Logs on at `port`; given several ports (the nodes of a desk), each reconnect tries the next in turn. */
  async connect(
    port: number | readonly number[],
    settings: Record<string, unknown> = {},
    timeoutMs = 10_000,
    tls?: InitiatorTlsConfig,
  ): Promise<void> {
    const [first, ...more] = typeof port === 'number' ? [port] : port;
    this.initiator = await Initiator.start({
      host: '127.0.0.1',
      port: first!,
      alternateAddresses: more.map((p) => ({ host: '127.0.0.1', port: p })),
      ...(tls ? { tls } : {}),
      sessionID: this.sessionID,
      settings: { heartBtIntSec: 30, ...settings },
      storeFactory: this.storeFactory,
      codec: createSessionCodec(),
      reconnect: { initialDelayMs: 100, maxDelayMs: 500, factor: 2 },
      app: {
        onLogon: () => {
          this.loggedOn = true;
          this.logons++;
        },
        onLogout: (_id, reason) => {
          this.loggedOn = false;
          this.logouts.push(reason);
        },
        fromApp: (m) => {
          this.received.push({
            msgType: m.msgType,
            seq: m.msgSeqNum ?? 0,
            get: (t) => m.get(t),
            raw: m.raw.toString('latin1'),
            message: m,
          });
        },
      },
    });
    await until('logon', () => this.loggedOn, timeoutMs);
  }

  /** Logons so far (a reconnect counts): a session that stayed up keeps the count. */
  logons = 0;

  /** Why each logged-on connection ended, in order ("peer logged out: <its Text>" for a Logout of ours). */
  readonly logouts: string[] = [];

  get isLoggedOn(): boolean {
    return this.loggedOn;
  }

  status() {
    return this.initiator!.status();
  }

  send(msgType: string, body: Array<[number, string]>): Promise<number> {
    return this.initiator!.send(outgoing(msgType, body));
  }

  /** The next report for a ClOrdID matching a predicate (ExecType etc). */
  waitForReport(
    clOrdId: string,
    pred: (m: ReceivedMessage) => boolean = () => true,
    what = `report for ${clOrdId}`,
  ): Promise<ReceivedMessage> {
    return until(what, () => this.received.find((m) => m.get(11) === clOrdId && pred(m)));
  }

  async stop(): Promise<void> {
    await this.initiator?.stop();
    this.initiator = undefined;
  }

  /** Drops the connection without a Logout, as a crash would. */
  crash(): void {
    this.initiator?.crash();
    this.initiator = undefined;
    this.loggedOn = false;
  }
}

export function ts(d = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

export function maturity(monthsAhead = 2): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + monthsAhead);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** One leg of a multileg order: its contract month (YYYYMM), side and ratio. */
export interface SpreadLeg {
  maturity: string;
  side: string;
  ratio?: string;
}

/**
 * NewOrderMultileg body in tag order: a C5TC calendar spread, by default buying the month two ahead
 * and selling the next (ratios 1:1), 2 spreads at 300.
 */
export function calendarSpread(
  clOrdId: string,
  o: { qty?: string; price?: string; side?: string; legs?: readonly SpreadLeg[] } = {},
): Array<[number, string]> {
  const legs = o.legs ?? [
    { maturity: maturity(2), side: '1' },
    { maturity: maturity(3), side: '2' },
  ];
  const body: Array<[number, string]> = [
    [11, clOrdId],
    [38, o.qty ?? '2'],
    [40, '2'],
    [44, o.price ?? '300'],
    [54, o.side ?? '1'],
    [55, 'C5TC'],
    [59, '0'],
    [60, ts()],
    [167, 'MLEG'],
    [555, String(legs.length)],
  ];
  for (const leg of legs) body.push([600, 'C5TC'], [609, 'FUT'], [610, leg.maturity], [623, leg.ratio ?? '1'], [624, leg.side]);
  return body;
}

/** NewOrderSingle body in tag order. */
export function newOrderSingle(
  clOrdId: string,
  o: { side?: string; qty?: string; price?: string; symbol?: string; ordType?: string } = {},
): Array<[number, string]> {
  const body: Array<[number, string]> = [
    [11, clOrdId],
    [38, o.qty ?? '10'],
    [40, o.ordType ?? '2'],
  ];
  if ((o.ordType ?? '2') === '2') body.push([44, o.price ?? '27000']);
  body.push([54, o.side ?? '1'], [55, o.symbol ?? 'C5TC'], [59, '0'], [60, ts()], [100, 'SGX'], [167, 'FUT'], [200, maturity()]);
  body.push([453, '1'], [448, 'TRADER1'], [447, 'D'], [452, '11']);
  return body;
}
