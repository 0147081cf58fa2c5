/// <reference lib="dom" />
// The blotter's header and states on a fresh database of its own: loading, the empty grids, client
// connector logos following the FIX session, the users-online list, grid row and header heights.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { BlotterPage } from './pages/BlotterPage';
import { screenshot } from './support/browser';
import { E2E } from './support/fixture';

const e2e = new E2E();
let client: TestFixClient | undefined;

before(async () => {
  await e2e.start();
});
after(async () => {
  await client?.stop();
  await e2e.stop();
});

describe('blotter states on an empty desk', () => {
  it('shows Loading Orders... while the orders load, then the empty texts of spec 000 §2', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker');
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/api\/orders\?/, async (route) => {
        await held;
        await route.fallback();
      });
      await page.goto('/orders');
      const loading = page.getByTestId('orders-loading');
      await loading.waitFor();
      assert.equal(await loading.textContent(), 'Loading Orders...');
      await screenshot(page, 'blotter-loading');
      release();

      const blotter = new BlotterPage(page);
      await blotter.waitReady();
      const empty = page.getByTestId('orders-empty');
      await empty.waitFor();
      assert.equal(await empty.locator('b').textContent(), 'No orders yet');
      assert.equal(await empty.locator('span').textContent(), 'Waiting for order updates from the WebSocket server...');
      assert.equal(await blotter.ordersTitle.textContent(), 'Orders (0)');
      await blotter.executionsGrid.getByText('No execution reports yet').waitFor();
      await page.getByTestId('order-info-empty').getByText('Select an order').waitFor();
      await screenshot(page, 'blotter-empty');
    });
  });

  it("draws a client's logo as disconnected until its FIX session logs on, and again after it logs out", async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker');
      const blotter = new BlotterPage(page);
      await blotter.goto();
      const logo = page.getByTestId('connector-SGX_CLIENT_1');
      const look = () =>
        logo.evaluate((el) => {
          // The initials are drawn by the avatar's placeholder, in the avatar's colour.
          const initials = el.querySelector('.mantine-Avatar-placeholder') ?? el;
          const [r, g, b] = (getComputedStyle(initials).color.match(/\d+/g) ?? []).map(Number);
          // Red as drawn: a filter (greyscale, as before) would drain the colour.
          const drawnRed = r! > 150 && r! > g! + 60 && r! > b! + 60 && getComputedStyle(el).filter === 'none';
          return { title: el.getAttribute('title') ?? '', red: drawnRed, connected: el.getAttribute('data-connected') };
        });

      const before = await look();
      assert.match(before.title, / Disconnected$/);
      assert.equal(before.connected, 'false');
      assert.equal(before.red, true, 'red while disconnected (spec 000 §2: inverted or red)');

      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(e2e.server.fixPort);
      await page.locator('[data-testid="connector-SGX_CLIENT_1"][data-connected="true"]').waitFor();
      const connected = await look();
      assert.equal(connected.title, before.title.replace(/ Disconnected$/, ' Connected'));
      assert.equal(connected.red, false, 'not red while connected');
      await screenshot(page, 'blotter-client-connected');

      await client.stop();
      client = undefined;
      await page.locator('[data-testid="connector-SGX_CLIENT_1"][data-connected="false"]').waitFor();
      const after = await look();
      assert.equal(after.title, before.title, 'Disconnected again after the logout');
      assert.equal(after.red, true);
      await logo.hover();
      await page.getByRole('tooltip').getByText(before.title).waitFor();
      await screenshot(page, 'blotter-client-disconnected');
    });
  });

  it('lists the users online when the count is hovered', async () => {
    await e2e.withPage(async (viewerPage) => {
      await e2e.signIn(viewerPage, 'viewer');
      await new BlotterPage(viewerPage).goto();
      await e2e.withPage(async (page) => {
        await e2e.signIn(page, 'broker');
        const blotter = new BlotterPage(page);
        await blotter.goto();
        await page.waitForFunction(() =>
          /Users online: 2$/.test(document.querySelector('[data-testid="users-online"]')?.textContent ?? ''),
        );
        await blotter.usersOnline.hover();
        const list = page.getByTestId('active-users');
        await list.waitFor();
        const names = (await list.locator(':scope > p').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
        assert.equal(names.length, 2);
        assert.ok(
          names.some((n) => /^Ben .*\(broker, broker\)$/.test(n)),
          `the broker is listed: ${names.join(' | ')}`,
        );
        assert.ok(
          names.some((n) => /\(viewer, viewer\)$/.test(n)),
          `the viewer is listed: ${names.join(' | ')}`,
        );
        await page.getByText('Active Users').waitFor();
        await screenshot(page, 'blotter-users-online');
      });
    });
  });

  it('draws the Orders grid with 35 px rows and header (spec 000 §9)', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker');
      const blotter = new BlotterPage(page);
      await blotter.goto();
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(e2e.server.fixPort);
      await client.send('D', newOrderSingle('ST-ROW-1', { qty: '4', price: '27000' }));
      const ack = await client.waitForReport('ST-ROW-1');
      assert.equal(ack.get(150), 'A', `the order is pending (${ack.raw})`);
      const row = blotter.ordersGrid.locator('.ag-row', { hasText: ack.get(37)! });
      await row.waitFor();
      const height = async (selector: string) => Math.round((await blotter.ordersGrid.locator(selector).first().boundingBox())!.height);
      assert.equal(Math.round((await row.boundingBox())!.height), 35, 'rows');
      assert.equal(await height('.ag-header-row'), 35, 'header');
      assert.equal(await height('.ag-header-cell'), 35, 'header cells');
    });
  });
});
