import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { ServiceStatusEntry, ServiceStatusResponse, WsServerMessage } from '@fixdesk/protocol';
import { WebSocket } from 'ws';
import { TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

for (const kind of TEST_DB_KINDS) {
  describe(`service status on ${kind}`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(kind);
    });
    after(async () => {
      await t?.stop();
    });

    it('GET /api/service-status needs a sign-in and lists the database, the acceptor, each client session, the API and the test clients', async () => {
      assert.equal((await t.api('/api/service-status')).status, 401);
      const r = await t.api('/api/service-status', { token: await t.login('viewer') });
      assert.equal(r.status, 200);
      const body = (await r.json()) as ServiceStatusResponse;
      assert.ok(!Number.isNaN(Date.parse(body.data.lastUpdated)));
      const by = new Map(body.data.services.map((s) => [s.name, s]));
      assert.equal(by.get('database')?.status, 'healthy');
      assert.equal(by.get('database')?.metadata.engine, kind);
      assert.equal(by.get('database')?.critical, true);
      assert.equal(by.get('fix-acceptor')?.status, 'healthy');
      assert.equal(by.get('fix-acceptor')?.metadata.port, t.server.ctx.fix.port);
      assert.equal(by.get('api')?.status, 'healthy');
      // The demo connectors, not logged on: expected around the clock, so missing (down) once five
      // minutes into their day, otherwise still awaited (offline).
      const sgx = by.get('fix-session:SGX_CLIENT_1');
      assert.equal(sgx?.status, sgx?.session?.expectation === 'missing' ? 'down' : 'offline');
      assert.equal(sgx?.session?.inSchedule, true);
      assert.equal(sgx?.session?.loggedOn, false);
      assert.equal(sgx?.isConnected, false);
      assert.equal(sgx?.metadata.targetCompID, 'SGX_CLIENT_1');
      assert.equal(sgx?.metadata.senderCompID, 'FIXDESK');
      for (const s of body.data.services) {
        assert.equal(s.containerName, t.config.nodeId);
        assert.ok(['healthy', 'degraded', 'stale', 'down', 'offline'].includes(s.status), s.name);
      }
    });

    it('pushes service_status when a client logs on and off, with its sequence numbers', async () => {
      const token = await t.login('broker');
      const ws = new WebSocket(t.url.replace('http', 'ws') + '/ws');
      const got: WsServerMessage[] = [];
      ws.on('message', (d) => got.push(JSON.parse(String(d)) as WsServerMessage));
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'authenticate', token }));
      const sessionUpdate = async (status: string | string[], from = 0): Promise<ServiceStatusEntry> => {
        const wanted = ([] as string[]).concat(status);
        for (let i = 0; i < 500; i++) {
          const m = got
            .slice(from)
            .find(
              (x) => x.type === 'service_status' && x.data.service_name === 'fix-session:SGX_CLIENT_1' && wanted.includes(x.data.status),
            );
          if (m && m.type === 'service_status') return m.data.service;
          await new Promise((r) => setTimeout(r, 10));
        }
        throw new Error(
          `no service_status ${status} for SGX_CLIENT_1; got ${JSON.stringify(got.filter((x) => x.type === 'service_status'))}`,
        );
      };
      const client = new TestFixClient('SGX_CLIENT_1');
      let afterLogon = 0;
      try {
        await client.connect(t.server.ctx.fix.port);
        const on = await sessionUpdate('healthy');
        afterLogon = got.length;
        assert.equal(on.isConnected, true);
        assert.equal(on.metadata.connected, true);
        assert.equal(on.metadata.sessionID, 'FIX.4.4:FIXDESK->SGX_CLIENT_1');
        assert.equal(on.metadata.txSeqNum, 1, 'our Logon');
        assert.equal(on.metadata.rxSeqNum, 1, 'their Logon');
        assert.ok(on.lastHeartbeat && Date.now() - Date.parse(on.lastHeartbeat) < 10_000);
      } finally {
        await client.stop();
      }
      const off = await sessionUpdate(['offline', 'down'], afterLogon);
      assert.equal(off.isConnected, false);
      // Nothing else changed, so nothing else was pushed after the first list.
      assert.equal(got.filter((x) => x.type === 'service_status' && x.data.service_name === 'database').length, 0);
      ws.close();
    });

    it("shows the kill switch's stop on the client's session entry (who, when, why) until it is resumed", async () => {
      const broker = await t.login('broker');
      const viewer = await t.login('viewer');
      const entry = async () => {
        const body = (await (await t.api('/api/service-status', { token: viewer })).json()) as ServiceStatusResponse;
        return body.data.services.find((s) => s.name === 'fix-session:EEX_CLIENT_1')!;
      };
      assert.equal((await entry()).trading_stop, null);
      try {
        assert.equal(
          (await t.api('/api/client-connectors/EEX_CLIENT_1/stop', { method: 'POST', token: broker, json: { reason: 'runaway algo' } }))
            .status,
          200,
        );
        let stop: ServiceStatusEntry['trading_stop'] = null;
        for (let i = 0; i < 200 && !stop; i++) {
          stop = (await entry()).trading_stop ?? null;
          if (!stop) await new Promise((r) => setTimeout(r, 25));
        }
        assert.equal(stop?.stopped_by, 'broker');
        assert.equal(stop?.reason, 'runaway algo');
        assert.ok(Date.now() - Date.parse(stop!.stopped_at) < 60_000);
      } finally {
        assert.equal(
          (await t.api('/api/client-connectors/EEX_CLIENT_1/resume', { method: 'POST', token: broker, json: { reason: 'fixed' } })).status,
          200,
        );
      }
      let cleared = false;
      for (let i = 0; i < 200 && !cleared; i++) {
        cleared = (await entry()).trading_stop === null;
        if (!cleared) await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(cleared, 'the resume clears it');
    });
  });
}
