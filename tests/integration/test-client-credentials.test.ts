// The simulated client logs on with the connector's credentials as stored when it connects, like the
// acceptor checks them: not with the copy the test-client service keeps, which follows a change only
// after the change was answered (its own read). Connected in that window, it used to send a Logon
// without the new username and password, be refused, and retry with the same Logon (seen once in the
// test-client test's CI run: EEX_CLIENT_1's first Logons refused right after its credentials were set).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestClientControlResponse } from '@fixdesk/protocol';
import { startTestServer, type TestServer } from '../support/server';

describe('simulated client: credentials set just before it connects', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer('postgres');
  });
  after(() => t?.stop());

  it('logs on at the first attempt with the stored username and password, before the service has followed the change', async () => {
    // The change is stored but not yet followed (no change event has reached the service): the
    // service's copy still has no credentials, the acceptor now requires them.
    await t.database.db.query(
      "UPDATE client_connectors SET fix_username = 'eex-user', fix_password = 's3cret-pw' WHERE comp_id = 'EEX_CLIENT_1'",
    );
    assert.equal(t.server.ctx.testClients.get('EEX_CLIENT_1')!.row.fix_password ?? null, null);
    const token = await t.login('broker');
    const r = await t.api('/test-client/EEX_CLIENT_1/connect', { method: 'POST', token, json: {} });
    const body = (await r.json()) as TestClientControlResponse;
    assert.equal(body.success, true, body.error);
    assert.equal(body.status.fixConnected, true);
    const refused = await t.database.db.query(
      "SELECT disconnect_reason FROM client_sessions WHERE comp_id = 'EEX_CLIENT_1' AND disconnect_reason LIKE 'logon refused%'",
    );
    assert.deepEqual(refused.rows, []);
    await t.api('/test-client/EEX_CLIENT_1/disconnect', { method: 'POST', token, json: {} });
  });
});
