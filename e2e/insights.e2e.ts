/// <reference lib="dom" />
// Desk Insights (issue 31): the screen on seeded orders over five days and three clients. Every chart is
// compared with the API's answer for the same filters; the filters and the zone change them; a live order
// moves today's order flow; the table view, legend, tooltip, CSV and PNG work; loading, empty and error
// states; the charting library is loaded with this screen only. Screenshots at both desk sizes.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { BlotterPage } from './pages/BlotterPage';
import { INSIGHT_PANELS, InsightsScreen } from './pages/InsightsPage';
import { NavBar } from './pages/NavBar';
import { deskScreenshots, settled } from './support/browser';
import { downloadText } from './support/download';
import { E2E } from './support/fixture';
import { BALTIC, BALTIC_NAME, SGX, seedInsightsDataDir, utcDayStart } from './support/insights-seed';

const e2e = new E2E({ seed: (dir) => seedInsightsDataDir(dir) });
let token = '';

before(async () => {
  await e2e.start();
  token = await e2e.apiLogin('viewer', e2e.server.demoPassword);
});
after(() => e2e.stop());

interface Answer {
  series: Record<string, number | string>[];
  answer: { overall: { count: number }; waiting: number };
  firstFill: { overall: { count: number }; waiting: number };
  clients: { client: string; orders: number; refused: number; rejected: number }[];
  deskLots: string;
  contracts: { lots: string; fills: number }[];
}

/** The API's answer for one chart and filters, as the screen asks for it. */
async function insight(chart: string, q: { from: number; to: number; tz?: string; client?: string; exchange?: string }): Promise<Answer> {
  const params = new URLSearchParams({ from: new Date(q.from).toISOString(), to: new Date(q.to).toISOString(), tz: q.tz ?? 'UTC' });
  if (q.client) params.set('client', q.client);
  if (q.exchange) params.set('exchange', q.exchange);
  const { status, body } = await e2e.api('GET', `/api/insights/${chart}?${params}`, token);
  assert.equal(status, 200, JSON.stringify(body));
  return body as unknown as Answer;
}

const sum = (rows: Record<string, number | string>[], key: string) => rows.reduce((s, r) => s + Number(r[key]), 0);
/** The last 7 days in UTC, as the screen's "Last 7 days" asks for them. */
const week = () => ({ from: utcDayStart(6), to: utcDayStart(-1) });

/** Every total on screen against the API's answers for the same filters. */
async function assertTotals(screen: InsightsScreen, q: Parameters<typeof insight>[1]): Promise<void> {
  await screen.settled();
  const flow = await insight('order-flow', q);
  for (const [figure, key] of [
    ['received', 'received'],
    ['accepted', 'accepted'],
    ['filled', 'filled'],
    ['refused', 'refused'],
    ['rejected', 'rejected'],
  ] as const)
    assert.equal(await screen.total('order-flow', figure), sum(flow.series, key), `order flow ${figure}`);

  const times = await insight('time-to-answer', q);
  assert.equal(await screen.totalText('time-to-answer', 'answered'), `${times.answer.overall.count} · ${times.answer.waiting}`);
  assert.equal(await screen.totalText('time-to-answer', 'filled'), `${times.firstFill.overall.count} · ${times.firstFill.waiting}`);

  const clients = await insight('clients', q);
  assert.equal(
    await screen.total('clients', 'orders'),
    clients.clients.reduce((s, c) => s + c.orders, 0),
  );
  assert.equal(
    await screen.total('clients', 'refused-rejected'),
    clients.clients.reduce((s, c) => s + c.refused + c.rejected, 0),
  );
  assert.equal(await screen.total('clients', 'desk-lots'), Number(clients.deskLots));

  const contracts = await insight('contracts', q);
  assert.equal(await screen.total('contracts', 'contracts'), contracts.contracts.length);
  assert.equal(
    await screen.total('contracts', 'lots'),
    contracts.contracts.reduce((s, c) => s + Number(c.lots), 0),
  );
  assert.equal(
    await screen.total('contracts', 'fills'),
    contracts.contracts.reduce((s, c) => s + c.fills, 0),
  );

  const sessions = await insight('fix-sessions', q);
  for (const key of ['logons', 'refusedLogons', 'disconnects', 'sessionRejects', 'resendRequests'])
    assert.equal(await screen.total('fix-sessions', key), sum(sessions.series, key), `FIX sessions ${key}`);
}

async function openInsights(page: Page): Promise<InsightsScreen> {
  await e2e.signIn(page, 'viewer');
  const screen = new InsightsScreen(page);
  await screen.goto();
  await screen.settled();
  return screen;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('Insights', () => {
  it('is in the main bar after Compliance, for a viewer; the charting library comes with this screen only', async () => {
    await e2e.withPage(async (page) => {
      const scripts: string[] = [];
      page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
      await e2e.signIn(page, 'viewer');
      await new BlotterPage(page).goto();
      const nav = new NavBar(page);
      const entries = await nav.mainNav.locator(':scope > *').allInnerTexts();
      const names = entries.map((t) => t.trim()).filter(Boolean);
      const at = (name: string) => names.findIndex((n) => n.startsWith(name));
      assert.ok(at('Insights') === at('Compliance') + 1, `Insights right after Compliance: ${names.join(' | ')}`);
      assert.deepEqual(
        scripts.filter((s) => /echarts/.test(s)),
        [],
        'the blotter does not load the charting library',
      );
      await nav.link('Insights').click();
      const screen = new InsightsScreen(page);
      await screen.root.waitFor();
      await screen.settled();
      assert.equal(scripts.filter((s) => /\/assets\/echarts-[\w-]+\.js$/.test(s)).length, 1, 'the charting library, in a chunk of its own');
      assert.match(await page.title(), /^Insights\b/);
    });
  });

  it('draws every chart with the API totals for the last 7 days, at both desk sizes', async () => {
    await e2e.withPage(async (page) => {
      const screen = await openInsights(page);
      // The default range: the last 7 days, by day, in UTC (the blotter's zone choice).
      assert.match(await page.getByTestId('insights-range-text').innerText(), /by day, UTC/);
      await assertTotals(screen, week());
      const flow = await insight('order-flow', week());
      assert.ok(sum(flow.series, 'received') >= 30, 'the seed gives the week its orders');
      for (const id of INSIGHT_PANELS) {
        assert.equal(await screen.chart(id).locator('canvas').count(), 1, `${id} drawn on a canvas`);
        assert.equal(await page.getByTestId(`insight-${id}-empty`).count(), 0, `${id} not empty`);
        // Screen readers hear what the chart is and its totals; the table view has the rest.
        const label = (await screen.chart(id).getAttribute('aria-label')) ?? '';
        assert.match(label, /chart: .*Totals: .*The Table view lists every figure\./);
        if (id === 'order-flow') assert.match(label, new RegExp(`Received ${sum(flow.series, 'received')},`));
      }
      await deskScreenshots(page, 'insights-week', { fullPage: true, settleMs: 300, restore: true });
    });
  });

  it('gives exact values in a tooltip, toggles series from the legend, shows the same figures as a table', async () => {
    await e2e.withPage(async (page) => {
      const screen = await openInsights(page);
      const chart = screen.chart('order-flow');
      const box = (await chart.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.6);
      await until(async () => /Received/.test(await chart.innerText()), 'the tooltip');
      const tip = await chart.innerText();
      assert.match(tip, /Received\s+\d+/);
      assert.match(tip, /Rejected by broker\s+\d+/);
      await page.mouse.move(0, 0);

      // The legend: buttons a keyboard reaches; turning a series off redraws the chart without it.
      const received = screen.legendItem('order-flow', 'Received');
      assert.equal(await received.getAttribute('aria-pressed'), 'true');
      await settled(page);
      const before = await chart.screenshot();
      await received.focus();
      await page.keyboard.press('Enter');
      assert.equal(await received.getAttribute('aria-pressed'), 'false');
      await settled(page);
      const without = await chart.screenshot();
      assert.notDeepEqual(without, before, 'the chart changed when Received was turned off');
      await received.click();
      assert.equal(await received.getAttribute('aria-pressed'), 'true');

      // The table: the API's periods, one row each, in a grid a keyboard and a screen reader can use.
      const flow = await insight('order-flow', week());
      await screen.showAs('order-flow', 'Table');
      const table = page.getByTestId('insight-order-flow-table');
      await table.locator('.ag-row').first().waitFor();
      const rowIndexes = await table.locator('.ag-row').evaluateAll((rows) => new Set(rows.map((r) => r.getAttribute('row-index'))).size);
      assert.equal(rowIndexes, flow.series.length);
      assert.ok((await table.getByRole('grid').or(table.getByRole('treegrid')).count()) >= 1, 'a grid role');
      const first = flow.series[0]!;
      const firstRow = table.locator('.ag-row[row-index="0"]');
      assert.equal(await firstRow.locator('[col-id="received"]').innerText(), String(first.received));
      await firstRow.locator('[col-id="period"]').click();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('col-id')), 'received', 'cells are reached by keyboard');

      await screen.showAs('contracts', 'Table');
      await page.getByTestId('insight-contracts-table').locator('.ag-row').first().waitFor();
      await deskScreenshots(page, 'insights-tables', { fullPage: true, settleMs: 300, restore: true });
    });
  });

  it('downloads each chart as CSV (formula-safe, the table columns) and as PNG', async () => {
    await e2e.withPage(async (page) => {
      const screen = await openInsights(page);
      const clients = await insight('clients', week());
      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('insight-clients-csv').click()]);
      assert.match(csv.suggestedFilename(), /^insights_clients_\d{4}-\d{2}-\d{2}_to_\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await downloadText(csv);
      const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true });
      const [header, ...rows] = parsed.data;
      assert.deepEqual(header!.slice(0, 3), ['Client', 'Name', 'Orders']);
      assert.equal(rows.length, clients.clients.length);
      const baltic = rows.find((r) => r[0] === BALTIC)!;
      assert.equal(baltic[1], `'${BALTIC_NAME}`, 'a name a spreadsheet would run is written as text');
      assert.equal(Number(baltic[2]), clients.clients.find((c) => c.client === BALTIC)!.orders);

      const [flowCsv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('insight-order-flow-csv').click()]);
      const flowRows = Papa.parse<string[]>((await downloadText(flowCsv)).trim(), { skipEmptyLines: true }).data;
      assert.deepEqual(flowRows[0], ['Period', 'Received', 'Accepted', 'Filled', 'Refused at intake', 'Rejected by broker']);

      const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('insight-time-to-answer-png').click()]);
      assert.match(png.suggestedFilename(), /^insights_time-to-answer_.*\.png$/);
      const bytes = await readFile((await png.path())!);
      assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
      assert.ok(bytes.length > 10_000, `a drawing, not a blank (${bytes.length} bytes)`);
      await screen.settled();
    });
  });

  it('follows the filters: a client, an exchange, the local zone, a custom range with nothing in it', async () => {
    await e2e.withPage(
      async (page) => {
        const screen = await openInsights(page);
        const all = await screen.total('order-flow', 'received');

        await screen.chooseClient('Straits Shipping Capital (SGX_CLIENT_1)');
        await assertTotals(screen, { ...week(), client: SGX });
        assert.ok((await screen.total('order-flow', 'received')) < all, 'one client has fewer orders than the desk');

        await screen.chooseExchange('EEX');
        await assertTotals(screen, { ...week(), client: SGX, exchange: 'EEX' });
        assert.equal(await screen.total('order-flow', 'received'), 0, 'SGX_CLIENT_1 sent nothing to EEX');
        await page.getByTestId('insight-order-flow-empty').waitFor();

        await page.getByTestId('insights-clients').locator('..').locator('button').last().click(); // clear the clients
        await assertTotals(screen, { ...week(), exchange: 'EEX' });
        assert.ok((await screen.total('order-flow', 'received')) > 0);
        await page.getByTestId('insights-exchange').locator('..').locator('button').last().click();
        await assertTotals(screen, week());

        // The blotter's zone choice: local time is Singapore's here, and a day there starts at 16:00 UTC.
        await page.getByTestId('zone-switch').getByText('Local', { exact: true }).click();
        assert.match(await page.getByTestId('insights-range-text').innerText(), /Asia\/Singapore/);
        const sgt = (daysAgo: number) => utcDayStart(daysAgo, Date.now() + 8 * 3_600_000) - 8 * 3_600_000;
        await until(async () => (await page.getByTestId('insight-order-flow-loading').count()) === 0, 'the Singapore figures');
        await assertTotals(screen, { from: sgt(6), to: sgt(-1), tz: 'Asia/Singapore' });
        await page.getByTestId('zone-switch').getByText('UTC', { exact: true }).click();

        // A custom range long ago: every chart says it has nothing, in its fixed frame.
        const heights = await page.getByTestId('insight-order-flow').evaluate((el) => el.getBoundingClientRect().height);
        await screen.chooseRange('Custom');
        await page.getByTestId('insights-first-day').fill('2020-01-01');
        await page.getByTestId('insights-last-day').fill('2020-01-03');
        await screen.settled();
        for (const id of INSIGHT_PANELS) await page.getByTestId(`insight-${id}-empty`).waitFor();
        assert.equal(await page.getByTestId('insight-order-flow').evaluate((el) => el.getBoundingClientRect().height), heights, 'no jump');
        await deskScreenshots(page, 'insights-empty', { settleMs: 300, restore: true });
      },
      { timezoneId: 'Asia/Singapore' },
    );
  });

  it('shows a chart that fails with its reason and Retry, the others unharmed', async () => {
    await e2e.withPage(async (page) => {
      let fail = true;
      await page.route('**/api/insights/contracts*', (route) =>
        fail
          ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Database unavailable"}' })
          : route.continue(),
      );
      await e2e.signIn(page, 'viewer');
      const screen = new InsightsScreen(page);
      await screen.goto();
      const error = page.getByTestId('insight-contracts-error');
      await error.waitFor();
      assert.match(await error.innerText(), /Database unavailable/);
      await page.getByTestId('insight-order-flow-total-received').waitFor();
      await deskScreenshots(page, 'insights-error', { settleMs: 300, restore: true });
      fail = false;
      await error.getByRole('button', { name: 'Retry' }).click();
      await screen.settled();
      assert.equal(await error.count(), 0);
      assert.equal(await screen.total('contracts', 'contracts'), (await insight('contracts', week())).contracts.length);
    });
  });

  it("moves today's order flow when an order arrives, at most every few seconds", async () => {
    const client = new TestFixClient(SGX);
    await client.connect(e2e.server.fixPort);
    try {
      await e2e.withPage(async (page) => {
        const screen = await openInsights(page);
        await screen.chooseRange('Today');
        await page.getByTestId('insights-live').waitFor();
        assert.match(await page.getByTestId('insights-range-text').innerText(), /by hour/);
        await until(async () => (await page.getByTestId('insight-order-flow-loading').count()) === 0, 'today');
        const today = { from: utcDayStart(0), to: utcDayStart(-1) };
        await assertTotals(screen, today);
        const before = await screen.total('order-flow', 'received');
        const box = (await page.getByTestId('insight-order-flow').boundingBox())!;

        const sent = Date.now();
        await client.send('D', newOrderSingle(`INS-LIVE-${sent}`, { qty: '2', price: '27000' }));
        await client.waitForReport(`INS-LIVE-${sent}`, (m) => m.get(150) === 'A');
        await until(async () => (await screen.total('order-flow', 'received')) === before + 1, 'the live order on the chart');
        const tookMs = Date.now() - sent;
        assert.ok(tookMs < 10_000, `within a few seconds (${tookMs} ms)`);
        await assertTotals(screen, today);
        const moved = (await page.getByTestId('insight-order-flow').boundingBox())!;
        assert.deepEqual([moved.y, moved.height], [box.y, box.height], 'the panel did not move or grow');
        await deskScreenshots(page, 'insights-today', { fullPage: true, settleMs: 300, restore: true });
      });
    } finally {
      await client.stop();
    }
  });
});
