import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WsServerMessage } from '@fixdesk/protocol';
import pino from 'pino';
import { ServiceMonitor, scheduleNow, type MonitoredConnector, type MonitoredParts } from './service-monitor';
import { SessionStats } from './session-stats';

type Session = ReturnType<MonitoredParts['sessions']>[number];

const ALWAYS = { startTime: '00:00:00', endTime: '23:59:59', tradingDays: 'M,T,W,T,F,S,S', timeZone: 'UTC' };
const connector = (compId: string, schedule = ALWAYS): MonitoredConnector => ({
  compId,
  ourCompId: 'FIXDESK',
  heartBtIntSec: 30,
  schedule,
  tlsExpiresAt: null,
});

function setup(connectors: MonitoredConnector[] = [connector('SGX_CLIENT_1'), connector('EEX_CLIENT_1')]) {
  const sent: WsServerMessage[] = [];
  let dbUp = true;
  let acceptorUp = true;
  const stats = new SessionStats();
  let clock = Date.parse('2026-11-25T10:00:00Z');
  let sessions: Session[] = [];
  const lastReceived = new Map<string, number>();
  let dropCopyReads = 0;
  const parts: MonitoredParts = {
    nodeId: 'node-a',
    version: '1.2.3',
    databaseKind: 'postgres',
    probeDatabase: async () => {
      if (!dbUp) throw new Error('connection refused');
    },
    acceptorPort: () => 9876,
    probeAcceptor: async () => {
      if (!acceptorUp) throw new Error('connect ECONNREFUSED');
    },
    probeApi: async () => {},
    activeConnectors: async () => connectors,
    sessions: () => sessions,
    lastReceivedAt: (c) => lastReceived.get(c),
    stats,
    queueDepth: (c) => (c === 'SGX_CLIENT_1' ? 2 : 0),
    dropCopyQueues: async () => {
      dropCopyReads++;
      return new Map([['MIDDLE_OFFICE', { depth: 12, oldestUnsentAt: new Date(clock - 42_500) }]]);
    },
    acceptTimes: async () => new Map([['SGX_CLIENT_1', { count: 3, p50Ms: 1200, worstMs: 9000 }]]),
    testClients: () => ({ clients: 2, running: 0, loggedOn: 0, runningCompIds: [] }),
    browsersConnected: () => 3,
    broadcast: (m) => sent.push(m),
    now: () => clock,
  };
  const monitor = new ServiceMonitor(parts, pino({ level: 'silent' }));
  return {
    monitor,
    sent,
    statuses: () => sent.flatMap((m) => (m.type === 'service_status' ? [`${m.data.service_name}=${m.data.status}`] : [])),
    stats,
    dropCopyReads: () => dropCopyReads,
    setDb: (up: boolean) => (dbUp = up),
    setAcceptor: (up: boolean) => (acceptorUp = up),
    logOff: (compId: string) => {
      sessions = sessions.filter((s) => s.sessionID.targetCompID !== compId);
      lastReceived.delete(compId);
    },
    advance: (ms: number) => (clock += ms),
    logOn: (compId: string, heartBtIntSec = 30) => {
      sessions = [
        ...sessions.filter((s) => s.sessionID.targetCompID !== compId),
        {
          sessionID: { beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: compId },
          connected: true,
          loggedOn: true,
          nextSenderMsgSeqNum: 8,
          nextTargetMsgSeqNum: 5,
          heartBtIntSec,
          remoteAddress: '127.0.0.1',
        },
      ];
      lastReceived.set(compId, clock);
    },
  };
}

describe('ServiceMonitor', () => {
  it('lists every service and pushes each once, then only what changes', async () => {
    const t = setup();
    const services = await t.monitor.refresh();
    assert.deepEqual(
      services.map((s) => `${s.name}=${s.status}`),
      [
        'database=healthy',
        'fix-acceptor=healthy',
        // Expected around the clock and not logged on: down (the alert), not merely offline.
        'fix-session:EEX_CLIENT_1=down',
        'fix-session:SGX_CLIENT_1=down',
        'api=healthy',
        'test-clients=offline',
      ],
    );
    assert.ok(services.every((s) => s.containerName === 'node-a'));
    assert.equal(t.sent.length, 6, 'the first list is pushed whole');
    await t.monitor.refresh();
    assert.equal(t.sent.length, 6, 'nothing changed, nothing pushed');

    t.logOn('SGX_CLIENT_1');
    await t.monitor.refresh();
    assert.deepEqual(t.statuses().slice(6), ['fix-session:SGX_CLIENT_1=healthy']);
    const sgx = (await t.monitor.list(0)).services.find((s) => s.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal(sgx.isConnected, true);
    assert.deepEqual(sgx.metadata, {
      connected: true,
      senderCompID: 'FIXDESK',
      targetCompID: 'SGX_CLIENT_1',
      txSeqNum: 7,
      rxSeqNum: 4,
      sessionID: 'FIX.4.4:FIXDESK->SGX_CLIENT_1',
      remoteAddress: '127.0.0.1',
    });
  });

  it("carries the kill switch's stop on the client's session entry and pushes it when it changes", async () => {
    const sgx = connector('SGX_CLIENT_1');
    const t = setup([sgx, connector('EEX_CLIENT_1')]);
    await t.monitor.refresh();
    const before = t.sent.length;
    const entry = async () => (await t.monitor.list(0)).services.find((s) => s.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal((await entry()).trading_stop, null);
    const stop = { stopped_at: '2026-11-25T10:00:05.000Z', stopped_by: 'broker', reason: 'runaway algo' };
    sgx.tradingStop = stop;
    await t.monitor.refresh();
    assert.deepEqual((await entry()).trading_stop, stop);
    const pushed = t.sent.slice(before).flatMap((m) => (m.type === 'service_status' ? [m.data.service] : []));
    assert.deepEqual(
      pushed.map((s) => [s.name, s.trading_stop]),
      [['fix-session:SGX_CLIENT_1', stop]],
      'the stop alone is pushed, status unchanged',
    );
    sgx.tradingStop = null;
    await t.monitor.refresh();
    assert.equal((await entry()).trading_stop, null);
    assert.equal(t.sent.length, before + 2, 'the resume is pushed too');
  });

  it('marks the database down when it cannot be reached, and healthy again once it answers', async () => {
    const t = setup();
    await t.monitor.refresh();
    const upAt = (await t.monitor.list()).services.find((s) => s.name === 'database')!.lastHeartbeat;
    t.setDb(false);
    t.advance(10_000);
    const down = (await t.monitor.refresh()).find((s) => s.name === 'database')!;
    assert.equal(down.status, 'down');
    assert.equal(down.isConnected, false);
    assert.equal(down.metadata.error, 'connection refused');
    assert.equal(down.lastHeartbeat, upAt, 'the last time it answered');
    assert.equal(down.staleDuration, 10_000);
    // The connectors cannot be read: the sessions it knew of are not invented.
    assert.ok(!(await t.monitor.list(0)).services.some((s) => s.name === 'fix-session:EEX_CLIENT_1'));
    t.setDb(true);
    await t.monitor.refresh();
    assert.deepEqual(
      t.statuses().filter((s) => s.startsWith('database')),
      ['database=healthy', 'database=down', 'database=healthy'],
    );
  });

  it('calls a logged-on session stale once the client has been silent past HeartBtInt x 1.5', async () => {
    const t = setup();
    t.logOn('SGX_CLIENT_1', 10);
    await t.monitor.refresh();
    t.advance(15_000);
    assert.equal((await t.monitor.refresh()).find((s) => s.name === 'fix-session:SGX_CLIENT_1')!.status, 'healthy');
    t.advance(1);
    const s = (await t.monitor.refresh()).find((x) => x.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal(s.status, 'stale');
    assert.equal(s.staleDuration, 15_001);
    assert.equal(s.session?.secondsSinceInbound, 15);
    assert.ok(t.statuses().includes('fix-session:SGX_CLIENT_1=stale'), 'the change is pushed');
  });

  it('the acceptor and the API are what their probes say: a refused probe is down, its last success kept', async () => {
    const t = setup();
    await t.monitor.refresh();
    const up = (await t.monitor.list(0)).services.find((s) => s.name === 'fix-acceptor')!;
    t.setAcceptor(false);
    t.advance(10_000);
    const down = (await t.monitor.refresh()).find((s) => s.name === 'fix-acceptor')!;
    assert.equal(down.status, 'down');
    assert.equal(down.metadata.error, 'connect ECONNREFUSED');
    assert.equal(down.lastHeartbeat, up.lastHeartbeat, 'its heartbeat is the last probe that worked, not now');
    assert.equal(down.staleDuration, 10_000);
  });

  it("a client's figures: schedule, alert, counters, queue depth, accept times", async () => {
    const nineToFive = { startTime: '09:00:00', endTime: '17:00:00', tradingDays: 'M,T,W,T,F', timeZone: 'UTC' };
    const t = setup([connector('SGX_CLIENT_1', nineToFive)]);
    // 10:00 UTC on a Wednesday: inside its hours, an hour after its start.
    let sgx = (await t.monitor.refresh()).find((s) => s.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal(sgx.status, 'down');
    assert.equal(sgx.session?.expectation, 'missing');
    assert.equal(sgx.session?.inSchedule, true);
    assert.equal(sgx.session?.queueDepth, 2);
    assert.deepEqual(sgx.session?.orderToAccept, { count: 3, p50Ms: 1200, worstMs: 9000 });
    assert.equal(sgx.session?.tlsDaysLeft, null);

    t.logOn('SGX_CLIENT_1');
    t.stats.outgoing('SGX_CLIENT_1', '8=FIX.4.4\x019=20\x0135=1\x0134=5\x01112=T1\x0110=000\x01');
    t.stats.incoming('SGX_CLIENT_1', '8=FIX.4.4\x019=20\x0135=2\x0134=9\x017=3\x0116=6\x0110=000\x01');
    t.stats.incoming('SGX_CLIENT_1', '8=FIX.4.4\x019=20\x0135=3\x0134=10\x0145=4\x01373=5\x0110=000\x01');
    t.stats.outgoing('SGX_CLIENT_1', '8=FIX.4.4\x019=20\x0135=j\x0134=6\x01380=3\x0110=000\x01');
    t.stats.refusedLogon('SGX_CLIENT_1', 'bad-credentials');
    sgx = (await t.monitor.refresh()).find((s) => s.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal(sgx.status, 'healthy');
    assert.equal(sgx.session?.expectation, 'logged-on');
    assert.deepEqual(sgx.session?.testRequests, { sent: 1, unanswered: 1 });
    assert.equal(sgx.session?.resendRequests.received, 1);
    assert.equal(sgx.session?.resendRequests.receivedGap, 4);
    assert.deepEqual(sgx.session?.sessionRejects.received, { '5': 1 });
    assert.deepEqual(sgx.session?.businessRejects.sent, { '3': 1 });
    assert.deepEqual(sgx.session?.refusedLogons, { 'bad-credentials': 1 });
    t.stats.incoming('SGX_CLIENT_1', '8=FIX.4.4\x019=20\x0135=0\x0134=11\x01112=T1\x0110=000\x01');
    sgx = (await t.monitor.refresh()).find((s) => s.name === 'fix-session:SGX_CLIENT_1')!;
    assert.deepEqual(sgx.session?.testRequests, { sent: 1, unanswered: 0 }, 'the Heartbeat answering T1');

    // Outside its hours a client that is away is normal.
    t.logOff('SGX_CLIENT_1');
    t.advance(8 * 3_600_000);
    sgx = (await t.monitor.refresh()).find((s) => s.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal(sgx.status, 'offline');
    assert.equal(sgx.session?.expectation, 'outside-hours');
  });

  it("a drop copy session's figures: the clients it copies, its unsent copies and the oldest one's age", async () => {
    const t = setup([connector('SGX_CLIENT_1'), { ...connector('MIDDLE_OFFICE'), dropCopyOf: ['SGX_CLIENT_1'] }]);
    const services = await t.monitor.refresh();
    const copies = services.find((s) => s.name === 'fix-session:MIDDLE_OFFICE')!;
    assert.equal(copies.description, 'Drop copy session with MIDDLE_OFFICE');
    assert.deepEqual(copies.session?.dropCopy, { clients: ['SGX_CLIENT_1'], depth: 12, lagSeconds: 42 });
    const sgx = services.find((s) => s.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal(sgx.description, 'FIX session with SGX_CLIENT_1');
    assert.equal(sgx.session?.dropCopy, undefined, "a client's own session has no drop copy queue");
    assert.equal(t.dropCopyReads(), 1);
  });

  it('reads no drop copy queue while no connector is a drop copy session', async () => {
    const t = setup();
    await t.monitor.refresh();
    assert.equal(t.dropCopyReads(), 0);
  });

  it('knows when a schedule is in force and for how long (the five-minute alert)', () => {
    const s = { startTime: '09:00:00', endTime: '17:00:00', tradingDays: 'M,T,W,T,F', timeZone: 'Asia/Singapore' };
    // 01:04 UTC on Wednesday 25 Nov 2026 is 09:04 in Singapore.
    assert.deepEqual(scheduleNow(s, Date.parse('2026-11-25T01:04:00Z')), { inSchedule: true, msSinceStart: 4 * 60_000 });
    assert.deepEqual(scheduleNow(s, Date.parse('2026-11-25T00:59:00Z')), { inSchedule: false, msSinceStart: undefined });
    // Saturday.
    assert.equal(scheduleNow(s, Date.parse('2026-11-28T03:00:00Z')).inSchedule, false);
    assert.equal(scheduleNow({ ...s, timeZone: 'Not/AZone' }, Date.parse('2026-11-25T03:00:00Z')).inSchedule, false);
  });

  it('pushes nothing once stopped (the server closing logs its clients out)', async () => {
    const t = setup();
    await t.monitor.refresh();
    const before = t.sent.length;
    t.monitor.stop();
    t.logOn('SGX_CLIENT_1');
    t.monitor.poke();
    await t.monitor.refresh();
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(t.sent.length, before);
  });

  it('answers a recent list without rebuilding it, and rebuilds one that is too old', async () => {
    const t = setup();
    let probes = 0;
    const m = new ServiceMonitor(
      { ...(t.monitor as unknown as { parts: MonitoredParts }).parts, probeDatabase: async () => void probes++ },
      pino({ level: 'silent' }),
    );
    await m.list();
    await m.list();
    assert.equal(probes, 1);
    t.advance(1_500);
    await m.list();
    assert.equal(probes, 2);
  });
});
