import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WsServerMessage } from '@fixdesk/protocol';
import pino from 'pino';
import { ServiceMonitor, type MonitoredParts } from './service-monitor';

type Session = ReturnType<MonitoredParts['sessions']>[number];

function setup() {
  const sent: WsServerMessage[] = [];
  let dbUp = true;
  let clock = Date.parse('2026-11-25T10:00:00Z');
  let sessions: Session[] = [];
  const lastReceived = new Map<string, number>();
  const parts: MonitoredParts = {
    nodeId: 'node-a',
    version: '1.2.3',
    databaseKind: 'postgres',
    probeDatabase: async () => {
      if (!dbUp) throw new Error('connection refused');
    },
    acceptorPort: () => 9876,
    activeConnectors: async () => [
      { compId: 'SGX_CLIENT_1', ourCompId: 'FIXDESK' },
      { compId: 'EEX_CLIENT_1', ourCompId: 'FIXDESK' },
    ],
    sessions: () => sessions,
    lastReceivedAt: (c) => lastReceived.get(c),
    testClients: () => ({ clients: 2, running: 0, loggedOn: 0 }),
    browsersConnected: () => 3,
    broadcast: (m) => sent.push(m),
    now: () => clock,
  };
  const monitor = new ServiceMonitor(parts, pino({ level: 'silent' }));
  return {
    monitor,
    sent,
    statuses: () => sent.flatMap((m) => (m.type === 'service_status' ? [`${m.data.service_name}=${m.data.status}`] : [])),
    setDb: (up: boolean) => (dbUp = up),
    advance: (ms: number) => (clock += ms),
    logOn: (compId: string, heartBtIntSec = 30) => {
      sessions = [
        ...sessions.filter((s) => s.sessionID.targetCompID !== compId),
        { sessionID: { beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: compId }, connected: true, loggedOn: true, nextSenderMsgSeqNum: 8, nextTargetMsgSeqNum: 5, heartBtIntSec, remoteAddress: '127.0.0.1' },
      ];
      lastReceived.set(compId, clock);
    },
  };
}

describe('ServiceMonitor', () => {
  it('lists every service and pushes each once, then only what changes', async () => {
    const t = setup();
    const services = await t.monitor.refresh();
    assert.deepEqual(services.map((s) => `${s.name}=${s.status}`), [
      'database=healthy',
      'fix-acceptor=healthy',
      'fix-session:EEX_CLIENT_1=offline',
      'fix-session:SGX_CLIENT_1=offline',
      'api=healthy',
      'test-clients=offline',
    ]);
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
    assert.deepEqual(t.statuses().filter((s) => s.startsWith('database')), ['database=healthy', 'database=down', 'database=healthy']);
  });

  it('calls a logged-on session degraded when the client has been silent far beyond its heartbeat', async () => {
    const t = setup();
    t.logOn('SGX_CLIENT_1', 10);
    await t.monitor.refresh();
    t.advance(20_000);
    assert.equal((await t.monitor.refresh()).find((s) => s.name === 'fix-session:SGX_CLIENT_1')!.status, 'healthy');
    t.advance(6_000);
    const s = (await t.monitor.refresh()).find((x) => x.name === 'fix-session:SGX_CLIENT_1')!;
    assert.equal(s.status, 'degraded');
    assert.equal(s.staleDuration, 26_000);
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
    const m = new ServiceMonitor({ ...(t.monitor as unknown as { parts: MonitoredParts }).parts, probeDatabase: async () => void probes++ }, pino({ level: 'silent' }));
    await m.list();
    await m.list();
    assert.equal(probes, 1);
    t.advance(1_500);
    await m.list();
    assert.equal(probes, 2);
  });
});
