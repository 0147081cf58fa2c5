/// <reference lib="dom" />
// Outages: the live connection keeps retrying (back-off capped at 30 s, see the live client's
// unit test for the schedule), says so in the header bar without covering a grid's header, pauses
// actions with the reason, and resynchronises from a fresh snapshot when it returns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deskScreenshots, screenshot } from './support/browser';
import { blotterDesk } from './support/blotter-desk';
import { until } from '../tests/support/until';

const { e2e, client, signInToBlotter, sendOrder } = blotterDesk('OUT');

describe('blotter: server restart', () => {
  it('reconnects by itself after the server is stopped and restarted on the same port, with the order that arrived meanwhile', async () => {
    await e2e.withPage(async (page) => {
      // The browser's socket passes through to the server, except while `held` (so the order surely
      // arrives while this page is not connected, whatever the timing of its tries).
      let held = false;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        if (held) {
          void ws.close({ code: 1001, reason: '' });
          return;
        }
        ws.connectToServer();
      });
      const blotter = await signInToBlotter(page);
      held = true;
      const started = Date.now();
      await e2e.server.restart(3000);
      await blotter.reconnecting.waitFor();
      assert.doesNotMatch((await blotter.reconnecting.textContent()) ?? '', /\(\d{4}\)/, 'no close codes');
      await until('FIX client logged on again', () => client.isLoggedOn, 30_000);
      const { id } = await sendOrder({ qty: '2', price: '27000' }, 'RST');
      await screenshot(page, 'blotter-reconnecting');
      assert.equal(await blotter.row(id).count(), 0, 'the order arrived while the page was not connected');
      held = false;
      // No click: the page's own next try (at most 30 s away) brings it back, from a fresh snapshot.
      await page.locator('[data-testid="live-dot"][data-live="true"]').waitFor({ timeout: 35_000 });
      await blotter.row(id).waitFor();
      await blotter.reconnecting.waitFor({ state: 'detached' });
      await blotter.acceptButton(id).waitFor();
      assert.equal(await blotter.acceptButton(id).isDisabled(), false, 'actions are back');
      console.log(`outage and recovery took ${Math.round((Date.now() - started) / 1000)} s`);
      await screenshot(page, 'blotter-after-restart');
    });
  });
});

describe('blotter offline state', () => {
  it('says it is offline in the header bar (covering no grid header), pauses actions with the reason, and Retry now reconnects', async () => {
    await e2e.withPage(async (page) => {
      // The socket passes through to the server until the "network" drops.
      let networkDown = false;
      let current: { close(options?: { code?: number; reason?: string }): Promise<void> } | null = null;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        if (networkDown) {
          void ws.close({ code: 4500, reason: '' });
          return;
        }
        current = ws;
        ws.connectToServer();
      });
      const blotter = await signInToBlotter(page);
      const { id } = await sendOrder({ qty: '1', price: '27000' }, 'OFF');
      await blotter.acceptButton(id).waitFor();
      await blotter.select(id);
      const gridTop = async () => (await page.locator('[data-testid="orders-grid"]').boundingBox())?.y;
      const topBefore = await gridTop();
      networkDown = true;
      await current!.close({ code: 4500, reason: '' });
      await blotter.reconnecting.waitFor();
      assert.equal(await gridTop(), topBefore, 'the grid does not move');
      const notice = (await blotter.reconnecting.boundingBox())!;
      for (const header of [
        page.locator('[data-testid="orders-grid"] .ag-header'),
        page.getByTestId('orders-title'),
        page.locator('[data-testid="order-info"] h2'),
      ]) {
        const box = (await header.first().boundingBox())!;
        assert.ok(notice.y + notice.height <= box.y, `the notice (bottom ${notice.y + notice.height}) covers no header (top ${box.y})`);
      }
      const text = (await blotter.reconnecting.textContent()) ?? '';
      assert.match(text, /^Offline: The connection to the server was lost\. Orders may be stale and actions are paused\. Reconnecting/);
      assert.doesNotMatch(text, /\(\d{4}\)/, 'no close codes');
      // Actions are disabled while offline, with the reason.
      const why = 'Offline: the desk has lost its connection to the server. Actions come back when it reconnects.';
      assert.equal(await blotter.acceptButton(id).isDisabled(), true);
      assert.equal(await blotter.statusCell(id).locator('.fd-status').getAttribute('title'), why);
      assert.equal(await blotter.info.accept.isDisabled(), true);
      await deskScreenshots(page, 'blotter-offline');

      networkDown = false;
      await blotter.reconnecting.getByRole('button', { name: 'Retry now' }).click();
      await page.locator('[data-testid="live-dot"][data-live="true"]').waitFor();
      await blotter.reconnecting.waitFor({ state: 'detached' });
      assert.equal(await blotter.acceptButton(id).isDisabled(), false);
      const next = await sendOrder({ qty: '1', price: '27000' }, 'RETRY');
      await blotter.row(next.id).waitFor();
    });
  });
});
