// A connector's logo: fetched once by the server from its https logo_url, checked (an image,
// of its stated type, within the size, SVG sanitised), stored and served from our origin; browsers may
// load images from our origin and data: URLs only. The fetch refuses addresses that are not public
// (before and after DNS, and at a redirect), other schemes, slow and oversized answers, with a 400 naming
// logo_url and the reason. A logo_url saved before the desk fetched logos is fetched at its first view,
// once. The remote server is a local https server whose certificate the test alone trusts.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { ClientConnector } from '@fixdesk/protocol';
import { ensureServerCertificate } from '../../apps/server/src/pki/desk-pki';
import type { LogoFetchOptions } from '../../apps/server/src/reference/remote-logo';
import { startTestServer, type TestServer } from '../support/server';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b80000000049454e44ae426082',
  'hex',
);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle r="5"/></svg>';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

for (const kind of TEST_DB_KINDS) {
  describe(`connector logos on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let viewer: string;
    let remote: Server;
    let base: string;
    const hits = new Map<string, number>();
    // Filled once the test's CA exists: trusted here only, and 127.0.0.1 (the local server) reachable.
    const logoFetch: Mutable<LogoFetchOptions> = {};

    const put = async (compId: string, json: Record<string, unknown>) => {
      const r = await t.api(`/api/client-connectors/${compId}`, { method: 'PUT', token: admin, json });
      return { status: r.status, body: (await r.json()) as { data: ClientConnector; field?: string; message?: string } };
    };
    const listed = async (compId: string) =>
      ((await (await t.api('/api/client-connectors', { token: viewer })).json()) as { data: ClientConnector[] }).data.find(
        (c) => c.comp_id === compId,
      )!;

    before(async () => {
      t = await startTestServer(kind, {}, { logoFetch });
      [admin, viewer] = await Promise.all([t.login('admin'), t.login('viewer')]);
      const { server, ca } = await ensureServerCertificate(t.database.db, ['localhost', '127.0.0.1']);
      logoFetch.ca = ca.cert_pem;
      logoFetch.allowAddress = (a) => a === '127.0.0.1';
      remote = createServer({ key: server.key_pem, cert: server.cert_pem }, (req, res) => {
        const path = req.url!.split('?')[0]!;
        hits.set(path, (hits.get(path) ?? 0) + 1);
        if (path === '/logo.png' || path === '/legacy.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        if (path === '/logo.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG);
        if (path === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hello</body></html>');
        if (path === '/png-as-svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(PNG);
        if (path === '/big.png')
          return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.alloc(600_000)]));
        if (path === '/big-chunked.png') {
          res.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
          for (let i = 0; i < 20; i++) res.write(Buffer.alloc(50_000));
          return res.end();
        }
        if (path === '/slow.png') return; // never answers
        if (path === '/to-metadata') return res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' }).end();
        if (path === '/to-loopback6') return res.writeHead(301, { location: 'https://[::1]/logo.png' }).end();
        if (path === '/to-http')
          return res.writeHead(302, { location: `http://127.0.0.1:${(remote.address() as AddressInfo).port}/logo.png` }).end();
        if (path === '/to-logo') return res.writeHead(302, { location: '/logo.png' }).end();
        if (path === '/loop') return res.writeHead(302, { location: '/loop' }).end();
        res.writeHead(404).end();
      });
      await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
      base = `https://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    });
    after(async () => {
      remote?.closeAllConnections();
      await new Promise((r) => remote?.close(r));
      await t?.stop();
    });

    it('lets browsers load images from our origin and data: URLs only', async () => {
      const csp = (await t.api('/api/health')).headers.get('content-security-policy') ?? '';
      assert.match(csp, /img-src 'self' data:(;|$)/);
    });

    it('fetches the logo once when it is saved and serves it from our origin', async () => {
      const saved = await put('SGX_CLIENT_1', { logo_url: `${base}/logo.png` });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.data.logo_url, `${base}/logo.png`);
      const src = saved.body.data.logo_src!;
      assert.match(src, /^\/api\/client-connectors\/SGX_CLIENT_1\/logo\?v=[0-9a-f]{16}$/);
      assert.equal((await listed('SGX_CLIENT_1')).logo_src, src, 'the list has it');
      assert.equal(hits.get('/logo.png'), 1);
      for (let i = 0; i < 2; i++) {
        const img = await t.api(src, { token: viewer });
        assert.equal(img.status, 200);
        assert.equal(img.headers.get('content-type'), 'image/png');
        assert.equal(img.headers.get('x-content-type-options'), 'nosniff');
        assert.match(img.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
        assert.ok(Buffer.from(await img.arrayBuffer()).equals(PNG));
      }
      assert.equal(hits.get('/logo.png'), 1, 'served from our copy, never fetched again');
      assert.equal((await t.api(src)).status, 401, 'signed-in users only');
      // Saving the connector again with the same logo_url does not fetch it again.
      assert.equal((await put('SGX_CLIENT_1', { logo_url: `${base}/logo.png`, notes: 'x' })).status, 200);
      assert.equal(hits.get('/logo.png'), 1);
      // A redirect within the rules is followed.
      const redirected = await put('SGX_CLIENT_1', { logo_url: `${base}/to-logo` });
      assert.equal(redirected.status, 200, JSON.stringify(redirected.body));
      assert.equal(hits.get('/logo.png'), 2);
    });

    it('stores an SVG logo sanitised, served so that opened on its own it runs nothing', async () => {
      const saved = await put('SGX_CLIENT_1', { logo_url: `${base}/logo.svg` });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const img = await t.api(saved.body.data.logo_src!, { token: viewer });
      assert.equal(img.headers.get('content-type'), 'image/svg+xml');
      const text = await img.text();
      assert.ok(text.includes('<circle') && !/script|onload/.test(text), text);
    });

    it('refuses a logo it may not or cannot fetch with a 400 naming logo_url and the reason, and keeps the connector as it was', async () => {
      const before = (await listed('SGX_CLIENT_1')).logo_url;
      const cases: [string, RegExp][] = [
        [`http://127.0.0.1/logo.png`, /must be an https:\/\/ address/],
        [`https://10.1.2.3/logo.png`, /names 10\.1\.2\.3, an address that is not public/],
        [`https://[::1]/logo.png`, /names ::1, an address that is not public/],
        [`https://169.254.169.254/latest/meta-data/iam`, /not public/],
        [`${base}/to-metadata`, /names 169\.254\.169\.254, an address that is not public/],
        [`${base}/to-loopback6`, /names ::1/],
        [`${base}/to-http`, /must be an https URL \(not http\)/],
        [`${base}/loop`, /redirected more than 3 times/],
        [`${base}/page.html`, /is not an image the desk shows \(Content-Type text\/html/],
        [`${base}/png-as-svg`, /does not hold the image\/svg\+xml/],
        [`${base}/big.png`, /is larger than 512 KB/],
        [`${base}/big-chunked.png`, /is larger than 512 KB/],
        [`${base}/missing.png`, /answered HTTP 404/],
        [`https://user:secret@127.0.0.1/logo.png`, /user name or password/],
      ];
      for (const [url, reason] of cases) {
        const r = await put('SGX_CLIENT_1', { logo_url: url });
        assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.field, 'logo_url', url);
        assert.match(r.body.message!, reason, url);
      }
      logoFetch.timeoutMs = 400;
      try {
        const slow = await put('SGX_CLIENT_1', { logo_url: `${base}/slow.png` });
        assert.equal(slow.status, 400);
        assert.match(slow.body.message!, /did not answer within 400 ms/);
      } finally {
        delete logoFetch.timeoutMs;
      }
      assert.equal((await listed('SGX_CLIENT_1')).logo_url, before, 'nothing written');
      const created = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: { comp_id: 'LOGO_NEW', execution_id_prefix: 'LGN', logo_url: `${base}/page.html` },
      });
      assert.equal(created.status, 400);
      assert.equal(((await created.json()) as { field: string }).field, 'logo_url');
      assert.equal((await t.api('/api/client-connectors/LOGO_NEW', { token: admin })).status, 404, 'not created');
    });

    it('fetches a logo_url saved before the desk fetched logos at its first view, once; a refused one shows as initials', async () => {
      // As a row migrated from before: a logo_url and nothing fetched.
      await t.database.db.query(`UPDATE client_connectors SET logo_url = $1 WHERE comp_id = 'EEX_CLIENT_1'`, [`${base}/legacy.png`]);
      const src = (await listed('EEX_CLIENT_1')).logo_src!;
      assert.match(src, /^\/api\/client-connectors\/EEX_CLIENT_1\/logo\?v=/);
      assert.equal(hits.get('/legacy.png') ?? 0, 0, 'not fetched by listing');
      const [a, b] = await Promise.all([t.api(src, { token: viewer }), t.api(src, { token: viewer })]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.ok(Buffer.from(await a.arrayBuffer()).equals(PNG));
      await b.arrayBuffer();
      assert.equal((await t.api(src, { token: viewer })).status, 200);
      assert.equal(hits.get('/legacy.png'), 1, 'fetched once');

      await t.database.db.query(`UPDATE client_connectors SET logo_url = 'https://192.168.0.10/logo.png' WHERE comp_id = 'EEX_CLIENT_1'`);
      const refusedSrc = (await listed('EEX_CLIENT_1')).logo_src!;
      const refused = await t.api(refusedSrc, { token: viewer });
      assert.equal(refused.status, 404);
      assert.match(((await refused.json()) as { message: string }).message, /192\.168\.0\.10, an address that is not public/);
      assert.equal((await listed('EEX_CLIENT_1')).logo_src, null, 'the refusal is kept: initials from now on');
    });

    it('drops the logo when its logo_url is cleared', async () => {
      const cleared = await put('SGX_CLIENT_1', { logo_url: null });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.data.logo_src, null);
      assert.equal((await t.api('/api/client-connectors/SGX_CLIENT_1/logo', { token: viewer })).status, 404);
    });
  });
}
