/// <reference lib="dom" />
// The Axes board and the Service Status page in Chromium: the board fills as a FIX client's orders
// arrive and loses an order live when a fill completes it; the blotter's icon opens it in its own
// window; the status page shows a client logging on and off as it happens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceStatusEntry } from '@fixdesk/protocol';
import type { Page } from 'playwright-core';
import { TestFixClient } from '../tests/support/fix-client';
import { deskScreenshots, screenshot } from './support/browser';
import { blotterDesk } from './support/blotter-desk';
import { until } from '../tests/support/until';

const { e2e, client, signInToBlotter, sendOrder, apiCall } = blotterDesk('AX');

/**
 * What does not fit in the Service Status tables: columns beyond the grid's width (its scrolled
 * part wider than its view), and cells whose text is cut (wider or taller than the cell).
 */
async function unfitting(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const region of ['Services', 'FIX sessions']) {
    const grid = page.getByRole('region', { name: region });
    // The grid's own horizontal scrollbar: as wide as the scrolled columns, in a view as wide as the table.
    const [scroll, view] = await grid.locator('.ag-body-horizontal-scroll-viewport').evaluate((el) => [el.scrollWidth, el.clientWidth]);
    if (scroll! > view! + 1) out.push(`${region}: columns ${scroll! - view!} px beyond the table`);
    const cut = await grid
      .locator('.ag-cell, .ag-header-cell-text')
      .evaluateAll((cells) =>
        cells
          .filter((c) => c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1)
          .map((c) => `${c.getAttribute('col-id') ?? 'header'}: ${c.textContent ?? ''}`),
      );
    out.push(...cut.map((c) => `${region}: cut ${c}`));
  }
  return out;
}

async function untilFits(page: Page, size: string): Promise<void> {
  let last: string[] = [];
  const fits = await until('the tables to fit', async () => (last = await unfitting(page)).length === 0, 5_000, 100).catch(() => false);
  if (fits) return;
  await screenshot(page, `service-status-unfit-${size}`, true);
  assert.deepEqual(last, [], `at ${size}`);
}

/**
 * The cells of a side's rows, top to bottom, as "symbol qty price". Read in one pass in the page: a row
 * counted and then read cell by cell could leave the board in between (a fill completing its order).
 */
async function sideRows(page: Page, side: 'buyers' | 'sellers'): Promise<string[]> {
  const rows = await page
    .getByTestId(`axes-${side}`)
    .locator('.ag-row')
    .evaluateAll((els) =>
      // No named function inside: the test runner's transform would name it with a helper the page lacks.
      els.map(
        (row) =>
          [
            Number(row.getAttribute('row-index')),
            ['symbol', 'quantity', 'price'].map((col) => (row.querySelector(`[col-id="${col}"]`)?.textContent ?? '').trim()).join(' '),
          ] as const,
      ),
    );
  return [...rows].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
}

async function waitForRows(page: Page, side: 'buyers' | 'sellers', expected: string[]): Promise<void> {
  let last: string[] = [];
  const shown = async () => JSON.stringify((last = await sideRows(page, side))) === JSON.stringify(expected);
  if (await until(`the ${side} rows`, shown, 15_000, 100).catch(() => false)) return;
  await screenshot(page, `axes-board-unexpected-${side}`);
  assert.deepEqual(last, expected, `${side} rows`);
}

describe('axes board', () => {
  it('fills as the FIX client orders arrive, in price-time order, and drops an order live when a fill completes it', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker');
      await page.goto('/axes');
      await page.getByTestId('axes-board').waitFor();
      assert.match(await page.title(), /^Open Axes\b/);
      assert.equal(await page.locator('header nav, [data-testid="main-nav"]').count(), 0, 'no top navigation');
      await page.getByTestId('axes-buyers').getByText('No open orders').waitFor();

      await sendOrder({ side: '1', qty: '10', price: '27000' }, 'B1');
      await waitForRows(page, 'buyers', ['C5TC 10 27,000.00']);
      await sendOrder({ side: '2', qty: '1000', price: '27100' }, 'S1');
      const best = await sendOrder({ side: '2', qty: '5', price: '27050' }, 'S2');
      await sendOrder({ side: '1', qty: '3', price: '27010' }, 'B2');
      // Best bid first (highest), best offer first (lowest); quantities with thousands separators.
      await waitForRows(page, 'buyers', ['C5TC 3 27,010.00', 'C5TC 10 27,000.00']);
      await waitForRows(page, 'sellers', ['C5TC 5 27,050.00', 'C5TC 1,000 27,100.00']);
      assert.equal(await page.getByTestId('axes-buyers-title').textContent(), 'BUYERS (2)');
      assert.equal(await page.getByTestId('axes-sellers-title').textContent(), 'SELLERS (2)');
      assert.match((await page.getByTestId('counter-orders').textContent()) ?? '', /Orders\s*4/);
      assert.match((await page.getByTestId('counter-clients').textContent()) ?? '', /Clients\s*1/);
      // The contract line: best bid facing best offer, with the spread.
      const contract = page.getByTestId('axes-contracts').locator('.ag-row').first();
      assert.equal((await contract.locator('[col-id="bestBid"]').textContent())?.trim(), '3 @ 27,010.00');
      assert.equal((await contract.locator('[col-id="bestOffer"]').textContent())?.trim(), '5 @ 27,050.00');
      assert.equal((await contract.locator('[col-id="spread"]').textContent())?.trim(), '40.00');
      // The company known for the client's comp id is shown by name.
      assert.match((await page.getByTestId('axes-buyers').locator('[col-id="client"]').nth(1).textContent()) ?? '', /\S/);

      await deskScreenshots(page, 'axes-board');

      // The broker accepts and fills the best offer completely: it leaves the board without a reload.
      const token = await e2e.apiLogin('broker', e2e.server.demoPassword);
      assert.equal((await apiCall(token, `/api/orders/${best.id}/accept`, {})).status, 200);
      assert.equal((await apiCall(token, `/api/orders/${best.id}/fill`, { fillQty: 5, fillPrice: 27050 })).status, 200);
      await client.waitForReport(best.clOrdId, (m) => m.get(39) === '2');
      await waitForRows(page, 'sellers', ['C5TC 1,000 27,100.00']);
      await waitForRows(page, 'buyers', ['C5TC 3 27,010.00', 'C5TC 10 27,000.00']);
      assert.match((await page.getByTestId('counter-orders').textContent()) ?? '', /Orders\s*3/);

      // Filters: another exchange empties the board, the symbol filter keeps C5TC.
      const exchangeOption = (name: string) => page.getByTestId('axes-board').locator(`label[for$="-${name}"]`);
      await exchangeOption('EEX').click();
      await page.getByTestId('axes-buyers').getByText('No open orders').waitFor();
      await exchangeOption('Any').click();
      await page.getByLabel('Symbol filter').fill('c5');
      await waitForRows(page, 'buyers', ['C5TC 3 27,010.00', 'C5TC 10 27,000.00']);
    });
  });

  it("opens from the blotter's Open Axes icon in its own window", async () => {
    await e2e.withPage(async (page, context) => {
      await signInToBlotter(page);
      const [popup] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Open Axes' }).click()]);
      await popup.waitForURL((url) => url.pathname === '/axes');
      await popup.getByTestId('axes-board').waitFor();
      assert.match(await popup.title(), /^Open Axes\b/);
      await popup.close();
    });
  });
});

describe('service status', () => {
  it('shows the banner and the services, and a client logging on and off as it happens', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      await page.goto('/service-status');
      const banner = page.getByTestId('health-banner');
      await banner.waitFor();
      assert.equal(await banner.getAttribute('data-level'), 'operational');
      assert.match((await banner.textContent()) ?? '', /All Systems Operational/);
      const eex = page.getByTestId('status-fix-session:EEX_CLIENT_1').first();
      await eex.waitFor();
      assert.notEqual(await eex.getAttribute('data-status'), 'healthy');
      // SGX_CLIENT_1 is logged on (the spec's FIX client).
      assert.equal(await page.getByTestId('status-fix-session:SGX_CLIENT_1').first().getAttribute('data-status'), 'healthy');

      const eexClient = new TestFixClient('EEX_CLIENT_1');
      try {
        await eexClient.connect(e2e.server.fixPort);
        // Pushed live: no reload, and well before the 30 s poll.
        await page.locator('[data-testid="status-fix-session:EEX_CLIENT_1"][data-status="healthy"]').first().waitFor({ timeout: 10_000 });
        await page.getByTestId('expectation-fix-session:EEX_CLIENT_1').getByText('Logged on').waitFor();

        // Its owner is this node, under the lease term its logon took (what the API says).
        const token = await e2e.apiLogin('viewer', e2e.server.demoPassword);
        const status = (await (await apiCall(token, '/api/service-status')).json()) as { data: { services: ServiceStatusEntry[] } };
        const entry = status.data.services.find((s) => s.name === 'fix-session:EEX_CLIENT_1')!;
        const owner = entry.metadata.owner as { node: string; term: number };
        assert.equal(owner.node, entry.containerName);
        const ownerCell = page.locator(`[data-testid="owner-fix-session:EEX_CLIENT_1"][data-term="${owner.term}"]`);
        await ownerCell.waitFor({ timeout: 10_000 });
        const ownerText = (await ownerCell.textContent()) ?? '';
        assert.ok(ownerText.startsWith(`${entry.containerName} (this node)`), ownerText);
        assert.match(ownerText, new RegExp(`term ${owner.term} · until \\d{2}:\\d{2}:\\d{2} `));

        // A drop copy session of the FIX client's reports, not logged on: the copy of an order's Pending New waits in its queue.
        const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
        const made = await apiCall(admin, '/api/client-connectors', {
          comp_id: 'AX_MIDDLE_OFFICE',
          execution_id_prefix: 'AXM',
          client_name: 'Middle Office',
          session_type: 'drop_copy',
          drop_copy_of: ['SGX_CLIENT_1'],
        });
        assert.equal(made.status, 200, await made.text());
        await sendOrder({}, 'DC');
        await page.reload();
        const sessionsGrid = page.getByRole('region', { name: 'FIX sessions' });
        await page.getByTestId('session-drop-copy-AX_MIDDLE_OFFICE').waitFor();
        // The client column is pinned: the row's other cells are in the row of the same index.
        const rowIndex = await sessionsGrid
          .locator('.ag-row', { has: page.getByTestId('session-drop-copy-AX_MIDDLE_OFFICE') })
          .getAttribute('row-index');
        await sessionsGrid
          .locator(`.ag-row[row-index="${rowIndex}"] [col-id="queue"]`)
          .getByText(/^1 copy, oldest /)
          .waitFor();

        // Both tables fit at each size: no column off to the right, no details cut.
        await deskScreenshots(page, 'service-status', {
          fullPage: true,
          prepare: ({ width, height }) => untilFits(page, `${width}x${height}`),
        });
      } finally {
        await eexClient.stop();
      }
      await page
        .locator('[data-testid="status-fix-session:EEX_CLIENT_1"]:not([data-status="healthy"])')
        .first()
        .waitFor({ timeout: 10_000 });
      assert.match((await page.getByTestId('status-fix-session:EEX_CLIENT_1').first().textContent()) ?? '', /Offline/);
    });
  });
});
