// settings.pipelineApplication: application messages handed on before earlier ones finished, numbers
// persisted in order once they did, and everything else waiting for the pipeline. A Session driven
// directly (no sockets) with an application whose fromApp calls finish when the test says so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatUtcTimestamp } from '../codec/values';
import type { MessageStore, StoredMessage } from '../store/message-store';
import { MemoryStoreFactory } from '../store/memory-store';
import { BusinessRejectError, type Application, type AppReceipt } from './application';
import { ManualClock } from './clock';
import { createSessionCodec } from './codec-adapter';
import { MemoryLogFactory } from './log';
import { RecordingTransport } from './recording-transport.test-support';
import { outgoing, type InboundMessage } from './message';
import { Session } from './session';
import type { SessionID } from './session-id';
import { sessionSettings, type SessionSettings } from './session-settings';

const codec = createSessionCodec();
const ID: SessionID = { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'CLIENT' };


/** One fromApp call the test finishes by hand. */
interface Call {
  readonly label: string;
  finish(receipt?: AppReceipt): void;
  fail(err: unknown): void;
}

/** An application whose fromApp promises stay pending until the test finishes them. */
class ControlledApp implements Application {
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
const flush = () => new Promise<void>((r) => setImmediate(r));

interface Rig {
  session: Session;
  app: ControlledApp;
  transport: RecordingTransport;
  stores: MemoryStoreFactory;
  clock: ManualClock;
  receive(fields: string): Promise<void>;
  /** The next expected inbound number as the store has it (what a restart would start from). */
  durableTarget(): Promise<number>;
}

async function rig(overrides: Partial<SessionSettings> = {}, stores = new MemoryStoreFactory(), wrapStore?: (s: MessageStore) => MessageStore): Promise<Rig> {
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
    const extraHeader = rest.filter((p) => /^(43|122|97)=/.test(p)).map((p) => p.split('=')).map(([t, v]) => [Number(t), v!] as [number, string]);
    const body = rest.filter((p) => !/^(43|122|97)=/.test(p)).map((p) => {
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

const D = (seq: number, id: string) => `35=D|34=${seq}|11=${id}|21=1|55=C5TC|54=1|60=20240102-09:00:00|38=10|40=1`;
const F = (seq: number, id: string, orig: string) => `35=F|34=${seq}|11=${id}|41=${orig}|55=C5TC|54=1|60=20240102-09:00:00|38=10`;
const PIPELINED = { pipelineApplication: ['D'] };

describe('application pipelining', () => {
  it("records an inbound message with the time it arrived, not the time its processing ended", async () => {
    const saved: StoredMessage[] = [];
    const r = await rig(PIPELINED, new MemoryStoreFactory(), (s) =>
      new Proxy(s, {
        get(target, prop) {
          if (prop === 'saveInbound') return (m: StoredMessage, n?: number) => (saved.push(m), target.saveInbound(m, n));
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      }),
    );
    const arrived = r.clock.now();
    void r.receive(D(2, 'A'));
    await flush();
    r.clock.advance(750);
    r.app.call('D:A').finish();
    await r.session.idle();
    const d = saved.find((m) => m.msgType === 'D')!;
    assert.equal(d.receivedAt, arrived);
  });

  it('is off by default: the next message waits until fromApp of the previous one resolved', async () => {
    const r = await rig();
    void r.receive(D(2, 'A'));
    void r.receive(D(3, 'B'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A']);
    r.app.call('D:A').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B']);
    r.app.call('D:B').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 4);
  });

  it('hands on messages in sequence without waiting, and persists each number only once it and every earlier one finished', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    await r.receive(D(4, 'C'));
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C'], 'fromApp called in MsgSeqNum order before any finished');
    assert.equal(r.session.status().nextTargetMsgSeqNum, 5, 'the next message is in sequence');
    assert.equal(await r.durableTarget(), 2, 'nothing persisted while A is with the application');

    r.app.call('D:B').finish();
    await flush();
    assert.equal(await r.durableTarget(), 2, 'B finished first, but A is still open: a crash now must replay A and B');

    r.app.call('D:A').finish();
    await flush();
    assert.equal(await r.durableTarget(), 4, 'A and B persisted together, C still open');

    r.app.call('D:C').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 5);
    const audit = r.stores.audit(ID).filter((m) => m.direction === 'RX' && m.msgType === 'D');
    assert.deepEqual(audit.map((m) => m.msgSeqNum), [2, 3, 4], 'audit records in sequence');
  });

  it("writes the OrderID fromApp reports into the message's audit record, pipelined or not", async () => {
    for (const settings of [PIPELINED, {}]) {
      const r = await rig(settings);
      void r.receive(D(2, 'A'));
      await flush();
      void r.receive(D(3, 'B'));
      await flush();
      r.app.call('D:A').finish({ brokerOrderID: 'BO00000001' });
      await flush();
      r.app.call('D:B').finish();
      await r.session.idle();
      const audit = r.stores.audit(ID).filter((m) => m.direction === 'RX' && m.msgType === 'D');
      assert.deepEqual(audit.map((m) => [m.clOrdID, m.brokerOrderID]), [['A', 'BO00000001'], ['B', undefined]], JSON.stringify(settings));
    }
  });

  it('a crash with messages still open restarts from the first unfinished number', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    r.app.call('D:A').finish();
    await flush();
    // kill -9: nothing more happens to this session; a new process opens the same store.
    const restarted = await Session.create({
      id: ID,
      settings: sessionSettings('acceptor', PIPELINED),
      store: await r.stores.open(ID, new Date(r.clock.now())),
      app: new ControlledApp(),
      log: new MemoryLogFactory().create(ID),
      clock: r.clock,
      timers: r.clock,
      codec,
    });
    assert.equal(restarted.status().nextTargetMsgSeqNum, 3, 'B was never finished: the peer must resend it');
  });

  it('an admin message waits for the pipeline: its answer and its number come after the open orders', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    const testRequest = r.receive('35=1|34=3|112=PING');
    await flush();
    assert.deepEqual(r.transport.types(), [], 'no Heartbeat while A is open');
    r.app.call('D:A').finish();
    await testRequest;
    assert.deepEqual(r.transport.types(), ['0']);
    assert.match(r.transport.sent[0]!, /\|112=PING\|/);
    assert.equal(await r.durableTarget(), 4);
  });

  it('a message type that is not pipelined is a barrier: its fromApp waits for the open ones', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    void r.receive(F(3, 'A2', 'A'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A'], 'the cancel must see the order it refers to');
    r.app.call('D:A').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'F:A2']);
    void r.receive(D(4, 'B'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'F:A2'], 'and messages behind it wait for it');
    r.app.call('F:A2').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'F:A2', 'D:B']);
    r.app.call('D:B').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 5);
  });

  it('a gap behind open messages is handled once they finished, as without pipelining', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    const ahead = r.receive(D(4, 'C'));
    await flush();
    assert.deepEqual(r.transport.types(), [], 'no ResendRequest before A is finished');
    r.app.call('D:A').finish();
    await ahead;
    assert.equal(r.session.status().state, 'resend');
    assert.match(r.transport.take()[0]!, /\|35=2\|.*\|7=3\|16=0\|/);
    await r.receive(`${D(3, 'B')}`.replace('|11=', '|43=Y|122=20240102-08:59:59.000|11='));
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C'], 'the gap fill releases the queued message in order');
    r.app.call('D:B').finish();
    r.app.call('D:C').finish();
    await r.session.idle();
    assert.equal(r.session.status().state, 'inSession');
    assert.equal(await r.durableTarget(), 5);
  });

  it('a failing fromApp is answered in order and its number consumed after the earlier ones', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    r.app.call('D:B').fail(new BusinessRejectError('0', 'No thanks', 'B'));
    await flush();
    assert.deepEqual(r.transport.types(), [], 'B answered only after A');
    assert.equal(await r.durableTarget(), 2);
    r.app.call('D:A').finish();
    await r.session.idle();
    assert.deepEqual(r.transport.types(), ['j']);
    assert.match(r.transport.sent[0]!, /\|45=3\|58=No thanks\|372=D\|379=B\|380=0\|/);
    assert.equal(await r.durableTarget(), 4);
  });

  it('a session Reject of a malformed message behind open ones keeps its number in order', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    // Side (54) missing: the dictionary rejects it without the application seeing it.
    await r.receive('35=D|34=3|11=B|21=1|55=C5TC|60=20240102-09:00:00|38=10|40=1');
    assert.deepEqual(r.transport.types(), ['3']);
    assert.equal(r.session.status().nextTargetMsgSeqNum, 4);
    assert.equal(await r.durableTarget(), 2, 'not before A');
    r.app.call('D:A').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 4);
  });

  it('a disconnect waits for the open messages and persists their numbers', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    const closed = r.session.connectionClosed(r.transport, 'peer went away');
    await flush();
    assert.equal(r.session.status().state, 'inSession');
    r.app.call('D:A').finish();
    await closed;
    assert.equal(r.session.status().state, 'disconnected');
    assert.equal(await r.durableTarget(), 3);
  });

  it('holds at most maxPipelinedMessages open; the next one waits', async () => {
    const r = await rig({ ...PIPELINED, maxPipelinedMessages: 2 });
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    void r.receive(D(4, 'C'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B']);
    r.app.call('D:A').finish();
    r.app.call('D:B').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C']);
    r.app.call('D:C').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 5);
  });

  it('refuses admin message types in the setting', () => {
    assert.throws(() => sessionSettings('acceptor', { pipelineApplication: ['D', '0'] }), /application message types only/);
    assert.throws(() => sessionSettings('acceptor', { maxPipelinedMessages: 0 }), /positive integer/);
  });
});

const ER = (id: string) => outgoing('8', [[37, `B-${id}`], [11, id], [17, `E-${id}`], [150, '0'], [39, '0'], [55, 'C5TC'], [54, '1'], [151, '10'], [14, '0'], [6, '0']]);

/** Counts store writes and can make the n-th saveOutbound fail. */
function countingStore(inner: MessageStore, failOutboundSeq?: number) {
  const stats = { outboundCalls: 0, concurrentMax: 0, inFlight: 0 };
  const store: MessageStore = {
    sessionID: inner.sessionID,
    sequenceState: () => inner.sequenceState(),
    saveOutbound: async (m: StoredMessage) => {
      stats.outboundCalls++;
      stats.inFlight++;
      stats.concurrentMax = Math.max(stats.concurrentMax, stats.inFlight);
      await flush();
      stats.inFlight--;
      if (m.msgSeqNum === failOutboundSeq) throw new Error('disk full');
      return inner.saveOutbound(m);
    },
    saveInbound: (m, n) => inner.saveInbound(m, n),
    auditOutbound: (m) => inner.auditOutbound(m),
    setNextSenderMsgSeqNum: (n) => inner.setNextSenderMsgSeqNum(n),
    setNextTargetMsgSeqNum: (n) => inner.setNextTargetMsgSeqNum(n),
    outboundRange: (b, e, l) => inner.outboundRange(b, e, l),
    reset: (t) => inner.reset(t),
    close: () => inner.close(),
  };
  return { store, stats };
}

describe('sends queued back to back', () => {
  it('replies fired together from inside fromApp get distinct numbers, in order', async () => {
    const clock = new ManualClock();
    const stores = new MemoryStoreFactory();
    const self: { session?: Session } = {};
    const app: Application = {
      // Three reports without waiting for each: they run inside the event, side by side.
      fromApp: async () => {
        await Promise.all(['R1', 'R2', 'R3'].map((id) => self.session!.send(ER(id))));
      },
    };
    const session = (self.session = await Session.create({ id: ID, settings: sessionSettings('acceptor'), store: await stores.open(ID, new Date(clock.now())), app, log: new MemoryLogFactory().create(ID), clock, timers: clock, codec }));
    const transport = new RecordingTransport();
    await session.connect(transport);
    const msg = (fields: Array<[number, string]>, type: string, seq: number) =>
      codec.decode(codec.encode('FIX.4.4', type, [[49, ID.targetCompID], [56, ID.senderCompID], [34, String(seq)], [52, formatUtcTimestamp(clock.now())]], fields));
    await session.receive(transport, msg([[98, '0'], [108, '30']], 'A', 1));
    transport.take();
    await session.receive(transport, msg([[11, 'O1'], [21, '1'], [55, 'C5TC'], [54, '1'], [60, '20240102-09:00:00'], [38, '10'], [40, '1']], 'D', 2));
    await session.idle();
    assert.deepEqual(transport.sent.map((m) => [/\|34=(\d+)/.exec(m)![1], /\|11=([^|]+)/.exec(m)![1]]), [['2', 'R1'], ['3', 'R2'], ['4', 'R3']]);
    assert.deepEqual((await (await stores.open(ID, new Date())).outboundRange(2, 4, 10)).map((m) => m.clOrdID), ['R1', 'R2', 'R3']);
  });

  it('are persisted together and written in order, each after its store write', async () => {
    let counting!: ReturnType<typeof countingStore>;
    const r = await rig({}, new MemoryStoreFactory(), (s) => (counting = countingStore(s)).store);
    const seqs = await Promise.all(['X1', 'X2', 'X3'].map((id) => r.session.send(ER(id))));
    assert.deepEqual(seqs, [2, 3, 4]);
    assert.equal(counting.stats.concurrentMax, 3, 'the three store writes were issued together');
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['X1', 'X2', 'X3']);
    assert.deepEqual(r.transport.sent.map((m) => /\|34=(\d+)/.exec(m)![1]), ['2', '3', '4']);
    assert.equal((await (await r.stores.open(ID, new Date())).sequenceState()).nextSenderMsgSeqNum, 5);
  });

  it('sends while fromApp runs go out at once, behind the sends queued before it', async () => {
    const r = await rig();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reply: Promise<number> | undefined;
    r.app.fromApp = async () => {
      await gate;
      reply = r.session.send(ER('REPLY'));
      // Never resolves if the reply waits behind the event that waits for this fromApp.
      await reply;
    };
    const received = r.receive(D(2, 'O1'));
    const queued = r.session.send(ER('QUEUED'));
    await flush();
    assert.deepEqual(r.transport.sent, [], 'queued behind the event, which waits for fromApp');
    const during = r.session.send(ER('DURING'));
    await flush();
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['QUEUED', 'DURING']);
    release();
    await received;
    assert.deepEqual(await Promise.all([queued, during, reply!]), [2, 3, 4]);
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['QUEUED', 'DURING', 'REPLY']);
    assert.equal(await r.durableTarget(), 3);
    assert.equal((await (await r.stores.open(ID, new Date())).sequenceState()).nextSenderMsgSeqNum, 5);
  });

  it('a send after the callback finished queues behind the event again', async () => {
    const r = await rig();
    let late: Promise<number> | undefined;
    (r.app as Application).fromApp = () => {
      // Runs once fromApp returned, before the event persisted the inbound number.
      queueMicrotask(() => (late = r.session.send(ER('LATE'))));
    };
    await r.receive(D(2, 'O1'));
    assert.ok(late);
    assert.equal(await late, 2);
    assert.deepEqual(r.transport.types(), ['8']);
    const audit = r.stores.audit(ID).slice(-2).map((m) => `${m.direction}:${m.msgType}`);
    assert.deepEqual(audit, ['RX:D', 'TX:8'], 'the send waited for the event that handed on the order');
  });

  it('keep their place around other events: a send after a logout is not written', async () => {
    const r = await rig();
    const first = r.session.send(ER('BEFORE'));
    const logout = r.session.logout('bye');
    const second = r.session.send(ER('AFTER'));
    await Promise.all([first, logout, second]);
    assert.deepEqual(r.transport.types(), ['8', '5', '8'], 'the second report is written after the Logout, as one by one');
  });

  it('a failed store write fails that message, writes nothing after it and drops the connection', async () => {
    const r = await rig({}, new MemoryStoreFactory(), (s) => countingStore(s, 3).store);
    const results = await Promise.allSettled(['X1', 'X2', 'X3'].map((id) => r.session.send(ER(id))));
    assert.deepEqual(results.map((x) => x.status), ['fulfilled', 'rejected', 'fulfilled']);
    await r.session.idle();
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['X1'], 'nothing written past the failure');
    assert.equal(r.session.status().state, 'disconnected');
    assert.match(r.transport.ended ?? '', /message store failed/);
    // X3 is in the store: a resend after the next logon offers it; 3 is missing and gets gap-filled.
    const stored = await (await r.stores.open(ID, new Date())).outboundRange(1, 10, 10);
    assert.deepEqual(stored.map((m) => m.msgSeqNum), [1, 2, 4]);
  });
});

/** A store whose outbound writes wait until the test opens the gate. */
function gatedStore(inner: MessageStore) {
  const gates: Array<{ seq: number; open: () => void; fail: (err: unknown) => void }> = [];
  const store: MessageStore = {
    sessionID: inner.sessionID,
    sequenceState: () => inner.sequenceState(),
    saveOutbound: async (m: StoredMessage) => {
      if (m.msgType === '8') await new Promise<void>((open, fail) => gates.push({ seq: m.msgSeqNum, open, fail }));
      return inner.saveOutbound(m);
    },
    saveInbound: (m, n) => inner.saveInbound(m, n),
    auditOutbound: (m) => inner.auditOutbound(m),
    setNextSenderMsgSeqNum: (n) => inner.setNextSenderMsgSeqNum(n),
    setNextTargetMsgSeqNum: (n) => inner.setNextTargetMsgSeqNum(n),
    outboundRange: (b, e, l) => inner.outboundRange(b, e, l),
    reset: (t) => inner.reset(t),
    close: () => inner.close(),
  };
  const gate = (seq: number) => {
    const g = gates.find((x) => x.seq === seq);
    assert.ok(g, `no store write waiting for MsgSeqNum ${seq}`);
    return g;
  };
  return { store, gate };
}

describe('sends behind the event queue (settings.pipelineSends)', () => {
  const SETTINGS = { pipelineApplication: ['D'], pipelineSends: true };

  it('an inbound order does not wait for the store write of a report going out', async () => {
    let gated!: ReturnType<typeof gatedStore>;
    const r = await rig(SETTINGS, new MemoryStoreFactory(), (s) => (gated = gatedStore(s)).store);
    const sent = r.session.send(ER('X1'));
    await flush();
    await r.receive(D(2, 'A'));
    assert.deepEqual(r.app.labels, ['D:A'], 'handed on while the report waits for its commit');
    assert.deepEqual(r.transport.types(), [], 'nothing written before the store write');
    gated.gate(2).open();
    assert.equal(await sent, 2);
    assert.deepEqual(r.transport.types(), ['8']);
    r.app.call('D:A').finish();
    await r.session.idle();
  });

  it('writes in MsgSeqNum order even when a later store write finishes first', async () => {
    let gated!: ReturnType<typeof gatedStore>;
    const r = await rig(SETTINGS, new MemoryStoreFactory(), (s) => (gated = gatedStore(s)).store);
    const first = r.session.send(ER('X1'));
    await flush();
    const second = r.session.send(ER('X2'));
    await flush();
    gated.gate(3).open();
    await flush();
    assert.deepEqual(r.transport.sent, [], 'X2 waits for X1');
    gated.gate(2).open();
    assert.deepEqual(await Promise.all([first, second]), [2, 3]);
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['X1', 'X2']);
  });

  it('a ResendRequest is answered only once the reports numbered before it are stored', async () => {
    let gated!: ReturnType<typeof gatedStore>;
    const r = await rig(SETTINGS, new MemoryStoreFactory(), (s) => (gated = gatedStore(s)).store);
    void r.session.send(ER('X1'));
    await flush();
    const resend = r.receive('35=2|34=2|7=2|16=0');
    await flush();
    assert.deepEqual(r.transport.types(), []);
    gated.gate(2).open();
    await resend;
    // The report itself, then its copy for the resend (PossDupFlag=Y): never a GapFill over it.
    assert.deepEqual(r.transport.types(), ['8', '8']);
    assert.match(r.transport.sent[1]!, /\|43=Y\|/);
  });

  it('a failed store write writes nothing after it and drops the connection; the next logon reloads the numbers', async () => {
    let gated!: ReturnType<typeof gatedStore>;
    const r = await rig(SETTINGS, new MemoryStoreFactory(), (s) => (gated = gatedStore(s)).store);
    const results = Promise.allSettled(['X1', 'X2', 'X3'].map((id) => r.session.send(ER(id))));
    await flush();
    gated.gate(2).open();
    gated.gate(3).fail(new Error('disk full'));
    gated.gate(4).open();
    assert.deepEqual((await results).map((x) => x.status), ['fulfilled', 'rejected', 'fulfilled']);
    await r.session.idle();
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['X1']);
    assert.equal(r.session.status().state, 'disconnected');
    assert.match(r.transport.ended ?? '', /message store failed/);
    // Reconnect: the durable numbers (X3 stored, so next is 5) are the truth again.
    const again = new RecordingTransport();
    await r.session.connect(again);
    assert.equal(r.session.status().nextSenderMsgSeqNum, 5);
  });
});

describe('sends the caller persists itself (reserveSend)', () => {
  const SETTINGS = { pipelineApplication: ['D'], pipelineSends: true };

  it('takes the next number at once and writes only once the caller says its commit succeeded', async () => {
    const r = await rig(SETTINGS);
    const reservation = r.session.reserveSend(ER('X1'));
    assert.ok(reservation);
    assert.equal(reservation.msgSeqNum, 2);
    assert.equal(reservation.record.msgSeqNum, 2);
    assert.equal(reservation.record.clOrdID, 'X1');
    assert.match(reservation.record.raw, /\u000134=2\u0001/);
    assert.equal(r.session.status().nextSenderMsgSeqNum, 3);
    await flush();
    assert.deepEqual(r.transport.sent, [], 'nothing written before the caller committed');
    await reservation.committed();
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['X1']);
    assert.equal(r.transport.sent[0], reservation.record.raw.replaceAll('\u0001', '|'));
  });

  it('keeps number order with ordinary sends around it', async () => {
    let gated!: ReturnType<typeof gatedStore>;
    const r = await rig(SETTINGS, new MemoryStoreFactory(), (s) => (gated = gatedStore(s)).store);
    const first = r.session.send(ER('X1'));
    await flush();
    const reserved = r.session.reserveSend(ER('X2'))!;
    assert.equal(reserved.msgSeqNum, 3);
    const third = r.session.send(ER('X3'));
    await flush();
    gated.gate(4).open();
    void reserved.committed();
    await flush();
    assert.deepEqual(r.transport.sent, [], 'X2 and X3 wait for X1');
    gated.gate(2).open();
    assert.deepEqual(await Promise.all([first, third]), [2, 4]);
    assert.deepEqual(r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]), ['X1', 'X2', 'X3']);
  });

  it('a failed commit writes nothing after it and drops the connection', async () => {
    const r = await rig(SETTINGS);
    const reserved = r.session.reserveSend(ER('X1'))!;
    const behind = r.session.send(ER('X2'));
    await flush();
    reserved.failed(new Error('could not commit'));
    await Promise.allSettled([behind]);
    await r.session.idle();
    assert.deepEqual(r.transport.sent, []);
    assert.equal(r.session.status().state, 'disconnected');
    assert.match(r.transport.ended ?? '', /could not commit/);
  });

  it('a message that cannot be encoded is refused and uses up no number', async () => {
    const r = await rig(SETTINGS);
    const before = r.session.status().nextSenderMsgSeqNum;
    assert.equal(r.session.reserveSend(outgoing('8', [[37, 'B-1'], [11, 'X1'], [58, 'Łódź']])), undefined);
    assert.equal(r.session.status().nextSenderMsgSeqNum, before);
    await assert.rejects(r.session.send(outgoing('8', [[37, 'B-1'], [11, 'X1'], [58, 'Łódź']])));
    assert.equal(r.session.status().nextSenderMsgSeqNum, before, 'nor does an ordinary send of it');
  });

  it('is refused while not logged on, without pipelineSends, or with sends already queued', async () => {
    const plain = await rig({ pipelineApplication: ['D'] });
    assert.equal(plain.session.reserveSend(ER('X1')), undefined, 'pipelineSends is off');
    const r = await rig(SETTINGS);
    void r.session.send(ER('X1'));
    assert.equal(r.session.reserveSend(ER('X2')), undefined, 'a send is queued: it must keep its place');
    await r.session.idle();
    await r.session.disconnect('test');
    assert.equal(r.session.reserveSend(ER('X3')), undefined, 'logged out');
  });
});
