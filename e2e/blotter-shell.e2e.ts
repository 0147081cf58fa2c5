/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlotterPage } from './pages/BlotterPage';
import { LoginPage } from './pages/LoginPage';
import { screenshot, waitForPath } from './support/browser';
import { blotterDesk } from './support/blotter-desk';

const { e2e, signInToBlotter, sendOrder } = blotterDesk('SH');

// The blotter as a desktop shell or an installed app.
describe('blotter: desktop shell and installed app', () => {
  it('in the desktop shell: / goes to the blotter, no footer, and the pop-out opens the order in its own window', async () => {
    await e2e.withPage(
      async (page, context) => {
        const blotter = await signInToBlotter(page);
        await page.goto('/');
        await waitForPath(page, '/orders');
        await blotter.waitReady();
        assert.equal(await page.getByRole('contentinfo').count(), 0, 'no footer');
        assert.equal((await page.getByRole('banner').boundingBox())?.height, 60, 'compact bar');
        const { id } = await sendOrder({ qty: '1', price: '27000' }, 'POP');
        await blotter.row(id).waitFor();
        await blotter.select(id);
        const [popup] = await Promise.all([
          context.waitForEvent('page'),
          blotter.info.root.getByRole('button', { name: 'Pop out order' }).click(),
        ]);
        await popup.waitForURL((url) => url.pathname === `/order-detail/${id}`);
        await popup.locator(`[data-testid="order-info"][data-order="${id}"]`).waitFor();
        await screenshot(page, 'blotter-desktop-shell');
        await popup.close();
      },
      { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 FixDeskDesktop/1.0' },
    );
  });

  it('as an installed app (display-mode standalone): / goes to sign-in, then the blotter; compact bar, no footer, pop-out window', async () => {
    await e2e.withPage(
      async (page, context) => {
        await page.goto('/');
        await waitForPath(page, '/login');
        const login = new LoginPage(page);
        await login.signIn('broker', e2e.server.demoPassword);
        await page.waitForURL((url) => url.pathname !== '/login');
        await page.goto('/');
        await waitForPath(page, '/orders');
        const blotter = new BlotterPage(page);
        await blotter.waitReady();
        const banner = page.getByRole('banner');
        assert.equal(await banner.getAttribute('data-variant'), 'compact');
        assert.equal((await banner.boundingBox())?.height, 60, 'compact bar, 60 px');
        assert.equal(
          await banner.getByRole('link', { name: 'FixDesk home' }).getAttribute('href'),
          '/orders',
          'the logo goes to the blotter',
        );
        await banner.getByRole('button', { name: 'Logout' }).waitFor();
        // A browser tab shows the footer on the simulator; the installed app never does.
        await page.goto('/fix-test-client');
        await page.getByRole('main').getByRole('heading').first().waitFor();
        assert.equal(await page.getByRole('contentinfo').count(), 0, 'no footer, even where a tab shows one');
        await blotter.goto();
        const { id } = await sendOrder({ qty: '1', price: '27000' }, 'PWA');
        await blotter.row(id).waitFor();
        await blotter.select(id);
        const [popup] = await Promise.all([
          context.waitForEvent('page'),
          blotter.info.root.getByRole('button', { name: 'Pop out order' }).click(),
        ]);
        await popup.waitForURL((url) => url.pathname === `/order-detail/${id}`);
        await popup.locator(`[data-testid="order-info"][data-order="${id}"]`).waitFor();
        assert.equal(await popup.getByRole('banner').getAttribute('data-variant'), 'compact', 'the pop-out is the installed app too');
        await screenshot(page, 'blotter-standalone');
        await screenshot(popup, 'order-popout-standalone');
        await popup.close();
      },
      { standalone: true },
    );
  });

  it('is installable: the manifest and its 192 and 512 px PNG icons are served, and Chromium finds nothing missing', async () => {
    const manifestResponse = await fetch(`${e2e.server.baseUrl}/manifest.webmanifest`);
    assert.equal(manifestResponse.status, 200);
    const manifest = (await manifestResponse.json()) as {
      display: string;
      start_url: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    assert.equal(manifest.display, 'standalone');
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && i.type === 'image/png');
      assert.ok(icon, `a ${size}x${size} PNG icon is listed`);
      const response = await fetch(`${e2e.server.baseUrl}${icon.src}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'image/png');
      const png = Buffer.from(await response.arrayBuffer());
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [size, size], `${icon.src} is ${size}x${size}`);
    }
    await e2e.withPage(async (page, context) => {
      await page.goto('/');
      await page.locator('link[rel="manifest"]').waitFor({ state: 'attached' });
      const cdp = await context.newCDPSession(page);
      const { errors } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] };
      assert.deepEqual(errors, [], 'Chromium parses the manifest');
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
      // A Playwright context is an incognito profile, which Chromium never installs from; nothing else may be missing.
      assert.deepEqual(
        installabilityErrors.map((e) => e.errorId).filter((e) => e !== 'in-incognito'),
        [],
      );
    });
  });
});
