/// <reference lib="dom" />
// The Compliance screens (spec 000 §2 "Order Actions audit screen", "FIX Messages audit screen", §7,
// §8, §9): real orders over FIX and real broker actions, then loading, data, filters, empty and error
// states (the API intercepted), the detail modals and the CSV downloads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import { calendarSpread, newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { ExportDialogPart, FixMessagesScreen, OrderActionsScreen } from './pages/AuditPages';
import { NavBar } from './pages/NavBar';
import { type DeskScreenshotOptions, deskScreenshots, screenshot, settled } from './support/browser';
import { downloadText } from './support/download';
import { readOrderActionsCsv } from '../tests/support/order-actions-csv';
import { E2E } from './support/fixture';

const e2e = new E2E();
let client: TestFixClient;
let brokerOrderId = '';
/** A ClOrdID a spreadsheet would run as a formula if the export did not neutralise it. */
const FORMULA_CLORDID = '=1+2';
const ACCEPT_NOTES = '=HYPERLINK("http://example.invalid","x") checked with the client by phone, ok to work';
const FILL_NOTES = 'Partial, "first clip"\nrest later';

interface ActionRecord {
  id: number;
  action_type: string;
}
interface FixRecord {
  id: number;
  msgtype: string;
  direction: string;
  clordid: string | null;
  raw_fix: string;
}

async function api<T>(token: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(`${e2e.server.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(r.ok, `${path}: ${r.status} ${await r.clone().text()}`);
  return (await r.json()) as T;
}

let brokerToken = '';
let actions: ActionRecord[] = [];
let orderMessage: FixRecord;
let spreadMessage: FixRecord;

before(async () => {
  await e2e.start();
  client = new TestFixClient('SGX_CLIENT_1');
  await client.connect(e2e.server.fixPort);
  await client.send('D', newOrderSingle(FORMULA_CLORDID, { qty: '100', price: '27000' }));
  const ack = await client.waitForReport(FORMULA_CLORDID, (m) => m.get(150) === 'A');
  brokerOrderId = ack.get(37)!;
  brokerToken = await e2e.apiLogin('broker', e2e.server.demoPassword);
  await api(brokerToken, `/api/orders/${brokerOrderId}/accept`, { notes: ACCEPT_NOTES });
  await api(brokerToken, `/api/orders/${brokerOrderId}/fill`, { fillQty: '40', fillPrice: '27000', notes: FILL_NOTES });
  actions = (await api<{ actions: ActionRecord[] }>(brokerToken, '/api/order-actions')).actions;
  const messages = (await api<{ messages: FixRecord[] }>(brokerToken, `/api/fix-messages?clordid=${encodeURIComponent(FORMULA_CLORDID)}`))
    .messages;
  orderMessage = messages.find((m) => m.msgtype === 'D')!;
  assert.ok(orderMessage, 'the D is recorded');
  // A calendar spread (NewOrderMultileg, two legs) at a negative spread price.
  await client.send('AB', calendarSpread('SPREAD-1', { qty: '5', price: '-250' }));
  await client.waitForReport('SPREAD-1', () => true);
  spreadMessage = (await api<{ messages: FixRecord[] }>(brokerToken, '/api/fix-messages?clordid=SPREAD-1&msgType=AB')).messages[0]!;
  assert.ok(spreadMessage, 'the AB is recorded');
});
after(async () => {
  await client?.stop();
  await e2e.stop();
});

const SHOTS: DeskScreenshotOptions = {};

const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('Compliance menu', () => {
  it('lists Order Actions and FIX Messages for any signed-in user, and they open', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const nav = new NavBar(page);
      await nav.menu('Compliance').click();
      const menu = page.getByRole('menu');
      await menu.getByRole('menuitem', { name: /Order Actions/ }).waitFor();
      await menu.getByRole('menuitem', { name: /FIX Messages/ }).click();
      await page.waitForURL((url) => url.pathname === '/fix-messages');
      await new FixMessagesScreen(page).root.waitFor();
    });
  });
});

describe('Order Actions', () => {
  it('shows the loading state, then every action with the spec columns, badges, notes popup and footer', async () => {
    await e2e.withPage(async (page) => {
      // Every column at 1600 px (narrower, the ID and then the Client Order ID give way: loose-ends.e2e.ts).
      await page.setViewportSize({ width: 1600, height: 1000 });
      await e2e.signIn(page, 'viewer');
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/api\/order-actions(\?|$)/, async (route) => {
        await held;
        await route.fallback();
      });
      const screen = new OrderActionsScreen(page);
      await screen.goto();
      await screen.loading.waitFor();
      assert.match((await screen.loading.textContent()) ?? '', /Loading order actions/);
      await screenshot(page, 'order-actions-loading');
      release();
      await screen.waitForFooter(`Showing ${actions.length} of ${actions.length} actions`);
      await screen.info.waitFor();
      const headers = await screen.grid.locator('.ag-header-cell-text').allTextContents();
      assert.deepEqual(headers, [
        'ID',
        'Timestamp',
        'Client',
        'Broker Order ID',
        'Client Order ID',
        'Symbol',
        'Side',
        'Order Qty',
        'Order Price',
        'Action Type',
        'User ID',
        'Fill Qty',
        'Fill Price',
        'Notes',
        'Action Data',
      ]);

      const accept = actions.find((a) => a.action_type === 'ACCEPT')!;
      const fill = actions.find((a) => a.action_type === 'PARTIAL_FILL')!;
      assert.ok(accept && fill, JSON.stringify(actions));
      assert.equal(await screen.cell(accept.id, 'action_type').textContent(), 'ACCEPT');
      assert.equal(await screen.cell(fill.id, 'action_type').textContent(), 'PARTIAL FILL');
      assert.equal(await screen.cell(accept.id, 'side').textContent(), 'Buy');
      assert.equal(await screen.cell(accept.id, 'brokerorderid').innerText(), brokerOrderId);
      assert.equal(await screen.cell(accept.id, 'clordid').innerText(), FORMULA_CLORDID);
      assert.equal(await screen.cell(fill.id, 'fillqty').innerText(), '40');
      assert.equal(await screen.cell(fill.id, 'fillprice').innerText(), '27,000.00');
      // The time in the browser's zone, the zone named.
      assert.match(await screen.cell(accept.id, 'timestamp').innerText(), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \S+/);
      // The client: logo (or initials) and company name.
      const client = screen.cell(accept.id, 'client');
      assert.ok((await client.innerText()).trim().length > 0);
      assert.ok((await client.locator('img, .mantine-Avatar-root').count()) > 0, 'a logo or initials');

      // Notes cut at 30 characters, the full text in a popup on hover.
      const truncated = screen.cell(accept.id, 'notes').getByTestId('notes-truncated');
      assert.equal(await truncated.innerText(), `${ACCEPT_NOTES.slice(0, 30)}...`);
      const popup = page.getByTestId('notes-popup');
      const hoverNotes = async () => {
        await page.mouse.move(5, 5);
        await popup.waitFor({ state: 'hidden' });
        await truncated.hover();
        await popup.waitFor();
        await settled(page); // the popup's fade-in
      };
      await hoverNotes();
      assert.match(await popup.innerText(), /checked with the client by phone, ok to work/);
      await deskScreenshots(page, 'order-actions-notes-popup', { ...SHOTS, prepare: hoverNotes });
      await page.mouse.move(5, 5);
      await popup.waitFor({ state: 'hidden' });
      await screen.grid.locator('.ag-body-horizontal-scroll-viewport').evaluate((el) => el.scrollTo({ left: 0 }));
      await deskScreenshots(page, 'order-actions', SHOTS);
    });
  });

  it('filters on ids, symbol, action type, user, notes and buy/sell, with the no-match state', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const screen = new OrderActionsScreen(page);
      await screen.goto();
      const total = actions.length;
      await screen.waitForFooter(`Showing ${total} of ${total} actions`);
      await screen.filter.fill('partial');
      await screen.waitForFooter(`Showing 1 of ${total} actions`);
      await screen.filter.fill('hyperlink');
      await screen.waitForFooter(`Showing 1 of ${total} actions`);
      await screen.filter.fill('buy');
      await screen.waitForFooter(`Showing ${total} of ${total} actions`);
      await screen.filter.fill('sell');
      await screen.waitForFooter(`Showing 0 of ${total} actions`);
      await screen.empty.waitFor();
      assert.match(await screen.empty.innerText(), /No Matching Order Actions/);
      await deskScreenshots(page, 'order-actions-no-match', SHOTS);
      await screen.filter.fill(brokerOrderId.toLowerCase());
      await screen.waitForFooter(`Showing ${total} of ${total} actions`);
    });
  });

  it('opens the action data as JSON', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const screen = new OrderActionsScreen(page);
      await screen.goto();
      const fill = actions.find((a) => a.action_type === 'PARTIAL_FILL')!;
      await screen.cell(fill.id, 'action_data').getByRole('button', { name: 'View JSON' }).click();
      await screen.jsonModal.waitFor();
      const json = JSON.parse(await page.getByTestId('action-json').innerText()) as Record<string, unknown>;
      assert.ok(Object.keys(json).length > 0, 'the action data');
      await deskScreenshots(page, 'order-actions-json-modal', SHOTS);
      await page.keyboard.press('Escape');
      await screen.jsonModal.waitFor({ state: 'hidden' });
    });
  });

  it('exports the last 30 days by default as order_actions_{start}_to_{end}.csv, escaped and neutralised', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const screen = new OrderActionsScreen(page);
      await screen.goto();
      await screen.waitForFooter(`Showing ${actions.length} of ${actions.length} actions`);
      await screen.exportButton.click();
      const dialog = new ExportDialogPart(page);
      await dialog.root.waitFor();
      const today = new Date();
      const start = localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 30));
      assert.equal(await dialog.start.inputValue(), start);
      assert.equal(await dialog.end.inputValue(), localDay(today));
      await deskScreenshots(page, 'order-actions-export-dialog', SHOTS);
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.submit.click()]);
      assert.equal(download.suggestedFilename(), `order_actions_${start}_to_${localDay(today)}.csv`);
      const { rows: body, cell } = readOrderActionsCsv(await downloadText(download));
      assert.equal(body.length, actions.length);
      const acceptRow = body.find((r) => cell(r, 'Action Type') === 'ACCEPT')!;
      const fillRow = body.find((r) => cell(r, 'Action Type') === 'PARTIAL_FILL')!;
      // '=' cells neutralised (OWASP): the ClOrdID and the notes start with '.
      assert.equal(cell(acceptRow, 'Client Order ID'), `'${FORMULA_CLORDID}`);
      assert.equal(cell(acceptRow, 'Notes'), `'${ACCEPT_NOTES}`);
      // Quotes, commas and newlines survive the round trip; times are ISO 8601 UTC.
      assert.equal(cell(fillRow, 'Notes'), FILL_NOTES);
      assert.match(cell(acceptRow, 'Timestamp (UTC)')!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(cell(fillRow, 'Fill Qty'), '40');
      assert.doesNotThrow(() => JSON.parse(cell(fillRow, 'Action Data')!));
      // The quoted form in the file itself.
      const raw = await downloadText(download);
      assert.ok(raw.includes(`"'${FORMULA_CLORDID}"`), 'the neutralised cell is quoted');
    });
  });

  it('shows administrators who looked: the export of a viewer is there; a viewer has no such button', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      await new OrderActionsScreen(page).goto();
      await page.getByTestId('order-actions-export').waitFor();
      assert.equal(await page.getByTestId('who-looked').count(), 0, 'not offered to a viewer');
    });
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'admin');
      await new OrderActionsScreen(page).goto();
      await page.getByTestId('who-looked').click();
      const modal = page.getByTestId('who-looked-modal');
      await modal.getByTestId('who-looked-grid').locator('.ag-row[row-id]').first().waitFor();
      const text = await modal.innerText();
      assert.match(text, /Exported order actions/);
      assert.match(text, /viewer/);
      await deskScreenshots(page, 'order-actions-who-looked', SHOTS);
    });
  });

  it('shows No Order Actions Found, and Error Loading Order Actions with Retry', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      await page.route(/\/api\/order-actions(\?|$)/, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: true, actions: [] }) }),
      );
      const screen = new OrderActionsScreen(page);
      await screen.goto();
      await screen.empty.waitFor();
      assert.match(await screen.empty.innerText(), /No Order Actions Found/);
      assert.equal(await screen.footer.textContent(), 'Showing 0 of 0 actions');
      await deskScreenshots(page, 'order-actions-empty', SHOTS);

      await page.unroute(/\/api\/order-actions(\?|$)/);
      await page.route(/\/api\/order-actions(\?|$)/, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
      );
      await page.reload();
      await screen.error.waitFor();
      assert.match(await screen.error.innerText(), /Error Loading Order Actions/);
      assert.match(await screen.error.innerText(), /HTTP error! status: 500/);
      await deskScreenshots(page, 'order-actions-error', SHOTS);
      await page.unroute(/\/api\/order-actions(\?|$)/);
      await screen.error.getByRole('button', { name: 'Retry' }).click();
      await screen.waitForFooter(`Showing ${actions.length} of ${actions.length} actions`);
    });
  });
});

describe('FIX Messages', () => {
  it('shows loading, then messages newest first with direction badges, friendly msg types and the switches', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/api\/fix-messages\?/, async (route) => {
        await held;
        await route.fallback();
      });
      const screen = new FixMessagesScreen(page);
      await screen.goto();
      await screen.loading.waitFor();
      release();
      await screen.grid.waitFor();
      await screen.row(orderMessage.id).waitFor();
      assert.equal(await screen.ignoreHeartbeats.isChecked(), true);
      assert.equal(await screen.ignoreSessionMessages.isChecked(), false);
      const headers = await screen.grid.locator('.ag-header-cell-text').allTextContents();
      assert.deepEqual(headers, [
        'ID',
        'TransactTime',
        'Direction',
        'Msg Type',
        'Seq Num',
        'Sender',
        'Target',
        'Client Order ID',
        'Broker Order ID',
        'View Raw',
      ]);
      assert.equal(await screen.cell(orderMessage.id, 'msgtype').innerText(), 'D · New Order Single');
      assert.equal(await screen.cell(orderMessage.id, 'direction').innerText(), 'RX');
      const colour = (el: Element) => getComputedStyle(el).color;
      const rx = await screen.cell(orderMessage.id, 'direction').getByTestId('direction-badge').evaluate(colour);
      const txId = (await api<{ messages: FixRecord[] }>(brokerToken, '/api/fix-messages?direction=TX')).messages[0]!.id;
      const tx = await screen.cell(txId, 'direction').getByTestId('direction-badge').evaluate(colour);
      const [rr, rg, rb] = rx.match(/\d+/g)!.map(Number);
      const [tr, tg, tb] = tx.match(/\d+/g)!.map(Number);
      assert.ok(rb! > rr! && rb! > rg!, `RX blue: ${rx}`);
      assert.ok(tg! > tr! && tg! > tb!, `TX green: ${tx}`);
      // The table scrolls inside 400 px.
      const box = await screen.grid.boundingBox();
      assert.ok(box && box.height <= 400, `grid height ${box?.height}`);
      await deskScreenshots(page, 'fix-messages', SHOTS);

      // Session messages (Logon) go when asked; heartbeats stay hidden.
      const before = await screen.rowIds();
      const logon = (await api<{ messages: FixRecord[] }>(brokerToken, '/api/fix-messages?msgType=A')).messages[0]!;
      assert.ok(before.includes(logon.id), 'the Logon is listed');
      await screen.ignoreSessionMessages.check();
      await screen.row(logon.id).waitFor({ state: 'detached' });
      await screen.row(orderMessage.id).waitFor();
    });
  });

  it('filters on ClOrdID, sender, target, msg type and direction', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const screen = new FixMessagesScreen(page);
      await screen.goto();
      await screen.row(orderMessage.id).waitFor();
      const ofOrder = (
        await api<{ messages: FixRecord[] }>(brokerToken, `/api/fix-messages?clordid=${encodeURIComponent(FORMULA_CLORDID)}`)
      ).messages.length;
      await screen.filter.fill(FORMULA_CLORDID);
      await page.waitForFunction(
        (n) =>
          new RegExp(`^Showing ${n} of \\d+ messages$`).test(
            document.querySelector('[data-testid="fix-messages-footer"]')?.textContent ?? '',
          ),
        ofOrder,
      );
      await screen.filter.fill('new order single');
      await screen.row(orderMessage.id).waitFor();
      await screen.filter.fill('no-such-thing');
      await screen.empty.waitFor();
      assert.match(await screen.empty.innerText(), /No Matching FIX Messages/);
    });
  });

  it("opens a message: raw with SOH as '|', Copy Message, the dictionary's fields with party labels, sections and legs", async () => {
    await e2e.withPage(async (page, context) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.baseUrl });
      await e2e.signIn(page, 'viewer');
      const screen = new FixMessagesScreen(page);
      await screen.goto();
      await screen.cell(orderMessage.id, 'raw').getByRole('button', { name: 'View Raw' }).click();
      await screen.modal.waitFor();
      const raw = await page.getByTestId('raw-message').innerText();
      assert.equal(raw, orderMessage.raw_fix.replaceAll('\x01', '|'));
      await page.getByTestId('parsed-fields').waitFor();
      const row = (tag: number) => page.locator(`[data-testid="parsed-field"][data-tag="${tag}"]`).first();
      assert.match(await row(11).innerText(), /ClOrdID/);
      assert.match(await row(11).innerText(), /STRING/);
      assert.equal(await row(11).getByTestId('required-icon').count(), 1);
      assert.match(await row(54).innerText(), /BUY/);
      assert.equal(await row(448).getByTestId('group-label').innerText(), 'Party 1');
      for (const s of ['header', 'body', 'trailer']) await page.getByTestId(`section-${s}`).waitFor();
      await deskScreenshots(page, 'fix-messages-detail', SHOTS);

      const copy = page.getByTestId('copy-message');
      await copy.click();
      await page.getByTestId('copy-message').getByText('Copied!').waitFor();
      const clip = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(clip, raw);
      await page.getByTestId('copy-message').getByText('Copy Message').waitFor({ timeout: 3000 });

      await screen.modal.getByRole('tab', { name: 'Legs' }).click();
      await page.getByTestId('legs-notice').getByText('No legs to display').waitFor();
    }, {});
  });

  it('lists the legs of a multileg order, each leg labelled', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const screen = new FixMessagesScreen(page);
      await screen.goto();
      await screen.cell(spreadMessage.id, 'raw').getByRole('button', { name: 'View Raw' }).click();
      await page.getByTestId('parsed-fields').waitFor();
      const legLabels = await page.locator('[data-testid="parsed-field"][data-tag="600"]').getByTestId('group-label').allInnerTexts();
      assert.deepEqual(legLabels, ['Leg 1', 'Leg 2']);
      await screen.modal.getByRole('tab', { name: 'Legs' }).click();
      const legs = page.getByTestId('legs-table');
      await legs.waitFor();
      const rows = await legs.locator('tbody tr').allInnerTexts();
      assert.equal(rows.length, 2);
      assert.match(rows[0]!, /Leg 1\s+C5TC\s+FUT\s+\d{6}\s+1 \(Buy\)\s+1/);
      assert.match(rows[1]!, /Leg 2\s+C5TC\s+FUT\s+\d{6}\s+2 \(Sell\)\s+1/);
      await deskScreenshots(page, 'fix-messages-detail-legs', SHOTS);
    });
  });

  it('shows the notices: No Message Data, No FIX message data to parse, Unable to parse fields from FIX message', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const real = (await api<{ messages: FixRecord[] }>(brokerToken, '/api/fix-messages')).messages;
      const blank = { ...real[0]!, id: 990001, raw_fix: '' };
      const unreadable = { ...real[0]!, id: 990002 };
      await page.route(/\/api\/fix-messages\?/, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ success: true, messages: [blank, unreadable] }),
        }),
      );
      await page.route(/\/api\/fix-messages\/990002\/parsed/, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({
            success: true,
            data: { id: 990002, msgType: 'D', msgName: null, fields: [], problem: 'Not a readable FIX message: empty message' },
          }),
        }),
      );
      const screen = new FixMessagesScreen(page);
      await screen.goto();
      await screen.cell(990001, 'raw').getByRole('button', { name: 'View Raw' }).click();
      await page.getByTestId('raw-notice').getByText('No Message Data').waitFor();
      await page.getByTestId('parse-notice').getByText('No FIX message data to parse').waitFor();
      await settled(page); // the modal's fade-in
      await screenshot(page, 'fix-messages-detail-no-data');
      await page.keyboard.press('Escape');
      await screen.modal.waitFor({ state: 'hidden' });
      await screen.cell(990002, 'raw').getByRole('button', { name: 'View Raw' }).click();
      await page.getByTestId('parse-notice').getByText('Unable to parse fields from FIX message').waitFor();
    });
  });

  it('exports fix_messages_{start}_to_{end}.csv with the raw messages and neutralised cells; a failed export says why', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      const screen = new FixMessagesScreen(page);
      await screen.goto();
      await screen.row(orderMessage.id).waitFor();
      await screen.exportButton.click();
      const dialog = new ExportDialogPart(page);
      await dialog.root.waitFor();
      const today = new Date();
      const start = localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 30));
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.submit.click()]);
      assert.equal(download.suggestedFilename(), `fix_messages_${start}_to_${localDay(today)}.csv`);
      const [head, ...body] = Papa.parse<string[]>(await downloadText(download), { skipEmptyLines: true }).data;
      assert.deepEqual(head, [
        'ID',
        'TransactTime (UTC)',
        'Direction',
        'Msg Type',
        'Seq Num',
        'Sender',
        'Target',
        'Client Order ID',
        'Broker Order ID',
        'Raw Message',
      ]);
      const d = body.find((r) => r[0] === String(orderMessage.id))!;
      assert.ok(d, 'the D is exported');
      assert.equal(d[7], `'${FORMULA_CLORDID}`);
      assert.equal(d[9], orderMessage.raw_fix.replaceAll('\x01', '|'));
      assert.ok(
        body.every((r) => r[3] !== '0 · Heartbeat'),
        'heartbeats left out by default',
      );

      await page.route(/\/api\/fix-messages\/export/, (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"database unavailable"}' }),
      );
      await screen.exportButton.click();
      await dialog.root.waitFor();
      await dialog.submit.click();
      const toast = page.locator('.mantine-Notification-root', { hasText: 'Export failed: Failed to export FIX messages: 503' });
      await toast.waitFor();
      await deskScreenshots(page, 'fix-messages-export-failed', SHOTS);
    });
  });

  it('shows No FIX Messages Found, and Error Loading FIX Messages with Retry', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer');
      await page.route(/\/api\/fix-messages\?/, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":true,"messages":[]}' }),
      );
      const screen = new FixMessagesScreen(page);
      await screen.goto();
      await screen.empty.waitFor();
      assert.match(await screen.empty.innerText(), /No FIX Messages Found/);
      await page.unroute(/\/api\/fix-messages\?/);
      await page.route(/\/api\/fix-messages\?/, (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
      await page.reload();
      await screen.error.waitFor();
      assert.match(await screen.error.innerText(), /Error Loading FIX Messages/);
      assert.match(await screen.error.innerText(), /HTTP error! status: 502/);
      await deskScreenshots(page, 'fix-messages-error', SHOTS);
      await page.unroute(/\/api\/fix-messages\?/);
      await screen.error.getByRole('button', { name: 'Retry' }).click();
      await screen.row(orderMessage.id).waitFor();
    });
  });
});
