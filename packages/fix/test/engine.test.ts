// Acceptor and initiator over real sockets: crash recovery, resend limits, reconnect, TLS, operator functions.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Acceptor } from '../src/engine/acceptor';
import { Initiator } from '../src/engine/initiator';
import { CounterpartyAuthenticator } from '../src/session/authenticator';
import { ManualClock } from '../src/session/clock';
import { createSessionCodec } from '../src/session/codec-adapter';
import { MemoryStoreFactory } from '../src/store/memory-store';
import { AcceptorHarness, assertMessage, expand, frame, TestClient, TW } from './harness';
import { BROKER, BrokerApp, CLIENT, ClientApp, executionReport, order, startBroker, startClient } from './broker-client';
import { until } from '../../../tests/support/until';

const codec = createSessionCodec();

describe('crash recovery (kill -9 of either side)', () => {
  it('both sides carry on from their stores, and the resends are answered from them', async () => {
    const clock = new ManualClock();
    const brokerStores = new MemoryStoreFactory();
    const clientStores = new MemoryStoreFactory();
    const brokerApp = new BrokerApp();
    const clientApp = new ClientApp();
    let broker = await startBroker(clock, brokerStores, brokerApp);
    const port = broker.port;
    let client = await startClient(clock, clientStores, clientApp, port);
    try {
      await until('logon', () => client.status().loggedOn);
      await client.send(order('ORD1'));
      await client.send(order('ORD2'));
      await until('two acks', () => clientApp.reports.length === 2);
      const firstAckTime = clientApp.reports[0]!.sendingTime;

      // The broker dies: no Logout, no store close. A new process opens the same store.
      await broker.crash();
      await until('client noticed', () => !client.status().connected);
      broker = await startBroker(clock, brokerStores, brokerApp, port);
      // While the client is away the broker has a fill for it: persisted, not sent.
      clock.advance(5000);
      await broker.send(BROKER, executionReport('ORD2', 99));
      assert.equal(
        broker.session(BROKER)?.status().nextSenderMsgSeqNum,
        5,
        'numbers continue after the crash (Logon, 2 acks, the new report)',
      );

      // The client reconnects after its backoff; the broker's Logon shows a gap; the client asks and gets the report.
      clock.advance(1000);
      await until('re-logon', () => client.status().loggedOn && !client.status().queuedInbound && clientApp.reports.length === 3);
      assert.deepEqual(
        clientApp.reports.map((r) => r.clOrdID),
        ['ORD1', 'ORD2', 'ORD2'],
      );
      const resent = clientApp.reports[2]!;
      assert.equal(resent.possDup, true);
      await until('numbers agree', () => broker.session(BROKER)?.status().nextTargetMsgSeqNum === client.status().nextSenderMsgSeqNum);
      assert.equal(broker.session(BROKER)!.status().nextSenderMsgSeqNum, client.status().nextTargetMsgSeqNum);

      // Now the client dies and comes back having lost track of everything it received: it asks for all of it again.
      client.crash();
      await until('broker noticed', () => !broker.session(BROKER)!.status().connected);
      const clientStore = await clientStores.open(CLIENT, new Date(clock.now()));
      await clientStore.setNextTargetMsgSeqNum(1);
      await clientStore.close();
      clientApp.reports = [];
      client = await startClient(clock, clientStores, clientApp, port);
      await until('full replay', () => client.status().loggedOn && clientApp.reports.length === 3 && client.status().state === 'inSession');
      assert.deepEqual(
        clientApp.reports.map((r) => [r.clOrdID, r.possDup]),
        [
          ['ORD1', true],
          ['ORD2', true],
          ['ORD2', true],
        ],
      );
      assert.equal(clientApp.reports[0]!.origSendingTime, firstAckTime, 'OrigSendingTime is the original SendingTime, not the resend time');
      assert.deepEqual(brokerApp.orders, ['ORD1', 'ORD2'], 'no order was delivered twice to the broker application');
      await client.send(order('ORD3'));
      await until('ack after recovery', () => clientApp.reports.length === 4);
      assert.equal(clientApp.reports[3]!.possDup, false);
      assert.equal(broker.session(BROKER)!.status().nextSenderMsgSeqNum, client.status().nextTargetMsgSeqNum);
    } finally {
      await client.stop(200);
      await broker.stop(200);
    }
  });
});

describe('initiator reconnect', () => {
  it('backs off exponentially while the acceptor is down, then logs on', async () => {
    const clock = new ManualClock();
    const probe = await startBroker(clock, new MemoryStoreFactory(), new BrokerApp());
    const port = probe.port;
    await probe.stop(0);
    const client = await startClient(clock, new MemoryStoreFactory(), new ClientApp(), port);
    try {
      await until('first attempt failed', () => client.connectAttempts === 1 && !client.status().connected);
      await new Promise((r) => setTimeout(r, 50));
      clock.advance(999);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(client.connectAttempts, 1, 'no retry before the first delay');
      clock.advance(1);
      await until('second attempt', () => client.connectAttempts === 2);
      await new Promise((r) => setTimeout(r, 50));
      clock.advance(1999);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(client.connectAttempts, 2, 'the delay doubled');
      const broker = await startBroker(clock, new MemoryStoreFactory(), new BrokerApp(), port);
      clock.advance(1);
      await until('logged on', () => client.status().loggedOn);
      await client.stop(200);
      await broker.stop(200);
    } finally {
      await client.stop(0);
    }
  });
});

describe('resend limits and operator functions (conformance acceptor)', () => {
  const logon = '8=FIX.4.4|35=A|34=1|49=TW|52=<TIME>|56=ISLD|98=0|108=30';

  it('a ResendRequest storm ends in a Logout', async () => {
    const h = new AcceptorHarness({ maxResendRequestsPerMinute: 3 });
    await h.start();
    const c = await TestClient.open(h.port);
    try {
      c.send(frame(expand(logon, h.clock)));
      assert.ok(await c.next(3000));
      for (let seq = 2; seq <= 4; seq++) {
        c.send(frame(expand(`8=FIX.4.4|35=2|34=${seq}|49=TW|52=<TIME>|56=ISLD|7=1|16=0`, h.clock)));
        const gapFill = await c.next(3000);
        assertMessage(gapFill!, expand('8=FIX.4.4|35=4|34=1|43=Y|49=ISLD|52=<TIME>|56=TW|122=<TIME>|36=2|123=Y', h.clock), `resend ${seq}`);
      }
      c.send(frame(expand('8=FIX.4.4|35=2|34=5|49=TW|52=<TIME>|56=ISLD|7=1|16=0', h.clock)));
      assertMessage(
        (await c.next(3000))!,
        expand('8=FIX.4.4|35=5|34=2|49=ISLD|52=<TIME>|56=TW|58=Too many ResendRequests (more than 3 per minute)', h.clock),
        'storm',
      );
      assert.equal(await c.next(3000), undefined);
    } finally {
      c.close();
      await h.stop();
    }
  });

  it('a ResendRequest over too wide a range is rejected, not replayed', async () => {
    const h = new AcceptorHarness({ maxResendRange: 2 });
    await h.start();
    const c = await TestClient.open(h.port);
    try {
      c.send(frame(expand(logon, h.clock)));
      assert.ok(await c.next(3000));
      for (let seq = 2; seq <= 4; seq++) {
        c.send(frame(expand(`8=FIX.4.4|35=1|34=${seq}|49=TW|52=<TIME>|56=ISLD|112=T${seq}`, h.clock)));
        assert.ok(await c.next(3000));
      }
      c.send(frame(expand('8=FIX.4.4|35=2|34=5|49=TW|52=<TIME>|56=ISLD|7=1|16=0', h.clock)));
      assertMessage(
        (await c.next(3000))!,
        expand('8=FIX.4.4|35=3|34=5|49=ISLD|52=<TIME>|56=TW|45=5|58=Resend range 1-4 exceeds 2 messages|371=16|372=2|373=5', h.clock),
        'range',
      );
    } finally {
      c.close();
      await h.stop();
    }
  });

  it('lists sessions, sets sequence numbers, logs out with a timeout and disconnects', async () => {
    const h = new AcceptorHarness();
    await h.start();
    const c = await TestClient.open(h.port);
    try {
      c.send(frame(expand(logon, h.clock)));
      assert.ok(await c.next(3000));
      await h.settle();
      const [status] = h.acceptor.list();
      assert.deepEqual(
        { ...status, remoteAddress: undefined },
        {
          sessionID: TW,
          state: 'inSession',
          connected: true,
          loggedOn: true,
          remoteAddress: undefined,
          nextSenderMsgSeqNum: 2,
          nextTargetMsgSeqNum: 2,
          heartBtIntSec: 30,
          queuedInbound: 0,
        },
      );
      assert.equal(status!.remoteAddress, '127.0.0.1');
      await h.acceptor.setNextSenderMsgSeqNum(TW, 50);
      await h.acceptor.setNextTargetMsgSeqNum(TW, 7);
      c.send(frame(expand('8=FIX.4.4|35=1|34=7|49=TW|52=<TIME>|56=ISLD|112=X', h.clock)));
      assertMessage((await c.next(3000))!, expand('8=FIX.4.4|35=0|34=50|49=ISLD|52=<TIME>|56=TW|112=X', h.clock), 'after set');
      // Operator logout: Logout goes out, the peer stays silent, the logout timeout (2 s) closes.
      await h.acceptor.logout(TW, 'End of day');
      assertMessage((await c.next(3000))!, expand('8=FIX.4.4|35=5|34=51|49=ISLD|52=<TIME>|56=TW|58=End of day', h.clock), 'logout');
      assert.equal(h.acceptor.session(TW)!.status().state, 'logout');
      h.clock.advance(2000);
      assert.equal(await c.next(3000), undefined);
      await h.settle();
      assert.equal(h.acceptor.session(TW)!.status().state, 'disconnected');
      // Reconnect, then the operator drops the connection outright.
      const c2 = await TestClient.open(h.port);
      c2.send(frame(expand(logon, h.clock)));
      assert.ok(await c2.next(3000));
      await h.acceptor.disconnect(TW);
      assert.equal(await c2.next(3000), undefined);
      assert.ok(c2.closed);
    } finally {
      c.close();
      await h.stop();
    }
  });
});

describe('TLS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fix-tls-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=test-ca');
  for (const name of ['server', 'client']) {
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${name === 'server' ? 'localhost' : 'CLIENT1'}`,
    );
    writeFileSync(
      join(dir, `${name}.ext`),
      name === 'server' ? 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' : 'extendedKeyUsage=clientAuth\n',
    );
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
    );
  }
  const pem = (f: string) => readFileSync(join(dir, f));

  it('logs on over mutual TLS, and a client without a certificate is turned away', async () => {
    const clock = new ManualClock();
    const app = new BrokerApp();
    const acceptor = await Acceptor.start({
      port: 0,
      host: '127.0.0.1',
      tls: { cert: pem('server.pem'), key: pem('server.key'), ca: pem('ca.pem') },
      authenticator: new CounterpartyAuthenticator(() => ({ active: true })),
      app,
      storeFactory: new MemoryStoreFactory(),
      codec,
      clock,
      timers: clock,
      defaultSettings: { checkLatency: false },
    });
    app.acceptor = acceptor;
    const clientApp = new ClientApp();
    const client = await Initiator.start({
      host: '127.0.0.1',
      port: acceptor.port,
      tls: { ca: pem('ca.pem'), cert: pem('client.pem'), key: pem('client.key'), servername: 'localhost' },
      sessionID: CLIENT,
      app: clientApp,
      storeFactory: new MemoryStoreFactory(),
      codec,
      clock,
      timers: clock,
      settings: { checkLatency: false },
      reconnect: false,
    });
    const anonymous = await Initiator.start({
      host: '127.0.0.1',
      port: acceptor.port,
      tls: { ca: pem('ca.pem'), servername: 'localhost' },
      sessionID: { ...CLIENT, senderCompID: 'ANON' },
      app: new ClientApp(),
      storeFactory: new MemoryStoreFactory(),
      codec,
      clock,
      timers: clock,
      reconnect: false,
    });
    try {
      await until('TLS logon', () => client.status().loggedOn);
      await client.send(order('TLS1'));
      await until('ack over TLS', () => clientApp.reports.length === 1);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(anonymous.status().loggedOn, false);
      assert.equal(acceptor.session({ beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'ANON' }), undefined);
    } finally {
      await anonymous.stop(0);
      await client.stop(200);
      await acceptor.stop(200);
    }
  });
});

describe('operator calls on a live session', () => {
  it('keep the settings the authenticator gave the counterparty at logon', async () => {
    const acceptor = await Acceptor.start({
      port: 0,
      host: '127.0.0.1',
      authenticator: new CounterpartyAuthenticator(() => ({ active: true, settings: { maxLatencySec: 7, timeZone: 'Asia/Singapore' } })),
      app: { fromApp: () => {} },
      storeFactory: new MemoryStoreFactory(),
      codec,
    });
    const initiator = await Initiator.start({
      host: '127.0.0.1',
      port: acceptor.port,
      sessionID: CLIENT,
      settings: { heartBtIntSec: 30 },
      app: { fromApp: () => {} },
      storeFactory: new MemoryStoreFactory(),
      codec,
      reconnect: false,
    });
    try {
      await until('logon', () => acceptor.list().some((s) => s.loggedOn));
      await acceptor.send(BROKER, executionReport('OP-1', 1));
      await acceptor.setNextTargetMsgSeqNum(BROKER, acceptor.list()[0]!.nextTargetMsgSeqNum);
      const settings = acceptor.session(BROKER)!.settings;
      assert.equal(settings.maxLatencySec, 7);
      assert.equal(settings.timeZone, 'Asia/Singapore');
    } finally {
      await initiator.stop();
      await acceptor.stop(500);
    }
  });
});

describe('a connection whose socket is gone does not hold its session', () => {
  it('a client reconnecting while the application still works on its last message logs on once that work ends', async () => {
    const clock = new ManualClock(Date.UTC(2024, 0, 2, 9, 0, 0));
    let release!: () => void;
    const working = new Promise<void>((r) => (release = r));
    let started = false;
    const acceptor = await Acceptor.start({
      port: 0,
      host: '127.0.0.1',
      authenticator: new CounterpartyAuthenticator(() => ({ active: true })),
      // The first order's handling takes as long as the test says (a slow database after a restart).
      app: {
        fromApp: async () => {
          started = true;
          await working;
        },
      },
      storeFactory: new MemoryStoreFactory(),
      codec,
      clock,
    });
    const logon = (seq: number) => frame(expand(`8=FIX.4.4|35=A|34=${seq}|49=CLIENT1|52=<TIME>|56=BROKER|98=0|108=30`, clock));
    try {
      const first = await TestClient.open(acceptor.port);
      first.send(logon(1));
      assert.match((await first.next(3000)) ?? '', /\x0135=A\x01/);
      first.send(frame(expand('8=FIX.4.4|35=D|34=2|49=CLIENT1|52=<TIME>|56=BROKER|11=SLOW-1|54=1|55=X|38=1|40=1|60=<TIME>', clock)));
      await until('the application started on the order', () => started);
      first.close();
      // The client comes straight back; the old connection's session still has the order in hand.
      const second = await TestClient.open(acceptor.port);
      second.send(logon(3));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(second.closed, false, 'not refused as "already logged on"');
      release();
      const answer = await second.next(3000);
      assert.match(answer ?? '', /\x0135=A\x01/, `logged on: ${answer}`);
      second.close();
    } finally {
      release();
      await acceptor.stop(200);
    }
  });
});
