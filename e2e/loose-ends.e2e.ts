/// <reference lib="dom" />
// Small rules of the screens: the blotter's pop-out only in the desktop shell, the TLS tab's
// session-config texts, the party-defaults warning in place of the preview, Order Actions without
// sideways scroll at 1280 px. Screenshots at 1600x1000 and 1280x800.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { OrderActionsScreen } from './pages/AuditPages';
import { SimulatorClientPage } from './pages/SimulatorPages';
import { type DeskScreenshotOptions, deskScreenshots } from './support/browser';
import { blotterDesk } from './support/blotter-desk';

const { e2e, signInToBlotter, sendOrder, apiCall } = blotterDesk('LE');

const SHOTS: DeskScreenshotOptions = {};

/** [scrollWidth, clientWidth] of a grid's horizontal scroll viewport. */
async function sideways(grid: Locator): Promise<number> {
  const [scroll, view] = await grid.locator('.ag-body-horizontal-scroll-viewport').evaluate((el) => [el.scrollWidth, el.clientWidth]);
  return scroll! - view!;
}

describe('loose ends on the screens', () => {
  it('in a browser tab the Order Info panel has no pop-out button (spec 000 §2: desktop shell only)', async () => {
    await e2e.withPage(async (page) => {
      const blotter = await signInToBlotter(page);
      const { id } = await sendOrder({ qty: '2', price: '27000' }, 'TAB');
      await blotter.row(id).waitFor();
      await blotter.select(id);
      await blotter.info.root.getByText('Order Info').first().waitFor();
      assert.equal(await blotter.info.root.getByRole('button', { name: 'Pop out order' }).count(), 0, 'no pop-out in a tab');
      await deskScreenshots(page, 'loose-ends-blotter-no-popout', SHOTS);
    });
  });

  it('Order Actions at 1280 px has no sideways scroll (ID and Client Order ID give way), every column at 1600 px', async () => {
    const token = await e2e.apiLogin('broker', e2e.server.demoPassword);
    const { id } = await sendOrder({ qty: '3', price: '27000' }, 'ACT');
    assert.equal(
      (await apiCall(token, `/api/orders/${id}/accept`, { notes: 'accepted for the 1280 px check of the order actions table' })).status,
      200,
    );
    await e2e.withPage(async (page) => {
      await signInToBlotter(page);
      const screen = new OrderActionsScreen(page);
      await screen.goto();
      await screen.grid.locator('.ag-row').first().waitFor();
      const header = (col: string) => screen.grid.locator(`.ag-header-cell[col-id="${col}"]`);

      await page.setViewportSize({ width: 1600, height: 1000 });
      await page.waitForTimeout(300);
      assert.equal(await header('id').count(), 1, 'ID shown at 1600 px');
      assert.equal(await header('clordid').count(), 1, 'Client Order ID shown at 1600 px');
      assert.ok((await sideways(screen.grid)) <= 1, 'no sideways scroll at 1600 px');
      assert.equal(await page.getByTestId('order-actions-hidden-columns').count(), 0);

      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('order-actions-hidden-columns').getByText('ID and Client Order ID hidden at this width').waitFor();
      assert.equal(await header('id').count(), 0, 'ID gave way');
      assert.equal(await header('clordid').count(), 0, 'Client Order ID gave way');
      for (const kept of [
        'timestamp',
        'client',
        'brokerorderid',
        'symbol',
        'side',
        'orderqty',
        'price',
        'action_type',
        'user_id',
        'fillqty',
        'fillprice',
        'notes',
        'action_data',
      ]) {
        assert.equal(await header(kept).count(), 1, `${kept} stays`);
      }
      assert.ok((await sideways(screen.grid)) <= 1, `no sideways scroll at 1280 px (${await sideways(screen.grid)} px)`);
      // The filter still finds an action by its Client Order ID.
      await screen.filter.fill('LE-ACT');
      await screen.grid.locator('.ag-row').first().waitFor();
      await screen.filter.fill('');
      await deskScreenshots(page, 'loose-ends-order-actions', SHOTS);
    });
  });

  it('the TLS tab says when the session config failed, and both save-first texts for an unsaved connector', async () => {
    await e2e.withPage(async (page) => {
      await signInToBlotter(page, 'admin');
      await page.route('**/api/client-connectors/SGX_CLIENT_1/session-config', (route) => route.fulfill({ status: 500, body: '' }));
      await page.goto('/config/client-connectors');
      await page.getByRole('region', { name: 'Client connectors' }).getByText('SGX_CLIENT_1', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Edit connector SGX_CLIENT_1' }).click();
      const edit = page.getByRole('form', { name: 'Edit Client Connector SGX_CLIENT_1' });
      await edit.getByRole('tab', { name: 'TLS/SSL' }).click();
      const failed = edit.getByTestId('tls-config-error');
      await failed.getByText('Session config generation failed', { exact: true }).waitFor();
      assert.equal(await edit.getByText(/Failed to fetch client connectors/).count(), 0, 'not called a connector fetch');
      await edit.getByTestId('tls-panel').getByText('Generate a certificate').waitFor();
      await deskScreenshots(page, 'loose-ends-tls-config-failed', SHOTS);
      // Retry after the fault is gone: the session config is there.
      await page.unroute('**/api/client-connectors/SGX_CLIENT_1/session-config');
      await failed.getByRole('button', { name: 'Retry' }).click();
      await edit.getByRole('button', { name: 'Session config' }).waitFor();

      await page.goto('/config/client-connectors');
      await page.getByRole('region', { name: 'Client connectors' }).getByText('SGX_CLIENT_1', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add Connector' }).click();
      const add = page.getByRole('form', { name: 'Add Client Connector' });
      await add.getByRole('tab', { name: 'TLS/SSL' }).click();
      await add.getByText('Please save the connector first before generating certificates').waitFor();
      await add.getByText('Please save the connector first before generating session config').waitFor();
      await deskScreenshots(page, 'loose-ends-tls-save-first', SHOTS);
    });
  });

  it('without any party the warning replaces the FIX message preview (spec 001 §8)', async () => {
    await e2e.withPage(async (page) => {
      await signInToBlotter(page);
      // The client without an LEI (no form LEI, and the demo party defaults resolve to nothing).
      await page.route('**/api/client-connectors', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { data?: Record<string, unknown>[] } | Record<string, unknown>[];
        const strip = (c: Record<string, unknown>) => ({ ...c, client_lei: null, lei: null });
        await route.fulfill({ response, json: Array.isArray(body) ? body.map(strip) : { ...body, data: body.data?.map(strip) } });
      });
      await page.route('**/api/fix-client-defaults**', (route) => route.fulfill({ status: 200, json: { success: true, data: [] } }));
      const sim = new SimulatorClientPage(page);
      await sim.goto();
      const entry = sim.entry;
      const noParties = entry.preview.getByTestId('fix-preview-no-parties');
      await noParties.getByText('Please configure party defaults in FIX Client Defaults, or enter LEI/Trader Name above').waitFor();
      assert.equal(await entry.previewText.count(), 0, 'the warning stands where the message was');
      assert.equal(await entry.copy.isDisabled(), true, 'nothing to copy');
      await deskScreenshots(page, 'loose-ends-preview-no-parties', SHOTS);
    });
  });
});
