// Sends queued back to back and sends behind the event queue (settings.pipelineSends): numbers,
// store writes and socket writes in order, failures that drop the connection. Driven without sockets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatUtcTimestamp } from '../codec/values';
import type { MessageStore, StoredMessage } from '../store/message-store';
import { MemoryStoreFactory } from '../store/memory-store';
import { type Application } from './application';
import { ManualClock } from './clock';
import { MemoryLogFactory } from './log';
import { RecordingTransport } from './recording-transport.test-support';
import { outgoing } from './message';
import { Session } from './session';
import { sessionSettings } from './session-settings';
import { codec, D, flush, ID, rig } from './pipeline-rig.test-support';

const ER = (id: string) =>
  outgoing('8', [
    [37, `B-${id}`],
    [11, id],
    [17, `E-${id}`],
    [150, '0'],
    [39, '0'],
    [55, 'C5TC'],
    [54, '1'],
    [151, '10'],
    [14, '0'],
    [6, '0'],
  ]);

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
    const session = (self.session = await Session.create({
      id: ID,
      settings: sessionSettings('acceptor'),
      store: await stores.open(ID, new Date(clock.now())),
      app,
      log: new MemoryLogFactory().create(ID),
      clock,
      timers: clock,
      codec,
    }));
    const transport = new RecordingTransport();
    await session.connect(transport);
    const msg = (fields: Array<[number, string]>, type: string, seq: number) =>
      codec.decode(
        codec.encode(
          'FIX.4.4',
          type,
          [
            [49, ID.targetCompID],
            [56, ID.senderCompID],
            [34, String(seq)],
            [52, formatUtcTimestamp(clock.now())],
          ],
          fields,
        ),
      );
    await session.receive(
      transport,
      msg(
        [
          [98, '0'],
          [108, '30'],
        ],
        'A',
        1,
      ),
    );
    transport.take();
    await session.receive(
      transport,
      msg(
        [
          [11, 'O1'],
          [21, '1'],
          [55, 'C5TC'],
          [54, '1'],
          [60, '20240102-09:00:00'],
          [38, '10'],
          [40, '1'],
        ],
        'D',
        2,
      ),
    );
    await session.idle();
    assert.deepEqual(
      transport.sent.map((m) => [/\|34=(\d+)/.exec(m)![1], /\|11=([^|]+)/.exec(m)![1]]),
      [
        ['2', 'R1'],
        ['3', 'R2'],
        ['4', 'R3'],
      ],
    );
    assert.deepEqual(
      (await (await stores.open(ID, new Date())).outboundRange(2, 4, 10)).map((m) => m.clOrdID),
      ['R1', 'R2', 'R3'],
    );
  });

  it('are persisted together and written in order, each after its store write', async () => {
    let counting!: ReturnType<typeof countingStore>;
    const r = await rig({}, new MemoryStoreFactory(), (s) => (counting = countingStore(s)).store);
    const seqs = await Promise.all(['X1', 'X2', 'X3'].map((id) => r.session.send(ER(id))));
    assert.deepEqual(seqs, [2, 3, 4]);
    assert.equal(counting.stats.concurrentMax, 3, 'the three store writes were issued together');
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['X1', 'X2', 'X3'],
    );
    assert.deepEqual(
      r.transport.sent.map((m) => /\|34=(\d+)/.exec(m)![1]),
      ['2', '3', '4'],
    );
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
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['QUEUED', 'DURING'],
    );
    release();
    await received;
    assert.deepEqual(await Promise.all([queued, during, reply!]), [2, 3, 4]);
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['QUEUED', 'DURING', 'REPLY'],
    );
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
    const audit = r.stores
      .audit(ID)
      .slice(-2)
      .map((m) => `${m.direction}:${m.msgType}`);
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
    assert.deepEqual(
      results.map((x) => x.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    await r.session.idle();
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['X1'],
      'nothing written past the failure',
    );
    assert.equal(r.session.status().state, 'disconnected');
    assert.match(r.transport.ended ?? '', /message store failed/);
    // X3 is in the store: a resend after the next logon offers it; 3 is missing and gets gap-filled.
    const stored = await (await r.stores.open(ID, new Date())).outboundRange(1, 10, 10);
    assert.deepEqual(
      stored.map((m) => m.msgSeqNum),
      [1, 2, 4],
    );
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
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['X1', 'X2'],
    );
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
    assert.deepEqual(
      (await results).map((x) => x.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    await r.session.idle();
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['X1'],
    );
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
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['X1'],
    );
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
    assert.deepEqual(
      r.transport.sent.map((m) => /\|11=([^|]+)/.exec(m)![1]),
      ['X1', 'X2', 'X3'],
    );
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
    assert.equal(
      r.session.reserveSend(
        outgoing('8', [
          [37, 'B-1'],
          [11, 'X1'],
          [58, 'Łódź'],
        ]),
      ),
      undefined,
    );
    assert.equal(r.session.status().nextSenderMsgSeqNum, before);
    await assert.rejects(
      r.session.send(
        outgoing('8', [
          [37, 'B-1'],
          [11, 'X1'],
          [58, 'Łódź'],
        ]),
      ),
    );
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
