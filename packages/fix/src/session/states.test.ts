// Unit tests per state: a Session driven directly (no sockets), a manual clock, the memory store, and a
// transport that records what would have gone on the wire.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatUtcTimestamp } from '../codec/values';
import { MemoryStoreFactory } from '../store/memory-store';
import type { Application } from './application';
import { ManualClock } from './clock';
import { createSessionCodec } from './codec-adapter';
import { MemoryLogFactory } from './log';
import { RecordingTransport } from './recording-transport.test-support';
import { outgoing, type InboundMessage } from './message';
import { msgSeqNum, Session } from './session';
import type { SessionID } from './session-id';
import { sessionSettings, type SessionSettings } from './session-settings';
import type { EventKind, StateName } from './session-state';
import { TRANSITIONS } from './transitions';

const codec = createSessionCodec();
const ID: SessionID = { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'CLIENT' };

interface Rig {
  session: Session;
  clock: ManualClock;
  transport: RecordingTransport;
  stores: MemoryStoreFactory;
  delivered: string[];
  /** Feeds a message from the client: "35=D|34=2|..." (header 8/49/56/52 added unless given). */
  receive(fields: string): Promise<void>;
}

async function rig(
  role: SessionSettings['role'],
  overrides: Partial<SessionSettings> = {},
  stores = new MemoryStoreFactory(),
  clock = new ManualClock(),
): Promise<Rig> {
  const delivered: string[] = [];
  const app: Application = {
    fromApp: (m: InboundMessage) => {
      delivered.push(`${m.msgType}:${m.get(11) ?? ''}`);
    },
  };
  const store = await stores.open(ID, new Date(clock.now()));
  const session = await Session.create({
    id: ID,
    settings: sessionSettings(role, { checkLatency: true, ...overrides }),
    store,
    app,
    log: new MemoryLogFactory().create(ID),
    clock,
    timers: clock,
    codec,
  });
  const transport = new RecordingTransport();
  const receive = async (fields: string) => {
    const parts = fields.split('|');
    const body = parts.filter((p) => !p.startsWith('35=') && !p.startsWith('34='));
    const header: Array<[number, string]> = [
      [49, ID.targetCompID],
      [56, ID.senderCompID],
      [34, parts.find((p) => p.startsWith('34='))!.slice(3)],
      [52, formatUtcTimestamp(clock.now())],
    ];
    const extraHeader = body
      .filter((p) => /^(43|122|97)=/.test(p))
      .map((p) => p.split('=') as [string, string])
      .map(([t, v]) => [Number(t), v] as [number, string]);
    const bodyFields = body
      .filter((p) => !/^(43|122|97)=/.test(p))
      .map((p) => {
        const i = p.indexOf('=');
        return [Number(p.slice(0, i)), p.slice(i + 1)] as [number, string];
      });
    const raw = codec.encode('FIX.4.4', parts.find((p) => p.startsWith('35='))!.slice(3), [...header, ...extraHeader], bodyFields);
    await session.receive(transport, codec.decode(raw));
  };
  return { session, clock, transport, stores, delivered, receive };
}

async function loggedOn(role: SessionSettings['role'] = 'acceptor', overrides: Partial<SessionSettings> = {}): Promise<Rig> {
  const r = await rig(role, overrides);
  await r.session.connect(r.transport);
  if (role === 'acceptor') await r.receive('35=A|34=1|98=0|108=30');
  else await r.receive('35=A|34=1|98=0|108=30');
  assert.equal(r.session.status().state, 'inSession');
  r.transport.take();
  return r;
}

const D = (seq: number, id: string, extra = '') => `35=D|34=${seq}|${extra}11=${id}|21=1|55=C5TC|54=1|60=20240102-09:00:00|38=10|40=1`;

describe('transition table', () => {
  it('has a row for every state and event', () => {
    const states: StateName[] = ['disconnected', 'logon', 'inSession', 'resend', 'logout'];
    const events: EventKind[] = ['connect', 'message', 'garbled', 'tick', 'disconnect', 'operatorLogout'];
    for (const s of states) {
      for (const e of events) {
        const connectWhileConnected = e === 'connect' && s !== 'disconnected';
        const rows = TRANSITIONS.filter(([from, ev]) => from === s && ev === e);
        assert.equal(rows.length > 0, !connectWhileConnected, `${s} on ${e}`);
      }
    }
  });
});

describe('disconnected state', () => {
  it('initiator: connect sends Logon (with ResetSeqNumFlag when configured) and enters logon', async () => {
    const r = await rig('initiator', { resetOnLogon: true, username: 'u1', password: 'p1' });
    await r.session.setNextSenderMsgSeqNum(9);
    await r.session.connect(r.transport);
    assert.equal(r.session.status().state, 'logon');
    assert.match(r.transport.sent[0]!, /\|35=A\|34=1\|.*98=0\|108=30\|141=Y\|553=u1\|554=p1\|/);
  });

  it('initiator: a scheduled DAILY reset is applied at logon in the connector time zone', async () => {
    const clock = new ManualClock(Date.UTC(2024, 0, 2, 1, 0)); // 09:00 Singapore
    const stores = new MemoryStoreFactory();
    const first = await rig('initiator', { resetFrequency: 'DAILY', timeZone: 'Asia/Singapore' }, stores, clock);
    await first.session.setNextSenderMsgSeqNum(40);
    await first.session.close();
    clock.advance(14 * 3600_000); // 23:00 Singapore, same local day: no reset
    const same = await rig('initiator', { resetFrequency: 'DAILY', timeZone: 'Asia/Singapore' }, stores, clock);
    await same.session.connect(same.transport);
    assert.match(same.transport.sent[0]!, /\|34=40\|/);
    assert.doesNotMatch(same.transport.sent[0]!, /141=Y/);
    await same.session.disconnect('test');
    await same.session.close();
    clock.advance(2 * 3600_000); // 01:00 next local day
    const next = await rig('initiator', { resetFrequency: 'DAILY', timeZone: 'Asia/Singapore' }, stores, clock);
    await next.session.connect(next.transport);
    assert.match(next.transport.sent[0]!, /\|34=1\|.*141=Y/);
  });

  it('drops late messages of a closed connection', async () => {
    const r = await loggedOn();
    await r.session.disconnect('test');
    assert.equal(r.session.status().state, 'disconnected');
    await r.receive(D(2, 'LATE'));
    assert.deepEqual(r.delivered, []);
  });
});

describe('logon state', () => {
  it('acceptor: echoes the client HeartBtInt and goes in session', async () => {
    const r = await rig('acceptor', { heartBtIntSec: 30 });
    await r.session.connect(r.transport);
    await r.receive('35=A|34=1|98=0|108=7');
    assert.equal(r.session.status().state, 'inSession');
    assert.match(r.transport.sent[0]!, /\|35=A\|.*\|108=7\|/);
    assert.equal(r.session.status().heartBtIntSec, 7);
  });

  it('acceptor: a first message other than Logon is dropped without an answer', async () => {
    const r = await rig('acceptor');
    await r.session.connect(r.transport);
    await r.receive(D(1, 'X'));
    assert.equal(r.session.status().state, 'disconnected');
    assert.deepEqual(r.transport.sent, []);
    assert.ok(r.transport.ended);
  });

  it('acceptor: a Logon below the expected number is answered with Logout and changes nothing', async () => {
    const r = await rig('acceptor');
    await r.session.setNextTargetMsgSeqNum(5);
    await r.session.connect(r.transport);
    await r.receive('35=A|34=3|98=0|108=30');
    assert.equal(r.session.status().state, 'disconnected');
    assert.match(r.transport.sent[0]!, /\|35=5\|.*58=MsgSeqNum too low, expecting 5 but received 3\|/);
    assert.equal(r.session.status().nextTargetMsgSeqNum, 5);
  });

  it('times out when no Logon arrives', async () => {
    const r = await rig('acceptor', { logonTimeoutMs: 5000 });
    await r.session.connect(r.transport);
    r.clock.advance(4000);
    await r.session.idle();
    assert.equal(r.session.status().state, 'logon');
    r.clock.advance(1000);
    await r.session.idle();
    assert.equal(r.session.status().state, 'disconnected');
  });

  it('initiator: a Logout instead of the Logon answer disconnects', async () => {
    const r = await rig('initiator');
    await r.session.connect(r.transport);
    await r.receive('35=5|34=1|58=Invalid password');
    assert.equal(r.session.status().state, 'disconnected');
  });
});

describe('in-session state', () => {
  it('sends Heartbeat when idle and TestRequest when the peer is silent, then disconnects', async () => {
    const r = await loggedOn();
    r.clock.advance(30_000);
    await r.session.idle();
    assert.deepEqual(r.transport.types(), ['0']);
    r.clock.advance(6_000);
    await r.session.idle();
    assert.deepEqual(r.transport.types(), ['0', '1']);
    r.clock.advance(36_000);
    await r.session.idle();
    assert.equal(r.session.status().state, 'disconnected');
  });

  it('a gap moves to resend state; messages are delivered in order once filled', async () => {
    const r = await loggedOn();
    await r.receive(D(3, 'SECOND'));
    assert.equal(r.session.status().state, 'resend');
    assert.match(r.transport.take()[0]!, /\|35=2\|.*\|7=2\|16=0\|/);
    assert.deepEqual(r.delivered, []);
    await r.receive(D(4, 'THIRD'));
    assert.deepEqual(r.delivered, []);
    await r.receive(D(2, 'FIRST', '43=Y|122=20240102-08:59:59.000|'));
    assert.deepEqual(r.delivered, ['D:FIRST', 'D:SECOND', 'D:THIRD']);
    assert.equal(r.session.status().state, 'inSession');
    assert.equal(r.session.status().nextTargetMsgSeqNum, 5);
  });

  it('operator logout sends Logout and waits in logout state', async () => {
    const r = await loggedOn();
    await r.session.logout('bye');
    assert.equal(r.session.status().state, 'logout');
    assert.match(r.transport.take()[0]!, /\|35=5\|.*58=bye\|/);
  });

  it('application messages sent while logged out are persisted, not written, and resent on request', async () => {
    const r = await loggedOn();
    await r.session.disconnect('test');
    const seq = await r.session.send(
      outgoing('8', [
        [37, 'B1'],
        [11, 'ORD'],
        [17, 'E1'],
        [150, '0'],
        [39, '0'],
        [55, 'C5TC'],
        [54, '1'],
        [151, '10'],
        [14, '0'],
        [6, '0'],
      ]),
    );
    assert.equal(seq, 2);
    assert.deepEqual(r.transport.sent, []);
    assert.equal(r.session.status().nextSenderMsgSeqNum, 3);
  });
});

describe('resend state', () => {
  it('a GapFill closes the gap and releases the queued messages', async () => {
    const r = await loggedOn();
    await r.receive(D(5, 'AFTER'));
    assert.equal(r.session.status().state, 'resend');
    await r.receive('35=4|34=2|43=Y|122=20240102-08:59:59.000|123=Y|36=5');
    assert.deepEqual(r.delivered, ['D:AFTER']);
    assert.equal(r.session.status().state, 'inSession');
  });

  it('stays in resend while the gap is only partly filled', async () => {
    const r = await loggedOn();
    await r.receive(D(4, 'LATER'));
    await r.receive(D(2, 'A', '43=Y|122=20240102-08:59:59.000|'));
    assert.equal(r.session.status().state, 'resend');
    assert.deepEqual(r.delivered, ['D:A']);
    await r.receive(D(3, 'B', '43=Y|122=20240102-08:59:59.000|'));
    assert.deepEqual(r.delivered, ['D:A', 'D:B', 'D:LATER']);
    assert.equal(r.session.status().state, 'inSession');
  });
});

describe('logout state', () => {
  it("the peer's Logout ends it without a second Logout", async () => {
    const r = await loggedOn();
    await r.session.logout('bye');
    r.transport.take();
    await r.receive('35=5|34=2');
    assert.equal(r.session.status().state, 'disconnected');
    assert.deepEqual(r.transport.sent, []);
  });

  it('gives up after the logout timeout', async () => {
    const r = await loggedOn('acceptor', { logoutTimeoutMs: 3000 });
    await r.session.logout('bye');
    r.clock.advance(3000);
    await r.session.idle();
    assert.equal(r.session.status().state, 'disconnected');
  });

  it('tells who waits for the connection to end when it ends, by the answer or the timeout', async () => {
    const r = await loggedOn('acceptor', { logoutTimeoutMs: 3000 });
    await r.session.logout('bye');
    let closed = false;
    const waiting = r.session.untilDisconnected().then(() => (closed = true));
    await r.session.idle();
    assert.equal(closed, false, 'still waiting for the Logout answer');
    await r.receive('35=5|34=2');
    await waiting;
    assert.equal(r.session.status().connected, false);
    await r.session.untilDisconnected(); // at once when nothing is open

    const late = await loggedOn('acceptor', { logoutTimeoutMs: 3000 });
    await late.session.logout('bye');
    const timedOut = late.session.untilDisconnected();
    late.clock.advance(3000);
    await late.session.idle();
    await timedOut;
    assert.equal(late.session.status().state, 'disconnected');
  });

  it('still processes messages that arrive before the Logout answer', async () => {
    const r = await loggedOn();
    await r.session.logout('bye');
    await r.receive(D(2, 'INFLIGHT'));
    assert.deepEqual(r.delivered, ['D:INFLIGHT']);
    assert.equal(r.session.status().state, 'logout');
  });
});

describe('msgSeqNum', () => {
  const withSeq = (raw: string): InboundMessage => ({ get: (tag: number) => (tag === 34 ? raw : undefined) }) as unknown as InboundMessage;
  it('reads 1 to 15 digits of at least 1, and nothing else', () => {
    for (const [raw, expected] of [
      ['1', 1],
      ['0042', 42],
      ['999999999999999', 999_999_999_999_999],
      ['0', undefined],
      ['', undefined],
      ['-1', undefined],
      ['+1', undefined],
      ['1.0', undefined],
      [' 1', undefined],
      ['1e3', undefined],
      ['1000000000000000', undefined],
    ] as const) {
      assert.equal(msgSeqNum(withSeq(raw)), expected, `34=${raw}`);
    }
  });
});
