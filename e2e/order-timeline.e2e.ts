/// <reference lib="dom" />
// Beyond the spec: an order's whole story on the order detail page and in the blotter's Order
// Info (FIX messages, state changes and actions in time order, each opening its raw message), and
// orders refused at intake on the blotter as Rejected with their reason, hideable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { BlotterPage } from './pages/BlotterPage';
import { type DeskScreenshotOptions, deskScreenshots } from './support/browser';
import { E2E } from './support/fixture';

const e2e = new E2E();
let client: TestFixClient;
let brokerOrderId = '';
let refusedId = 0;

async function api<T>(token: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(`${e2e.server.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(r.ok, `${path}: ${r.status} ${await r.clone().text()}`);
  return (await r.json()) as T;
}

const SHOTS: DeskScreenshotOptions = {};

/** A drop copy session of the client's reports, never logged on here: every copy waits for it. */
const MIDDLE_OFFICE = 'TL_MIDDLE_OFFICE';

before(async () => {
  await e2e.start();
  const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
  const made = await e2e.api('POST', '/api/client-connectors', admin, {
    comp_id: MIDDLE_OFFICE,
    execution_id_prefix: 'TLM',
    client_name: 'Timeline middle office',
    session_type: 'drop_copy',
    drop_copy_of: ['SGX_CLIENT_1'],
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  client = new TestFixClient('SGX_CLIENT_1');
  await client.connect(e2e.server.fixPort);
  await client.send('D', newOrderSingle('TL-E2E-1', { qty: '100', price: '27000' }));
  const ack = await client.waitForReport('TL-E2E-1', (m) => m.get(150) === 'A');
  brokerOrderId = ack.get(37)!;
  const broker = await e2e.apiLogin('broker', e2e.server.demoPassword);
  await api(broker, `/api/orders/${brokerOrderId}/accept`, { notes: 'Checked the credit line with the client' });
  await api(broker, `/api/orders/${brokerOrderId}/fill`, { fillQty: '40', fillPrice: '27000', notes: 'first clip' });
  // Two refusals at intake: an unknown symbol and a duplicate of the order above.
  await client.send('D', newOrderSingle('TL-E2E-BAD', { symbol: 'NOSUCH', qty: '10', price: '100' }));
  await client.waitForReport('TL-E2E-BAD', (m) => m.get(150) === '8');
  await client.send('D', newOrderSingle('TL-E2E-1', { qty: '5', price: '26000' }));
  await client.waitForReport('TL-E2E-1', (m) => m.get(150) === '8');
  const refused = await api<Array<{ id: number; clordid: string }>>(broker, '/api/orders?refused=only&includeExecReports=false');
  refusedId = refused.find((o) => o.clordid === 'TL-E2E-BAD')!.id;
});
after(async () => {
  await client?.stop();
  await e2e.stop();
});

describe('order timeline', () => {
  it('tells the whole story on the order detail page, in the user zone to the microsecond, each line opening its message', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker');
      await page.goto(`/order-detail/${brokerOrderId}`);
      const timeline = page.getByTestId('order-timeline');
      await timeline.waitFor();
      const titles = await timeline.getByTestId('timeline-title').allTextContents();
      assert.ok(
        titles.some((t) => /NewOrderSingle|New Order/i.test(t)),
        titles.join(' | '),
      );
      assert.ok(titles.includes('ACCEPT') && titles.includes('PARTIAL FILL'), titles.join(' | '));
      assert.ok(
        titles.some((t) => t.includes('→ Partially Filled')),
        titles.join(' | '),
      );
      // Each report's copy for the drop copy session, waiting for its logon.
      const text = (await timeline.textContent()) ?? '';
      assert.ok(text.includes(`Copy to ${MIDDLE_OFFICE}: waiting`), text);
      const time = (await timeline.getByTestId('timeline-time').first().textContent()) ?? '';
      assert.match(time, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3,6} \S+/);
      assert.match((await page.getByTestId('timeline-zone').textContent()) ?? '', /times in /);
      await deskScreenshots(page, 'order-timeline-detail', SHOTS);
      // An action's link opens the FIX message detail of the report it sent.
      await timeline.locator('[data-testid="timeline-entry"][data-kind="action"]').first().getByTestId('timeline-raw').click();
      const modal = page.getByRole('dialog');
      await modal.waitFor();
      await modal.getByText('35=8').first().waitFor();
      await deskScreenshots(page, 'order-timeline-message', SHOTS);
    });
  });

  it('is a section of the blotter Order Info', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker');
      const blotter = new BlotterPage(page);
      await blotter.goto();
      await blotter.select(brokerOrderId);
      const section = page.getByTestId('order-timeline-section');
      await section.getByRole('button', { name: /Timeline/ }).click();
      await section.getByTestId('order-timeline').waitFor();
      assert.ok((await section.getByTestId('timeline-entry').count()) >= 7);
      await section.scrollIntoViewIfNeeded();
      await deskScreenshots(page, 'order-timeline-blotter', SHOTS);
    });
  });
});

describe('orders refused at intake', () => {
  it('are on the blotter as Rejected at intake with their reason, can be hidden, and open with their story', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker');
      const blotter = new BlotterPage(page);
      await blotter.goto();
      const row = blotter.ordersGrid.locator('.ag-row', { hasText: 'TL-E2E-BAD' });
      await row.waitFor();
      assert.match((await row.locator('[col-id="status"]').textContent()) ?? '', /Rejected\s*Unknown symbol/);
      assert.match(
        (await row.locator('[col-id="status"] .fd-status').getAttribute('title')) ?? '',
        /Unknown symbol \(1\)\. Unknown symbol NOSUCH/,
      );
      assert.match((await row.locator('[col-id="brokerorderid"]').textContent()) ?? '', /Refused at intake/);
      const dup = blotter.ordersGrid.locator('.ag-row', { hasText: 'Duplicate order' });
      await dup.waitFor();
      await deskScreenshots(page, 'refused-blotter', SHOTS);
      await row.locator('[col-id="side"]').click();
      await page.locator('[data-testid="order-info"][data-refused="true"]').waitFor();
      const refusal = page.getByTestId('refusal');
      assert.match((await refusal.textContent()) ?? '', /Unknown symbol \(1\)/);
      await page.getByTestId('order-timeline').waitFor();
      await deskScreenshots(page, 'refused-order-info', SHOTS);
      await page.getByTestId('show-refused').uncheck();
      await row.waitFor({ state: 'detached' });
      assert.equal(await blotter.ordersGrid.locator('.ag-row', { hasText: brokerOrderId }).count(), 1, 'the accepted order stays');
      await page.getByTestId('show-refused').check();
      await row.waitFor();

      // One refused while the blotter is open shows as it happens, without a reload.
      await client.send('D', newOrderSingle('TL-E2E-LIVE', { symbol: 'NOSUCH2', qty: '10', price: '100' }));
      await client.waitForReport('TL-E2E-LIVE', (m) => m.get(150) === '8');
      const live = blotter.ordersGrid.locator('.ag-row', { hasText: 'TL-E2E-LIVE' });
      // The grid draws a new row's cells a frame after the row: wait for its status cell's text.
      await live.locator('[col-id="status"]', { hasText: 'Rejected' }).waitFor();
      assert.match((await live.locator('[col-id="status"]').textContent()) ?? '', /Rejected\s*Unknown symbol/);
      await deskScreenshots(page, 'refused-blotter-live', SHOTS);
    });
  });

  it('the order detail page opens a refused order by its id', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      await page.goto(`/order-detail/${refusedId}`);
      await page.getByTestId('refusal').waitFor();
      // The timeline loads after the order: wait for its first line before reading them all.
      await page.getByTestId('order-timeline').getByTestId('timeline-title').first().waitFor();
      const titles = await page.getByTestId('order-timeline').getByTestId('timeline-title').allTextContents();
      assert.ok(
        titles.some((t) => t.startsWith('Refused at intake')),
        titles.join(' | '),
      );
      // The refusal was copied too (it has no report row: its copy carries its facts).
      const text = (await page.getByTestId('order-timeline').textContent()) ?? '';
      assert.ok(text.includes(`Copy to ${MIDDLE_OFFICE}: waiting`), text);
      await deskScreenshots(page, 'refused-order-detail', SHOTS);
    });
  });
});
