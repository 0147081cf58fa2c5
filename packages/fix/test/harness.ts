// Socket-level test support: a scripted FIX client against a real acceptor on a loopback port, with
// the engine's clock and timers under the script's control.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { FixFramer } from '../src/codec/framer';
import { ManualClock } from '../src/session/clock';
import { formatUtcTimestamp } from '../src/codec/values';
import type { InboundMessage } from '../src/session/message';
import type { SessionID } from '../src/session/session-id';
import type { SessionSettings } from '../src/session/session-settings';
import type { Acceptor } from '../src/engine/acceptor';
import { startConformanceAcceptor } from '../src/conformance/conformance-acceptor';
import { MemoryStoreFactory } from '../src/store/memory-store';
import { MemoryLogFactory } from '../src/session/log';
import { Dictionary } from '../src/dictionary/dictionary';

export const SOH = '\x01';
const dictionary = Dictionary.fix44();

/** Replaces <TIME>, <TIME-5>, <TIME+2> (seconds from the engine clock) and | with SOH. */
export function expand(text: string, clock: ManualClock): string {
  return text
    .replace(/<TIME([+-]\d+(?:\.\d+)?)?>/g, (_, offset: string | undefined) =>
      formatUtcTimestamp(clock.now() + (offset ? Number(offset) * 1000 : 0)),
    )
    .replaceAll('|', SOH);
}

export function checksum(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i) & 0xff;
  return String(sum % 256).padStart(3, '0');
}

/** Builds a correct frame from "8=...|35=...|..." (any 9 and 10 given are recomputed). */
export function frame(fields: string): string {
  const parts = fields
    .split(SOH)
    .filter(Boolean)
    .filter((p) => !p.startsWith('9=') && !p.startsWith('10='));
  const begin = parts.shift()!;
  const body = parts.map((p) => p + SOH).join('');
  const head = `${begin}${SOH}9=${Buffer.byteLength(body, 'latin1')}${SOH}${body}`;
  return `${head}10=${checksum(head)}${SOH}`;
}

/** A raw line: <LEN> becomes the BodyLength of what follows it, <SUM> the checksum of what precedes it. */
export function rawFrame(text: string): string {
  let out = text;
  const lenAt = out.indexOf('9=<LEN>' + SOH);
  if (lenAt >= 0) {
    const bodyStart = lenAt + '9=<LEN>'.length + 1;
    const trailer = out.lastIndexOf(SOH + '10=');
    const body = out.slice(bodyStart, trailer + 1);
    out = out.replace('9=<LEN>', `9=${Buffer.byteLength(body, 'latin1')}`);
  }
  const sumAt = out.indexOf('10=<SUM>');
  if (sumAt >= 0) out = out.replace('10=<SUM>', `10=${checksum(out.slice(0, sumAt))}`);
  return out;
}

export function fieldsOf(raw: string): Array<[number, string]> {
  return raw
    .split(SOH)
    .filter(Boolean)
    .map((p) => {
      const eq = p.indexOf('=');
      return [Number(p.slice(0, eq)), p.slice(eq + 1)] as [number, string];
    });
}

export const show = (raw: string) => raw.replaceAll(SOH, '|');

/**
 * Compares a received message with an expected line: the same header fields (any order, as header
 * order is the encoder's business), the same body fields in the same order. <ANY> matches any value;
 * 9 and 10 are checked by the framer, not here.
 */
export function assertMessage(actual: string, expectedLine: string, where: string): void {
  const skip = (t: number) => t === 9 || t === 10;
  const a = fieldsOf(actual).filter(([t]) => !skip(t));
  const e = fieldsOf(expectedLine).filter(([t]) => !skip(t));
  const split = (fs: Array<[number, string]>) => ({
    header: fs.filter(([t]) => dictionary.isHeaderTag(t)).sort((x, y) => x[0] - y[0]),
    body: fs.filter(([t]) => !dictionary.isHeaderTag(t)),
  });
  const sa = split(a);
  const se = split(e);
  const eq = (x: Array<[number, string]>, y: Array<[number, string]>) =>
    x.length === y.length && x.every(([t, v], i) => t === y[i]![0] && (y[i]![1] === '<ANY>' || v === y[i]![1]));
  if (!eq(sa.header, se.header) || !eq(sa.body, se.body)) {
    assert.fail(`${where}: message differs\n  expected ${show(expectedLine)}\n  received ${show(actual)}`);
  }
}

/** One scripted client connection. */
export class TestClient {
  private readonly framer = new FixFramer({ beginString: 'FIX.4.4' });
  private readonly received: string[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const f of this.framer.push(chunk)) {
        if (f.kind === 'garbled') this.received.push(`GARBLED ${f.reason}`);
        else this.received.push(f.bytes.toString('latin1'));
      }
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
  }

  static open(port: number, host = '127.0.0.1'): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const s = connect({ host, port }, () => resolve(new TestClient(s)));
      s.setNoDelay(true);
      s.once('error', reject);
    });
  }

  send(raw: string): void {
    this.socket.write(Buffer.from(raw, 'latin1'));
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** The next message, or undefined when the connection closed or the time ran out. */
  async next(timeoutMs: number): Promise<string | undefined> {
    const until = Date.now() + timeoutMs;
    while (this.received.length === 0 && !this.closed && Date.now() < until) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, until - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.received.shift();
  }

  pending(): number {
    return this.received.length;
  }
}

export interface AppDelivery {
  readonly msgType: string;
  readonly clOrdID: string | undefined;
  readonly msgSeqNum: string | undefined;
}

/** The conformance acceptor on a free port with a manual clock; restartable over the same store. */
export class AcceptorHarness {
  readonly clock = new ManualClock(Date.UTC(2024, 0, 2, 9, 0, 0));
  readonly stores = new MemoryStoreFactory();
  readonly logs = new MemoryLogFactory();
  readonly delivered: AppDelivery[] = [];
  acceptor!: Acceptor;
  port = 0;

  constructor(private readonly settings: Partial<SessionSettings> = {}) {}

  async start(): Promise<void> {
    this.acceptor = await startConformanceAcceptor({
      port: this.port,
      host: '127.0.0.1',
      clock: this.clock,
      timers: this.clock,
      storeFactory: this.stores,
      logFactory: this.logs,
      settings: this.settings,
      onFromApp: (m: InboundMessage) => this.delivered.push({ msgType: m.msgType, clOrdID: m.get(11), msgSeqNum: m.get(34) }),
    });
    this.port = this.acceptor.port;
  }

  /** kill -9: sockets gone, no Logout, nothing closed; a new acceptor then opens the same store. */
  async crashAndRestart(): Promise<void> {
    await this.acceptor.crash();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.acceptor.stop(200);
  }

  /** Lets queued session work (ticks, echoes) finish. */
  async settle(): Promise<void> {
    for (const s of this.acceptor.list()) await this.acceptor.session(s.sessionID)?.idle();
  }
}

export const TW: SessionID = { beginString: 'FIX.4.4', senderCompID: 'ISLD', targetCompID: 'TW' };
