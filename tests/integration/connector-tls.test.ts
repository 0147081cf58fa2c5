// Certificates for real. The desk CA signs a client certificate per connector (and the
// acceptor's server certificate); the acceptor serves TLS on its TLS port and admits a TLS-enabled
// connector's Logon only with the very certificate issued to it: over plain TCP, without a certificate
// or with another client's, the Logon is refused and recorded. The session-config names it all.
import assert from 'node:assert/strict';
import { X509Certificate, createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { getPki } from '@fixdesk/db';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { MemoryStoreFactory, type InitiatorTlsConfig } from '@fixdesk/fix';
import type { SessionConfig } from '@fixdesk/protocol';
import { logonAttempt } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

const TLS_COMP = 'TLS_CLIENT_1';
const OTHER_COMP = 'TLS_CLIENT_2';
const PLAIN_COMP = 'PLAIN_CLIENT_1';

interface ConnectorTls {
  comp_id: string;
  tls_key: string | null;
  tls_cert: string | null;
  tls_ca: string | null;
  tls_enabled: boolean;
}

/** One attempt with a fresh client store: 141=Y so that the server's numbers from earlier attempts do not matter. */
const attempt = (port: number, compId: string, tls?: InitiatorTlsConfig) =>
  logonAttempt(port, compId, new MemoryStoreFactory(), { tls, resetOnLogon: true, timeoutMs: 4000 });

for (const kind of TEST_DB_KINDS) {
  describe(`connector certificates and the TLS acceptor on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    const certs = new Map<string, ConnectorTls>();

    const create = async (comp_id: string, prefix: string) => {
      const r = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: {
          comp_id,
          execution_id_prefix: prefix,
          trading_days: 'M,T,W,T,F,S,S',
          start_time: '00:00:00',
          end_time: '23:59:59',
          timezone: 'UTC',
        },
      });
      assert.equal(r.status, 200, await r.text());
    };
    const generate = (compId: string, json: unknown, token = admin) =>
      t.api(`/api/client-connectors/${compId}/generate-certs`, { method: 'POST', token, json });
    const refusals = async (compId: string) =>
      (
        await t.database.db.query<{ disconnect_reason: string }>(
          `SELECT disconnect_reason FROM client_sessions WHERE comp_id = $1 AND disconnect_reason LIKE 'logon refused%' ORDER BY id`,
          [compId],
        )
      ).rows.map((r) => r.disconnect_reason);

    before(async () => {
      t = await startTestServer(kind, { fixTlsPort: 0 });
      [admin, broker] = await Promise.all([t.login('admin'), t.login('broker')]);
      await create(TLS_COMP, 'TL1');
      await create(OTHER_COMP, 'TL2');
      await create(PLAIN_COMP, 'PL1');
    });
    after(async () => {
      await t?.stop();
    });

    it('refuses a certificate for a connector that does not exist, bad input, and non-administrators', async () => {
      const missing = await generate('NO_SUCH_CLIENT', { commonName: 'x' });
      assert.equal(missing.status, 404);
      assert.match(((await missing.json()) as { message: string }).message, /save the connector first/);
      const bad = await generate(TLS_COMP, { commonName: 'x', country: 'USA' });
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as { field?: string }).field, 'country');
      const noName = await generate(TLS_COMP, { organization: 'Acme' });
      assert.equal(noName.status, 400);
      assert.equal(((await noName.json()) as { field?: string }).field, 'commonName');
      assert.equal((await generate(TLS_COMP, { commonName: 'x' }, broker)).status, 403);
      assert.equal((await t.api(`/api/client-connectors/${TLS_COMP}/session-config`, { token: broker })).status, 403);
    });

    it('issues a client certificate signed by the desk CA, expiring in a year, kept on the connector', async () => {
      for (const [compId, cn] of [
        [TLS_COMP, 'tls-client-1.example'],
        [OTHER_COMP, 'tls-client-2.example'],
      ] as const) {
        const r = await generate(compId, { commonName: cn, organization: 'Client Firm' });
        const body = (await r.json()) as { data: { expiresAt: string; fingerprint256: string; privateKeyPem: string }; message: string };
        assert.equal(r.status, 200, JSON.stringify(body));
        const days = (Date.parse(body.data.expiresAt) - Date.now()) / 86_400_000;
        assert.ok(days > 364 && days < 366, `expires in ${days} days`);
        assert.match(body.message, /^Certificates generated and stored in database! Valid until: \d{4}-\d{2}-\d{2}$/);
        const one = ((await (await t.api(`/api/client-connectors/${compId}`, { token: admin })).json()) as { data: ConnectorTls }).data;
        assert.ok(one.tls_enabled && one.tls_cert && one.tls_ca);
        // The private key is in the generation's answer only: no read gives it, none keeps it.
        assert.equal(one.tls_key, null);
        assert.match(body.data.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
        assert.equal(
          createPublicKey(body.data.privateKeyPem).export({ type: 'spki', format: 'pem' }),
          new X509Certificate(one.tls_cert!).publicKey.export({ type: 'spki', format: 'pem' }),
          "the key is the certificate's",
        );
        const stored = await t.database.db.query<{ tls_key: string | null }>('SELECT tls_key FROM client_connectors WHERE comp_id = $1', [
          compId,
        ]);
        assert.equal(stored.rows[0]!.tls_key, null, 'not kept');
        one.tls_key = body.data.privateKeyPem;
        const cert = new X509Certificate(one.tls_cert!);
        const ca = new X509Certificate(one.tls_ca!);
        assert.ok(cert.verify(ca.publicKey), 'signed by the desk CA');
        assert.ok(cert.checkIssued(ca));
        assert.match(cert.subject, new RegExp(`CN=${cn.replace(/\./g, '\\.')}`));
        assert.match(cert.subject, /C=US/);
        assert.equal(cert.fingerprint256, body.data.fingerprint256);
        assert.equal(new Date(cert.validTo).toISOString(), body.data.expiresAt);
        assert.ok(ca.ca);
        certs.set(compId, one);
      }
      // One CA for the desk: both certificates name the same one.
      assert.equal(certs.get(TLS_COMP)!.tls_ca, certs.get(OTHER_COMP)!.tls_ca);
    });

    it('shows the TLS material to an administrator one by one only; never the CA key', async () => {
      const caKey = (await getPki(t.database.db, 'ca'))!.key_pem;
      const keyBody = caKey.split('\n')[1]!;
      const adminList = await (await t.api('/api/client-connectors', { token: admin })).text();
      assert.ok(!adminList.includes('PRIVATE KEY') && !adminList.includes('BEGIN CERTIFICATE'), 'no TLS material in the list');
      for (const token of [broker]) {
        const one = await (await t.api(`/api/client-connectors/${TLS_COMP}`, { token })).text();
        assert.ok(!one.includes('PRIVATE KEY') && !one.includes('BEGIN CERTIFICATE'), one);
        assert.match(one, /"tls_enabled":true/);
      }
      const adminOne = await (await t.api(`/api/client-connectors/${TLS_COMP}`, { token: admin })).text();
      const config = await (await t.api(`/api/client-connectors/${TLS_COMP}/session-config`, { token: admin })).text();
      for (const text of [adminList, adminOne, config]) assert.ok(!text.includes(keyBody), 'the CA private key never leaves the server');
      // The issue is in the audit trail with who issued it.
      const { rows } = await t.database.db.query<{ action: string; changed_by: string; reason: string }>(
        `SELECT action, changed_by, reason FROM session_operations WHERE comp_id = $1`,
        [TLS_COMP],
      );
      assert.deepEqual(rows, [
        { action: 'GENERATE_CERTS', changed_by: 'admin', reason: 'Client certificate issued for CN=tls-client-1.example' },
      ]);
    });

    it("logs the client on over TLS with its certificate, and refuses plain TCP, no certificate and another client's", async () => {
      const tlsPort = t.server.ctx.fix.tlsPort;
      assert.ok(tlsPort > 0 && tlsPort !== t.server.ctx.fix.port);
      const mine = certs.get(TLS_COMP)!;
      const other = certs.get(OTHER_COMP)!;
      const ok = await attempt(tlsPort, TLS_COMP, { ca: mine.tls_ca!, cert: mine.tls_cert!, key: mine.tls_key!, servername: 'localhost' });
      assert.ok(ok.loggedOn, ok.events.join('\n'));

      const before = (await refusals(TLS_COMP)).length;
      const plain = await attempt(t.server.ctx.fix.port, TLS_COMP);
      assert.equal(plain.loggedOn, false);
      const bare = await attempt(tlsPort, TLS_COMP, { ca: mine.tls_ca!, servername: 'localhost' });
      assert.equal(bare.loggedOn, false);
      const stolen = await attempt(tlsPort, TLS_COMP, {
        ca: mine.tls_ca!,
        cert: other.tls_cert!,
        key: other.tls_key!,
        servername: 'localhost',
      });
      assert.equal(stolen.loggedOn, false);
      // Refused like any unauthenticated logon (nothing sent to the peer), and recorded with why.
      for (const r of [plain, bare, stolen]) assert.ok(!r.events.some((e) => e.startsWith('in: ')), r.events.join('\n'));
      const recorded = (await refusals(TLS_COMP)).slice(before);
      assert.deepEqual(recorded, [
        'logon refused: TLS required: Logon over plain TCP refused',
        'logon refused: TLS client certificate required',
        `logon refused: TLS client certificate (CN tls-client-2.example) is not the one issued to ${TLS_COMP}`,
      ]);
      // The other client's certificate still works for its own connector.
      assert.ok(
        (await attempt(tlsPort, OTHER_COMP, { ca: other.tls_ca!, cert: other.tls_cert!, key: other.tls_key!, servername: 'localhost' }))
          .loggedOn,
      );
    });

    it('lets a connector without TLS log on over plain TCP and over TLS without a certificate', async () => {
      assert.ok((await attempt(t.server.ctx.fix.port, PLAIN_COMP)).loggedOn);
      const ca = certs.get(TLS_COMP)!.tls_ca!;
      assert.ok((await attempt(t.server.ctx.fix.tlsPort, PLAIN_COMP, { ca, servername: 'localhost' })).loggedOn);
    });

    it('answers the session configuration as JSON and as a QuickFIX settings file', async () => {
      const r = await t.api(`/api/client-connectors/${TLS_COMP}/session-config`, { token: admin });
      assert.equal(r.status, 200);
      const c = ((await r.json()) as { data: SessionConfig }).data;
      assert.equal(c.senderCompId, TLS_COMP);
      assert.equal(c.targetCompId, 'FIXDESK');
      assert.equal(c.port, t.server.ctx.fix.tlsPort);
      assert.equal(c.tls.enabled, true);
      assert.equal(c.heartBtInt, 30);
      assert.deepEqual(c.schedule, { timeZone: 'UTC', startTime: '00:00:00', endTime: '23:59:59', tradingDays: 'M,T,W,T,F,S,S' });
      for (const line of [
        '[SESSION]',
        'BeginString=FIX.4.4',
        `SenderCompID=${TLS_COMP}`,
        'TargetCompID=FIXDESK',
        'SocketConnectHost=127.0.0.1',
        `SocketConnectPort=${t.server.ctx.fix.tlsPort}`,
        'HeartBtInt=30',
        'StartTime=00:00:00',
        'EndTime=23:59:59',
        'TimeZone=UTC',
        'Weekdays=Su,Mo,Tu,We,Th,Fr,Sa',
        'ResetOnLogon=N',
        `ClientCertificateFile=${TLS_COMP}.crt`,
        `ClientCertificateKeyFile=${TLS_COMP}.key`,
        'CertificationAuthoritiesFile=fixdesk-ca.crt',
      ]) {
        assert.ok(c.settingsFile.split('\n').includes(line), `${line} in\n${c.settingsFile}`);
      }
      const plain = (
        (await (await t.api(`/api/client-connectors/${PLAIN_COMP}/session-config`, { token: admin })).json()) as { data: SessionConfig }
      ).data;
      assert.equal(plain.port, t.server.ctx.fix.port);
      assert.ok(!plain.settingsFile.includes('ClientCertificateFile'));
      const missing = await t.api('/api/client-connectors/NO_SUCH_CLIENT/session-config', { token: admin });
      assert.equal(missing.status, 404);
    });
  });
}
