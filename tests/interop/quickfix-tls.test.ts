// TLS with QuickFIX C++ (Debian's libquickfix, built with OpenSSL): a client's FIX team
// takes the session-config's settings file and the certificate files from the TLS/SSL tab as they are,
// and QuickFIX's SSL initiator logs on to our TLS port with them. The same settings without the client
// certificate, or pointed at the plain port, are refused and recorded.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { SessionConfig } from '@fixdesk/protocol';
import { buildQuickfix, quickfixUnavailable, type QuickfixBuild } from '../../bench/quickfix/build';
import { startTestServer, type TestServer } from '../support/server';
import { QuickfixPeer } from './quickfix-peer';
import { until } from '../support/until';

const unavailable = quickfixUnavailable();
if (unavailable && process.env.CI) throw new Error(`QuickFIX interop cannot run in CI: ${unavailable}`);
const skip = unavailable ? `QuickFIX interop skipped: ${unavailable}` : false;

const COMP = 'QF_TLS_CLIENT';

describe('QuickFIX C++ over TLS with the desk-issued certificate and the generated settings file', { skip }, () => {
  let build: QuickfixBuild;
  let t: TestServer;
  let admin: string;
  let config: SessionConfig;
  let privateKeyPem: string;
  const dirs: string[] = [];
  const peers: QuickfixPeer[] = [];

  before(async () => {
    build = buildQuickfix(['fixpeer']);
    t = await startTestServer('pglite', { fixTlsPort: 0 });
    admin = await t.login('admin');
    const created = await t.api('/api/client-connectors', {
      method: 'POST',
      token: admin,
      json: {
        comp_id: COMP,
        execution_id_prefix: 'QTL',
        trading_days: 'M,T,W,T,F,S,S',
        start_time: '00:00:00',
        end_time: '23:59:59',
        timezone: 'UTC',
        heartbeatint: 5,
      },
    });
    assert.equal(created.status, 200, await created.text());
    const certs = await t.api(`/api/client-connectors/${COMP}/generate-certs`, {
      method: 'POST',
      token: admin,
      json: { commonName: 'qf-tls-client', organization: 'QuickFIX Client Ltd' },
    });
    const issued = (await certs.json()) as { data: { privateKeyPem: string } };
    assert.equal(certs.status, 200, JSON.stringify(issued));
    // The private key is handed out once, in this answer.
    privateKeyPem = issued.data.privateKeyPem;
    config = ((await (await t.api(`/api/client-connectors/${COMP}/session-config`, { token: admin })).json()) as { data: SessionConfig })
      .data;
  });
  after(async () => {
    for (const p of peers) p.kill();
    await t?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A client's installation: the settings file (optionally edited), the dictionary and the certificate files. */
  const install = async (edit: (settings: string) => string = (s) => s): Promise<{ dir: string; file: string }> => {
    const dir = mkdtempSync(join(tmpdir(), 'qf-tls-'));
    dirs.push(dir);
    const c = (
      (await (await t.api(`/api/client-connectors/${COMP}`, { token: admin })).json()) as { data: { tls_cert: string; tls_ca: string } }
    ).data;
    writeFileSync(join(dir, config.tls.certificateFile), c.tls_cert);
    writeFileSync(join(dir, config.tls.privateKeyFile), privateKeyPem, { mode: 0o600 });
    writeFileSync(join(dir, config.tls.caFile), c.tls_ca);
    copyFileSync(build.dictionaryPath, join(dir, 'FIX44.xml'));
    const file = join(dir, `${COMP}.cfg`);
    writeFileSync(file, edit(config.settingsFile));
    return { dir, file };
  };
  const refusals = async () =>
    (
      await t.database.db.query<{ disconnect_reason: string }>(
        `SELECT disconnect_reason FROM client_sessions WHERE comp_id = $1 AND disconnect_reason LIKE 'logon refused%' ORDER BY id`,
        [COMP],
      )
    ).rows.map((r) => r.disconnect_reason);
  test('the settings file names our TLS port and the certificate files', () => {
    assert.equal(config.port, t.server.ctx.fix.tlsPort);
    assert.match(config.settingsFile, new RegExp(`^SocketConnectPort=${t.server.ctx.fix.tlsPort}$`, 'm'));
    assert.match(config.settingsFile, /^HeartBtInt=5$/m);
  });

  test('QuickFIX SSL initiator logs on with the issued certificate, and logs out', async () => {
    const { dir, file } = await install();
    const qf = new QuickfixPeer({
      binary: build.programs.fixpeer,
      settingsFile: file,
      cwd: dir,
      dictionaryPath: build.dictionaryPath,
      ssl: true,
      waitTimeoutMs: 15_000,
      killAfterMs: 40_000,
    });
    peers.push(qf);
    qf.script('start\nwait-logon 15000\nsleep 1500\nlogout\nwait-logout 10000\nstop', true);
    await qf.waitForLine((l) => l.startsWith('LOGON '), 20_000);
    const view = (
      (await (await t.api(`/api/client-connectors/${COMP}/session`, { token: admin })).json()) as {
        data: { session: { loggedOn: boolean; transport: string | null } };
      }
    ).data;
    assert.equal(view.session.loggedOn, true);
    assert.equal(view.session.transport, 'TLS');
    await qf.finished();
    assert.ok(
      qf.messages('RX').some((m) => m.includes('|35=A|')),
      qf.transcript(),
    );
    assert.ok(
      qf.messages('RX').some((m) => m.includes('|35=5|')),
      'our Logout answer came back over TLS',
    );
  });

  test('without the client certificate, or over plain TCP, the same client is refused and it is recorded', async () => {
    const before = (await refusals()).length;
    const noCert = await install((s) =>
      s
        .split('\n')
        .filter((l) => !/^ClientCertificate(Key)?File=/.test(l))
        .join('\n'),
    );
    const bare = new QuickfixPeer({
      binary: build.programs.fixpeer,
      settingsFile: noCert.file,
      cwd: noCert.dir,
      dictionaryPath: build.dictionaryPath,
      ssl: true,
      killAfterMs: 30_000,
    });
    peers.push(bare);
    bare.script('start');
    await until('the refusal without a certificate', async () => (await refusals()).length > before, 15_000, 100);
    bare.kill();
    const plain = await install((s) => s.replace(/^SocketConnectPort=\d+$/m, `SocketConnectPort=${t.server.ctx.fix.port}`));
    const tcp = new QuickfixPeer({
      binary: build.programs.fixpeer,
      settingsFile: plain.file,
      cwd: plain.dir,
      dictionaryPath: build.dictionaryPath,
      killAfterMs: 30_000,
    });
    peers.push(tcp);
    tcp.script('start');
    await until('the refusal over plain TCP', async () => (await refusals()).length > before + 1, 15_000, 100);
    tcp.kill();
    const recorded = (await refusals()).slice(before, before + 2);
    assert.deepEqual(recorded, [
      'logon refused: TLS client certificate required',
      'logon refused: TLS required: Logon over plain TCP refused',
    ]);
    assert.ok(![...bare.lines, ...tcp.lines].some((l) => l.startsWith('LOGON ')));
  });
});
