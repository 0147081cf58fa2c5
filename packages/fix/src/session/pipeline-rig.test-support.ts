// A Session driven directly (no sockets) for the pipelining tests (pipeline.test.ts, send-queue.test.ts):
// a recording transport, memory stores, and an application whose fromApp calls finish when the test
// says so.
import assert from 'node:assert/strict';
import { formatUtcTimestamp } from '../codec/values';
import type { MessageStore } from '../store/message-store';
import { MemoryStoreFactory } from '../store/memory-store';
import type { Application, AppReceipt } from './application';
import { ManualClock } from './clock';
import { createSessionCodec } from './codec-adapter';
import { MemoryLogFactory } from './log';
import { RecordingTransport } from './recording-transport.test-support';
import type { InboundMessage } from './message';
import { Session } from './session';
import type { SessionID } from './session-id';
import { sessionSettings, type SessionSettings } from './session-settings';

export const codec = createSessionCodec();
export const ID: SessionID = { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'CLIENT' };

/** One fromApp call the test finishes by hand. */
export interface Call {
  readonly label: string;
  finish(receipt?: AppReceipt): void;
  fail(err: unknown): void;
}

/** An application whose fromApp promises stay pending until the test finishes them. */
export class ControlledApp implements Application {
  readonly calls: Call[] = [];
  async fromApp(m: InboundMessage): Promise<AppReceipt | void> {
    const label = `${m.msgType}:${m.get(11) ?? ''}`;
    return new Promise<AppReceipt | void>((resolve, reject) => this.calls.push({ label, finish: resolve, fail: reject }));
  }
  get labels(): string[] {
    return this.calls.map((c) => c.label);
  }
  call(label: string): Call {
    const c = this.calls.find((x) => x.label === label);
    assert.ok(c, `fromApp was not called for ${label} (calls: ${this.labels.join(', ')})`);
    return c;
  }
}

/** Lets promise callbacks and queued session events run. */
export const flush = () => new Promise<void>((r) => setImmediate(r));

export interface Rig {
  session: Session;
  app: ControlledApp;
  transport: RecordingTransport;
  stores: MemoryStoreFactory;
  clock: ManualClock;
  receive(fields: string): Promise<void>;
  /** The next expected inbound number as the store has it (what a restart would start from). */
  durableTarget(): Promise<number>;
}

export async function rig(
  overrides: Partial<SessionSettings> = {},
  stores = new MemoryStoreFactory(),
  wrapStore?: (s: MessageStore) => MessageStore,
): Promise<Rig> {
  const clock = new ManualClock();
  const app = new ControlledApp();
  let store = await stores.open(ID, new Date(clock.now()));
  if (wrapStore) store = wrapStore(store);
  const session = await Session.create({
    id: ID,
    settings: sessionSettings('acceptor', overrides),
    store,
    app,
    log: new MemoryLogFactory().create(ID),
    clock,
    timers: clock,
    codec,
  });
  const transport = new RecordingTransport();
  const receive = (fields: string) => {
    const parts = fields.split('|');
    const header: Array<[number, string]> = [
      [49, ID.targetCompID],
      [56, ID.senderCompID],
      [34, parts.find((p) => p.startsWith('34='))!.slice(3)],
      [52, formatUtcTimestamp(clock.now())],
    ];
    const rest = parts.filter((p) => !p.startsWith('35=') && !p.startsWith('34='));
    const extraHeader = rest
      .filter((p) => /^(43|122|97)=/.test(p))
      .map((p) => p.split('='))
      .map(([t, v]) => [Number(t), v!] as [number, string]);
    const body = rest
      .filter((p) => !/^(43|122|97)=/.test(p))
      .map((p) => {
        const i = p.indexOf('=');
        return [Number(p.slice(0, i)), p.slice(i + 1)] as [number, string];
      });
    const raw = codec.encode('FIX.4.4', parts.find((p) => p.startsWith('35='))!.slice(3), [...header, ...extraHeader], body);
    return session.receive(transport, codec.decode(raw));
  };
  const durableTarget = async () => (await (await stores.open(ID, new Date(clock.now()))).sequenceState()).nextTargetMsgSeqNum;
  await session.connect(transport);
  await receive('35=A|34=1|98=0|108=30');
  assert.equal(session.status().state, 'inSession');
  transport.take();
  return { session, app, transport, stores, clock, receive, durableTarget };
}

export const D = (seq: number, id: string) => `35=D|34=${seq}|11=${id}|21=1|55=C5TC|54=1|60=20240102-09:00:00|38=10|40=1`;
export const F = (seq: number, id: string, orig: string) => `35=F|34=${seq}|11=${id}|41=${orig}|55=C5TC|54=1|60=20240102-09:00:00|38=10`;
export const PIPELINED = { pipelineApplication: ['D'] };
