// A refused logon changes no sequence number, over real sockets, for a known session (it logged on
// before, so the acceptor holds its store). Until the peer is authenticated (source address,
// credentials) and for an invalid Logon, the connection is closed with nothing sent; an authenticated
// peer refused for its connector's state (inactive, schedule), by the application (RejectLogon) or for
// a MsgSeqNum too low gets a Logout with the reason. A second Logon while the session is logged on is
// disconnected with nothing sent and the live session carries on. After every refusal the stored
// numbers are what they were, and the last logon carries on from them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Acceptor } from '../src/engine/acceptor';
import { RejectLogon, type Application } from '../src/session/application';
import { CounterpartyAuthenticator, type CounterpartyConfig } from '../src/session/authenticator';
import { ManualClock } from '../src/session/clock';
import { createSessionCodec } from '../src/session/codec-adapter';
import { MemoryLogFactory } from '../src/session/log';
import type { InboundMessage } from '../src/session/message';
import { parseTradingDays } from '../src/session/schedule';
import type { SessionID } from '../src/session/session-id';
import { MemoryStoreFactory } from '../src/store/memory-store';
import { assertMessage, expand, frame, TestClient } from './harness';
import { until } from '../../../tests/support/until';

const ID: SessionID = { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'CLIENT1' };
const GOOD: CounterpartyConfig = { active: true, username: 'u1', verifyPassword: (p) => p === 'secret' };
const LOGON = (seq: number, extra = '|553=u1|554=secret') => `8=FIX.4.4|35=A|34=${seq}|49=CLIENT1|52=<TIME>|56=BROKER|98=0|108=30${extra}`;

describe('a refused logon of a known session changes no sequence number', () => {
  const clock = new ManualClock(Date.UTC(2024, 0, 2, 9, 0, 0));
  let config: CounterpartyConfig = GOOD;
  let rejectLogon: string | undefined;
  const app: Application = {
    fromApp: () => {},
    fromAdmin: (m: InboundMessage) => {
      if (m.msgType === 'A' && rejectLogon !== undefined) throw new RejectLogon(rejectLogon);
    },
  };
  let acceptor: Acceptor;

  before(async () => {
    acceptor = await Acceptor.start({
      port: 0,
      host: '127.0.0.1',
      authenticator: new CounterpartyAuthenticator(() => config),
      app,
      storeFactory: new MemoryStoreFactory(),
      codec: createSessionCodec(),
      logFactory: new MemoryLogFactory(),
      clock,
      timers: clock,
      defaultSettings: { checkLatency: true, maxLatencySec: 120 },
    });
    // One logon and one exchange, then the client drops: next sender 3 (Logon, Heartbeat), next target 3.
    const client = await TestClient.open(acceptor.port);
    client.send(frame(expand(LOGON(1), clock)));
    assertMessage(
      (await client.next(3000))!,
      expand('8=FIX.4.4|35=A|34=1|49=BROKER|52=<TIME>|56=CLIENT1|98=0|108=30', clock),
      'first logon',
    );
    client.send(frame(expand('8=FIX.4.4|35=1|34=2|49=CLIENT1|52=<TIME>|56=BROKER|112=T1', clock)));
    assertMessage((await client.next(3000))!, expand('8=FIX.4.4|35=0|34=2|49=BROKER|52=<TIME>|56=CLIENT1|112=T1', clock), 'heartbeat');
    client.close();
    await until('the session to let go of the connection', () => !acceptor.session(ID)?.isConnected, 3000, 5);
  });

  after(() => acceptor.stop(200));

  async function expectNumbersUnchanged(where: string): Promise<void> {
    const session = acceptor.session(ID)!;
    await session.idle();
    assert.equal(session.isConnected, false, `${where}: disconnected`);
    const status = session.status();
    assert.deepEqual([status.nextSenderMsgSeqNum, status.nextTargetMsgSeqNum], [3, 3], `${where}: next numbers in memory`);
    const stored = await session.store.sequenceState();
    assert.deepEqual([stored.nextSenderMsgSeqNum, stored.nextTargetMsgSeqNum], [3, 3], `${where}: next numbers in the store`);
  }

  async function refused(where: string, logon: string, text: string): Promise<void> {
    const client = await TestClient.open(acceptor.port);
    try {
      client.send(frame(expand(logon, clock)));
      const got = await client.next(3000);
      assert.ok(got, `${where}: no answer`);
      // The Logout carries our next number without taking it.
      assertMessage(got, expand(`8=FIX.4.4|35=5|34=3|49=BROKER|52=<TIME>|56=CLIENT1|58=${text}`, clock), where);
      assert.equal(await client.next(3000), undefined, `${where}: nothing after the Logout`);
      assert.ok(client.closed, `${where}: the connection is closed`);
    } finally {
      client.close();
    }
    await expectNumbersUnchanged(where);
  }

  async function silentlyDropped(where: string, logon: string): Promise<void> {
    const client = await TestClient.open(acceptor.port);
    try {
      client.send(frame(expand(logon, clock)));
      const got = await client.next(3000);
      assert.equal(got, undefined, `${where}: nothing is sent`);
      assert.ok(client.closed, `${where}: the connection is closed`);
    } finally {
      client.close();
    }
    await expectNumbersUnchanged(where);
  }

  it('inactive', async () => {
    config = { ...GOOD, active: false };
    await refused('inactive', LOGON(3), 'Session CLIENT1 is not active');
  });

  it('bad password', async () => {
    config = GOOD;
    await silentlyDropped('bad password', LOGON(3, '|553=u1|554=wrong'));
  });

  it('source IP not allowed', async () => {
    config = { ...GOOD, allowedSourceIps: ['10.0.0.0/8'] };
    await silentlyDropped('source IP', LOGON(3));
  });

  it('outside schedule', async () => {
    // 09:00 UTC on a Tuesday; the window opens at 10:00.
    config = { ...GOOD, schedule: { timeZone: 'UTC', tradingDays: parseTradingDays('M,T,W,T,F'), startTime: '10:00', endTime: '17:00' } };
    await refused('schedule', LOGON(3), 'Logon outside of session time');
  });

  it("a HeartBtInt outside the connector's range (0 unless allowed, too short, too long)", async () => {
    const range = { minSec: 5, maxSec: 120, allowZero: false };
    config = { ...GOOD, heartBtIntRange: range };
    const withHb = (hb: string) => LOGON(3).replace('|108=30', `|108=${hb}`);
    await refused('HeartBtInt 0', withHb('0'), 'HeartBtInt (108) of 0 is outside the allowed range 5-120 seconds');
    await refused('HeartBtInt 4', withHb('4'), 'HeartBtInt (108) of 4 is outside the allowed range 5-120 seconds');
    await refused('HeartBtInt 999999', withHb('999999'), 'HeartBtInt (108) of 999999 is outside the allowed range 5-120 seconds');
    config = { ...GOOD, heartBtIntRange: { ...range, maxSec: 60 } };
    await refused('HeartBtInt 61', withHb('61'), 'HeartBtInt (108) of 61 is outside the allowed range 5-60 seconds');
  });

  it("the application's RejectLogon", async () => {
    config = GOOD;
    rejectLogon = 'Trading halted';
    try {
      await refused('RejectLogon', LOGON(3), 'Trading halted');
    } finally {
      rejectLogon = undefined;
    }
  });

  it('an invalid Logon (HeartBtInt missing, bad SendingTime, wrong BeginString) is dropped with nothing sent', async () => {
    config = GOOD;
    await silentlyDropped('no HeartBtInt', '8=FIX.4.4|35=A|34=3|49=CLIENT1|52=<TIME>|56=BROKER|98=0|553=u1|554=secret');
    await silentlyDropped('stale SendingTime', LOGON(3).replace('<TIME>', '<TIME-600>'));
    await silentlyDropped('wrong BeginString', LOGON(3).replace('FIX.4.4', 'FIX.4.2'));
  });

  it('a valid Logon with MsgSeqNum too low gets a Logout with the reason', async () => {
    config = GOOD;
    await refused('MsgSeqNum too low', LOGON(2), 'MsgSeqNum too low, expecting 3 but received 2');
  });

  it('a second Logon while logged on is dropped with nothing sent; the live session carries on', async () => {
    config = GOOD;
    const live = await TestClient.open(acceptor.port);
    try {
      live.send(frame(expand(LOGON(3), clock)));
      assertMessage(
        (await live.next(3000))!,
        expand('8=FIX.4.4|35=A|34=3|49=BROKER|52=<TIME>|56=CLIENT1|98=0|108=30', clock),
        'live logon',
      );
      const intruder = await TestClient.open(acceptor.port);
      try {
        intruder.send(frame(expand(LOGON(1), clock)));
        assert.equal(await intruder.next(3000), undefined, 'nothing is sent to the second connection');
        assert.ok(intruder.closed, 'the second connection is closed');
      } finally {
        intruder.close();
      }
      // The live session's numbers are untouched: its next exchange uses 4 both ways.
      live.send(frame(expand('8=FIX.4.4|35=1|34=4|49=CLIENT1|52=<TIME>|56=BROKER|112=T2', clock)));
      assertMessage((await live.next(3000))!, expand('8=FIX.4.4|35=0|34=4|49=BROKER|52=<TIME>|56=CLIENT1|112=T2', clock), 'live heartbeat');
      // Back to where the other cases expect it: log out (5 both ways), then reset the numbers to 3.
      live.send(frame(expand('8=FIX.4.4|35=5|34=5|49=CLIENT1|52=<TIME>|56=BROKER', clock)));
      assertMessage((await live.next(3000))!, expand('8=FIX.4.4|35=5|34=5|49=BROKER|52=<TIME>|56=CLIENT1', clock), 'logout answered');
    } finally {
      live.close();
    }
    const session = acceptor.session(ID)!;
    await until('the session to let go of the connection', () => !session.isConnected, 3000, 5);
    await acceptor.setNextSenderMsgSeqNum(ID, 3);
    await acceptor.setNextTargetMsgSeqNum(ID, 3);
    await expectNumbersUnchanged('after the live session');
  });

  it('after all of them the next logon carries on from the stored numbers', async () => {
    config = GOOD;
    const client = await TestClient.open(acceptor.port);
    try {
      client.send(frame(expand(LOGON(3), clock)));
      assertMessage((await client.next(3000))!, expand('8=FIX.4.4|35=A|34=3|49=BROKER|52=<TIME>|56=CLIENT1|98=0|108=30', clock), 'logon');
      await acceptor.session(ID)!.idle();
      assert.deepEqual([acceptor.session(ID)!.status().nextSenderMsgSeqNum, acceptor.session(ID)!.status().nextTargetMsgSeqNum], [4, 4]);
    } finally {
      client.close();
    }
  });
});

describe('a configured counterparty refused before the acceptor saw it since its start', () => {
  it('gets the Logout under its stored next number and consumes none; an unknown pair opens nothing', async () => {
    const clock = new ManualClock(Date.UTC(2024, 0, 2, 9, 0, 0));
    const stores = new MemoryStoreFactory();
    // A previous run left the session at next sender 7, next target 4.
    const store = await stores.open(ID, new Date(clock.now()));
    await store.setNextSenderMsgSeqNum(7);
    await store.setNextTargetMsgSeqNum(4);
    const acceptor = await Acceptor.start({
      port: 0,
      host: '127.0.0.1',
      authenticator: new CounterpartyAuthenticator((id) => (id.targetCompID === 'CLIENT1' ? { ...GOOD, active: false } : undefined)),
      app: { fromApp: () => {} },
      storeFactory: stores,
      codec: createSessionCodec(),
      logFactory: new MemoryLogFactory(),
      clock,
      timers: clock,
    });
    try {
      const client = await TestClient.open(acceptor.port);
      try {
        client.send(frame(expand(LOGON(4), clock)));
        const got = await client.next(3000);
        assert.ok(got, 'no answer');
        assertMessage(got, expand('8=FIX.4.4|35=5|34=7|49=BROKER|52=<TIME>|56=CLIENT1|58=Session CLIENT1 is not active', clock), 'refused');
      } finally {
        client.close();
      }
      const s = acceptor.session(ID)!;
      await s.idle();
      const stored = await s.store.sequenceState();
      assert.deepEqual([stored.nextSenderMsgSeqNum, stored.nextTargetMsgSeqNum], [7, 4], 'no number consumed');
      // An unknown pair opens nothing and is told nothing.
      const stranger = await TestClient.open(acceptor.port);
      try {
        stranger.send(frame(expand(LOGON(1).replace('49=CLIENT1', '49=NOBODY'), clock)));
        assert.equal(await stranger.next(3000), undefined);
        assert.ok(stranger.closed);
      } finally {
        stranger.close();
      }
      assert.equal(acceptor.session({ ...ID, targetCompID: 'NOBODY' }), undefined);
    } finally {
      await acceptor.stop(200);
    }
  });
});
