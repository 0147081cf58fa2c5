// Security findings as a browser and a client see them: the security headers on a page, a
// screen and an API answer; a Content-Security-Policy without inline script that the app itself
// never trips over; and a production build that serves no source maps.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { screenshot } from './support/browser';
import { E2E } from './support/fixture';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

const dist = new URL('../apps/web/dist', import.meta.url).pathname;

describe('security headers and the served build', () => {
  it('sends CSP, framing, sniffing and referrer headers on a page, a screen and an API answer; the API is never cached', async () => {
    for (const path of ['/', '/orders', '/api/health']) {
      const r = await fetch(`${e2e.server.baseUrl}${path}`);
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'(;|$)/, `${path}: scripts from our origin only, none inline`);
      assert.match(csp, /frame-ancestors 'none'/, `${path}: never framed`);
      assert.match(csp, /object-src 'none'/, path);
      assert.equal(r.headers.get('x-frame-options'), 'SAMEORIGIN', path);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(r.headers.get('referrer-policy'), 'same-origin', path);
      if (path.startsWith('/api/')) assert.equal(r.headers.get('cache-control'), 'no-store', path);
    }
  });

  it('serves no source maps', async () => {
    assert.ok(existsSync(dist), 'the web app is built');
    const assets = readdirSync(join(dist, 'assets'));
    assert.deepEqual(
      assets.filter((f) => f.endsWith('.map')),
      [],
      'no .map files in the build',
    );
    const scripts = assets.filter((f) => f.endsWith('.js'));
    assert.ok(scripts.length > 0);
    for (const f of scripts)
      assert.ok(!readFileSync(join(dist, 'assets', f), 'utf8').includes('sourceMappingURL='), `${f} points at no map`);
    assert.equal((await fetch(`${e2e.server.baseUrl}/assets/${scripts[0]}.map`)).status, 404);
  });

  it('runs under its own Content-Security-Policy without a single violation', async () => {
    await e2e.withPage(async (page) => {
      const violations: string[] = [];
      await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await e2e.signIn(page, 'admin', { landing: '/' });
      await page.goto('/orders');
      await page
        .getByTestId('order-info-empty')
        .getByText('Select an order')
        .waitFor()
        .catch(async (err: unknown) => {
          await screenshot(page, 'csp-blotter', false, tmpdir());
          throw new Error(`${String(err)}; CSP violations: ${violations.join(' | ')}`);
        });
      await page.waitForTimeout(500);
      assert.deepEqual(violations, []);
    });
  });
});
