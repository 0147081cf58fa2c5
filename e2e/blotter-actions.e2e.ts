/// <reference lib="dom" />
// What was wrong or misleading: the accept message reaches the client, irreversible actions are
// confirmed with what they do, each action ends with a toast, the broker can cancel an order, a guarded
// route says why it sent the user home, and the blotter meets no live message it does not know.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { buildNewOrderSingle, contractMonthOptions, serializeFixMessage } from '@fixdesk/domain';
import { ts } from '../tests/support/fix-client';
import { DESK_SIZES, deskScreenshots, screenshot } from './support/browser';
import { blotterDesk } from './support/blotter-desk';
import { downloadText } from './support/download';
import Papa from 'papaparse';

const { e2e, client, signInToBlotter, sendOrder, apiCall } = blotterDesk('ACT');

/** A mouse drag as a broker makes it: from the middle of `from` to `to`'s left edge (or from where it started) plus dx, in steps. */
async function dragBy(page: Page, from: Locator, to: Locator | null, dx: number): Promise<void> {
  const a = (await from.boundingBox())!;
  const [x, y] = [a.x + a.width / 2, a.y + a.height / 2];
  const targetX = to ? (await to.boundingBox())!.x + dx : x + dx;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + Math.sign(targetX - x) * 5, y, { steps: 2 });
  await page.mouse.move(targetX, y, { steps: 10 });
  await page.mouse.up();
}

const toast = (page: Page, title: string) => page.locator('.mantine-Notification-root', { hasText: title });

describe('blotter: safe actions', () => {
  it('sends the accept message to the client as Text (58) and shows it in the executions and the history', async () => {
    await e2e.withPage(async (page) => {
      const blotter = await signInToBlotter(page);
      const { clOrdId, id } = await sendOrder({ qty: '4', price: '27000' }, 'MSG');
      await blotter.select(id);
      await blotter.info.root.getByRole('textbox', { name: 'Message to client (optional)' }).fill('Working it now, expect fills by noon');
      await blotter.info.accept.click();
      const accepted = await client.waitForReport(clOrdId, (m) => m.get(150) === '0');
      assert.equal(accepted.get(58), 'Working it now, expect fills by noon');
      await toast(page, 'Order accepted').waitFor();
      await blotter.executionsGrid.locator('.ag-row [col-id="text"]', { hasText: 'Working it now, expect fills by noon' }).waitFor();
      await blotter.info.root.getByTestId('order-history').getByRole('button').click();
      await blotter.info.root.getByTestId('history-note').getByText('Working it now, expect fills by noon').waitFor();
      await screenshot(page, 'blotter-accept-message');
    });
  });

  it('confirms Done for Day with what it ends (15 of 20 lots), and nothing happens on Go back', async () => {
    await e2e.withPage(async (page) => {
      const blotter = await signInToBlotter(page);
      const { clOrdId, id } = await sendOrder({ qty: '20', price: '27000' }, 'DFD');
      await blotter.acceptButton(id).click();
      await blotter.statusCell(id).getByText('Accepted').waitFor();
      await blotter.select(id);
      await blotter.info.fill('5', '27000');
      await client.waitForReport(clOrdId, (m) => m.get(39) === '1');
      await toast(page, 'Fill booked').waitFor();
      await blotter.info.doneForDay.click();
      await page.getByTestId('confirm-summary').waitFor();
      await screenshot(page, 'blotter-confirm-done-for-day');
      const summary = await blotter.confirm('back');
      assert.match(summary, /Ends the order: 15 lots unfilled will not be worked \(5 of 20 filled\)/);
      await page.waitForTimeout(300);
      assert.equal(client.received.filter((m) => m.get(11) === clOrdId && m.get(150) === '3').length, 0, 'Go back sends nothing');
      await blotter.info.doneForDay.click();
      await blotter.confirm();
      await client.waitForReport(clOrdId, (m) => m.get(150) === '3');
      await toast(page, 'Order done for day').waitFor();
      await blotter.statusCell(id).getByText('Done').waitFor();
      await blotter.info.root
        .getByTestId('no-action')
        .getByText('Done for Day: the order is closed. Its executions and history stay below.')
        .waitFor();
    });
  });

  it('cancels an accepted order for the broker: confirmed, 150=4 with the reason, audited', async () => {
    const broker = await e2e.apiLogin('broker', e2e.server.demoPassword);
    await e2e.withPage(async (page) => {
      const blotter = await signInToBlotter(page);
      const { clOrdId, id } = await sendOrder({ qty: '6', price: '27000' }, 'BCX');
      await blotter.acceptButton(id).click();
      await blotter.statusCell(id).getByText('Accepted').waitFor();
      await blotter.select(id);
      await blotter.info.root.getByRole('button', { name: 'Cancel order…' }).click();
      const cancel = blotter.info.root.getByTestId('broker-cancel');
      const button = cancel.getByRole('button', { name: 'Cancel Order' });
      assert.equal(await button.isDisabled(), true, 'a reason is required');
      await cancel.getByRole('textbox', { name: 'Cancel reason (sent to the client)' }).fill('Client asked by phone to pull it');
      await button.click();
      assert.match(
        await blotter.confirm(),
        /Ends the order: 6 lots unfilled will not be worked\. The client gets Canceled \(150=4\) with the reason “Client asked by phone to pull it”/,
      );
      const canceled = await client.waitForReport(clOrdId, (m) => m.get(150) === '4');
      assert.deepEqual([canceled.get(39), canceled.get(58), canceled.get(151)], ['4', 'Client asked by phone to pull it', '0']);
      await toast(page, 'Order canceled').waitFor();
      await blotter.statusCell(id).getByText('Canceled').waitFor();
      const actions = (await (await apiCall(broker, `/api/order-actions?brokerorderid=${id}`)).json()) as
        | { actions?: Array<{ action_type: string; notes: string | null; user_id: string }> }
        | Array<{ action_type: string; notes: string | null; user_id: string }>;
      const list = Array.isArray(actions) ? actions : (actions.actions ?? []);
      const audit = list.find((a) => a.action_type === 'CANCEL');
      assert.deepEqual(audit && { notes: audit.notes, user: audit.user_id }, { notes: 'Client asked by phone to pull it', user: 'broker' });
      await screenshot(page, 'blotter-broker-canceled');
    });
  });

  it('says what the broker can do on a Pending Replace order not accepted yet', async () => {
    await e2e.withPage(async (page) => {
      const blotter = await signInToBlotter(page);
      const { clOrdId, id } = await sendOrder({ qty: '3', price: '27000' }, 'PRP');
      await client.send('G', [
        [11, `${clOrdId}-R`],
        [37, id],
        [38, '5'],
        [40, '2'],
        [41, clOrdId],
        [44, '26900'],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      await client.waitForReport(`${clOrdId}-R`, (m) => m.get(150) === 'E');
      await blotter.select(id);
      await blotter.info.pendingRequest.waitFor();
      const text = await blotter.info.root.getByTestId('no-action').textContent();
      assert.equal(
        text,
        "Pending Replace: decide the client's request above (Confirm or Refuse, with a reason). The order can be worked again once it is decided.",
      );
      await screenshot(page, 'blotter-pending-replace');
    });
  });

  it('tells a broker who opens User Management why they were sent home', async () => {
    await e2e.withPage(async (page) => {
      await signInToBlotter(page);
      await page.goto('/config/user-management');
      await page.waitForURL((url) => url.pathname === '/');
      assert.equal(await page.getByTestId('route-forbidden').textContent(), 'You need the admin role to open User Management.');
      await screenshot(page, 'landing-route-forbidden');
    });
  });

  it('meets no live message it has no handler for (the FIX client simulator runs meanwhile)', async () => {
    const broker = await e2e.apiLogin('broker', e2e.server.demoPassword);
    await e2e.withPage(async (page) => {
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (/live: /.test(m.text())) warnings.push(m.text());
      });
      const blotter = await signInToBlotter(page);
      const connected = await apiCall(broker, '/test-client/EEX_CLIENT_1/connect', {});
      assert.equal(connected.status, 200, await connected.clone().text());
      try {
        const before = await blotter.orderCount();
        const built = buildNewOrderSingle(
          {
            symbol: 'C5TC',
            contractMonth: contractMonthOptions(new Date())[2]!.value,
            side: '1',
            quantity: 2,
            orderType: '2',
            price: 27000,
            clOrdId: 'ACT-SIM-1',
          },
          {
            client: { compId: 'EEX_CLIENT_1', targetCompId: 'FIXDESK', clientName: 'EEX client', clientLei: '', clientContact: '' },
            now: new Date(),
            msgSeqNum: 1,
          },
        );
        const order = await apiCall(broker, '/test-client/EEX_CLIENT_1/send-order', { fixMessage: serializeFixMessage(built.fields) });
        assert.equal(order.status, 200, await order.clone().text());
        await page.waitForFunction(
          (n) => Number(/\((\d+)\)/.exec(document.querySelector('[data-testid="orders-title"]')?.textContent ?? '')?.[1]) > n,
          before,
        );
        const row = blotter.ordersGrid.locator('.ag-row', { hasText: 'ACT-SIM-1' });
        await row.locator('button.fd-accept').click();
        await row.getByText('Accepted').waitFor();
        await page.waitForTimeout(500);
        assert.deepEqual(warnings, [], 'no live warnings in the console');
      } finally {
        await apiCall(broker, '/test-client/EEX_CLIENT_1/disconnect', {});
      }
    });
  });

  it('filters the orders by any text and to working orders only, and opens an order on its own page by double-click', async () => {
    await e2e.withPage(async (page, context) => {
      await page.setViewportSize(DESK_SIZES[0]);
      const blotter = await signInToBlotter(page);
      const working = await sendOrder({ qty: '3', price: '27000' }, 'FLTW');
      const closed = await sendOrder({ qty: '3', price: '27000' }, 'FLTC');
      await blotter.select(closed.id);
      await blotter.info.rejectReason.fill('Not today');
      await blotter.info.reject.click();
      await blotter.confirm();
      await blotter.statusCell(closed.id).getByText('Rejected').waitFor();

      await page.getByTestId('quick-filter').fill(working.clOrdId.toLowerCase());
      await screenshot(page, 'blotter-quick-filter');
      await blotter.row(closed.id).waitFor({ state: 'detached' });
      await blotter.row(working.id).waitFor();
      assert.equal(await blotter.ordersGrid.locator('.ag-row', { hasText: 'FLTC' }).count(), 0, 'only the matching order');
      await page.getByTestId('quick-filter').fill('');
      await blotter.row(closed.id).waitFor();
      await page.getByTestId('working-only').check();
      await blotter.row(closed.id).waitFor({ state: 'detached' });
      await blotter.row(working.id).waitFor();
      await deskScreenshots(page, 'blotter-filters');
      // Accepted is still working: the row stays while the filter is on.
      await blotter.acceptButton(working.id).click();
      await blotter.statusCell(working.id).getByText('Accepted').waitFor();
      await page.getByTestId('working-only').uncheck();

      const [popup] = await Promise.all([context.waitForEvent('page'), blotter.row(working.id).locator('[col-id="symbol"]').dblclick()]);
      await popup.waitForURL((url) => url.pathname === `/order-detail/${working.id}`);
      await popup.locator(`[data-testid="order-info"][data-order="${working.id}"]`).waitFor();
      await popup.close();
    });
  });

  it('filters by client and status, remembers the column layout across a reload, exports what it shows, and flags an order waiting over a minute', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      const blotter = await signInToBlotter(page);
      const pending = await sendOrder({ qty: '2', price: '27000' }, 'PICK');
      const accepted = await sendOrder({ qty: '2', price: '27000' }, 'PICK');
      await blotter.acceptButton(accepted.id).click();
      await blotter.statusCell(accepted.id).getByText('Accepted').waitFor();
      const total = await blotter.orderCount();

      // Status: Pending only; then a client the FIX client is not.
      await blotter.pick('status-filter', 'Pending');
      await blotter.row(accepted.id).waitFor({ state: 'detached' });
      await blotter.row(pending.id).waitFor();
      const shown = await blotter.ordersGrid.locator('.ag-row').count();
      assert.equal(await blotter.ordersTitle.textContent(), `Orders (${shown} of ${total})`);
      await blotter.pick('client-filter', 'Straits Shipping Capital');
      await blotter.row(pending.id).waitFor();
      await screenshot(page, 'blotter-client-status-filter');

      // The column chooser hides Exch; a sort by Symbol; both survive a reload (per user, in this browser).
      await page.getByTestId('column-chooser').click();
      await page.getByTestId('column-chooser-menu').getByRole('checkbox', { name: 'Exch' }).uncheck();
      await page.keyboard.press('Escape');
      await blotter.ordersGrid.locator('.ag-header-cell[col-id="exchange"]').waitFor({ state: 'detached' });
      await blotter.ordersGrid.locator('.ag-header-cell[col-id="symbol"] .ag-header-cell-label').click();
      await blotter.ordersGrid.locator('.ag-header-cell[col-id="symbol"][aria-sort="ascending"]').waitFor();
      // Symbol dragged by its header to the far left, Price widened by its resize handle.
      // In the order shown (the header cells stay in their DOM order and are placed by position).
      const headerIds = () =>
        blotter.ordersGrid
          .locator('.ag-header-cell')
          .evaluateAll((cells) =>
            cells
              .sort((a, b) => Number(a.getAttribute('aria-colindex')) - Number(b.getAttribute('aria-colindex')))
              .map((c) => c.getAttribute('col-id')),
          );
      const priceWidth = () =>
        blotter.ordersGrid.locator('.ag-header-cell[col-id="price"]').evaluate((el) => Math.round(el.getBoundingClientRect().width));
      const before = await headerIds();
      assert.notEqual(before[0], 'symbol');
      await dragBy(
        page,
        blotter.ordersGrid.locator('.ag-header-cell[col-id="symbol"] .ag-header-cell-label'),
        blotter.ordersGrid.locator(`.ag-header-cell[col-id="${before[0]}"]`),
        5,
      );
      await page.waitForFunction(
        () => document.querySelector('[data-testid="orders-grid"] .ag-header-cell[aria-colindex="1"]')?.getAttribute('col-id') === 'symbol',
      );
      const widthBefore = await priceWidth();
      await dragBy(page, blotter.ordersGrid.locator('.ag-header-cell[col-id="price"] .ag-header-cell-resize'), null, 60);
      const widened = await priceWidth();
      assert.ok(widened >= widthBefore + 40, `Price widened: ${widthBefore} -> ${widened} px`);
      const movedOrder = await headerIds();

      // The CSV: the columns shown, in order, and the rows shown (the Age column has no place in a file).
      const headers = (
        await blotter.ordersGrid.locator('.ag-header-cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('col-id')))
      ).filter((id) => id !== 'age');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('orders-export').click()]);
      assert.match(download.suggestedFilename(), /^blotter_orders_\d{8}-\d{6}\.csv$/);
      const [head, ...body] = Papa.parse<string[]>(await downloadText(download), { skipEmptyLines: true }).data;
      assert.equal(head!.length, headers.length, 'one CSV column per shown column (Age aside)');
      assert.ok(!head!.includes('Exch') && !head!.includes('Age'), head!.join());
      assert.equal(body.length, shown, 'the rows shown');
      const status = head!.indexOf('Status');
      assert.ok(
        body.every((r) => r[status] === 'Pending'),
        'only pending orders',
      );
      assert.ok(body.some((r) => r.includes(pending.id)) && !body.some((r) => r.includes(accepted.id)));

      await page.reload();
      await blotter.waitReady();
      assert.equal(await blotter.ordersGrid.locator('.ag-header-cell[col-id="exchange"]').count(), 0, 'Exch stays hidden');
      await blotter.ordersGrid.locator('.ag-header-cell[col-id="symbol"][aria-sort="ascending"]').waitFor();
      assert.deepEqual(await headerIds(), movedOrder, 'the column order stays');
      assert.ok(Math.abs((await priceWidth()) - widened) <= 1, 'the width stays');
      await page.getByTestId('column-chooser').click();
      await page.getByTestId('column-layout-reset').click();
      await page.keyboard.press('Escape');
      await blotter.ordersGrid.locator('.ag-header-cell[col-id="exchange"]').waitFor();
      assert.equal(await blotter.ordersGrid.locator('.ag-header-cell[col-id="symbol"]').getAttribute('aria-sort'), 'none');
      assert.deepEqual(
        (await headerIds()).filter((id) => id !== 'exchange'),
        before,
        'the reset puts the columns back',
      );

      // The Order Info panel folds away and the grids take the full width; it stays folded across a reload.
      const ordersWidth = () => blotter.ordersGrid.evaluate((el) => el.getBoundingClientRect().width);
      const openWidth = await ordersWidth();
      await page.getByTestId('info-toggle').click();
      await page.waitForFunction(() => (document.querySelector('[data-testid="order-info-pane"]')?.getBoundingClientRect().width ?? 1) < 1);
      assert.ok((await ordersWidth()) > openWidth + 300, 'the grids take the room');
      await screenshot(page, 'blotter-info-collapsed-1600');
      await page.reload();
      await blotter.waitReady();
      assert.equal(await page.getByTestId('info-toggle').getAttribute('aria-expanded'), 'false');
      await page.getByTestId('info-toggle').click();
      await page.waitForFunction(
        (w) => (document.querySelector('[data-testid="order-info-pane"]')?.getBoundingClientRect().width ?? 0) >= 250 && w > 0,
        openWidth,
      );

      // Age ticks for a pending order and stands out past a minute (the page's clock moved on 61 s). The
      // order is sent now: `pending` may have waited a minute already, on a machine running two suites.
      const waiting = await sendOrder({ qty: '2', price: '27000' }, 'AGE');
      const age = blotter.row(waiting.id).locator('[col-id="age"] .fd-age');
      await age.waitFor();
      assert.match((await age.textContent()) ?? '', /^\d+:\d{2}$/);
      assert.equal(await age.getAttribute('data-late'), null);
      assert.equal(
        await blotter.row(accepted.id).locator('[col-id="age"] .fd-age').textContent(),
        '',
        'an accepted order waits for nothing',
      );
      await page.clock.install();
      await page.clock.fastForward(61_000);
      await blotter.row(waiting.id).locator('[col-id="age"] .fd-age[data-late]').waitFor();
      // Not deskScreenshots: its settled() waits on animation frames and timers, which the installed clock holds.
      await screenshot(page, 'blotter-age-late-1600x1000');
      await page.setViewportSize(DESK_SIZES[1]);
      await screenshot(page, 'blotter-age-late-1280x800');
    });
  });

  it('works an order from the keyboard alone: to the row by Tab (no header stop), A accepts, F fills with Enter, D with its confirmation, ? lists the keys', async () => {
    await e2e.withPage(
      async (page) => {
        const blotter = await signInToBlotter(page);
        const { clOrdId, id } = await sendOrder({ qty: '3', price: '27000' }, 'KEY');
        // Times: 24-hour in UTC by default, the zone named; the user's local zone on request, remembered.
        const received = blotter.ordersGrid.locator('.ag-header-cell[col-id="time"]');
        assert.match((await received.textContent()) ?? '', /Received \(UTC\)/);
        await page.getByTestId('zone-switch').getByText('Local').click();
        await received.getByText('Received (Asia/Singapore (GMT+8))').waitFor();
        await page.reload();
        await blotter.waitReady();
        await received.getByText('Received (Asia/Singapore (GMT+8))').waitFor();
        await page.getByTestId('zone-switch').getByText('UTC').click();
        await received.getByText('Received (UTC)').waitFor();

        await page.getByTestId('quick-filter').focus();
        await page.keyboard.type(clOrdId);
        await blotter.row(id).waitFor();
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="orders-grid"] .ag-row').length === 1);
        const inRow = () => page.evaluate((bo) => !!document.activeElement?.closest(`.ag-row`)?.textContent?.includes(bo), id);
        const onHeader = () => page.evaluate(() => !!document.activeElement?.closest('.ag-header'));
        const backOnRow = async (after: string) => {
          await page.waitForFunction(() => !!document.activeElement?.closest('.ag-row'));
          assert.equal(await inRow(), true, `after ${after} the keyboard is back on the row`);
        };
        for (let i = 0; i < 15 && !(await inRow()); i++) {
          await page.keyboard.press('Tab');
          assert.equal(await onHeader(), false, 'the column headers are not in the Tab order');
        }
        assert.equal(await inRow(), true, 'Tab reaches the row');
        await page.locator(`[data-testid="order-info"][data-order="${id}"]`).waitFor();

        await page.keyboard.press('?');
        await page.getByTestId('shortcuts-list').getByText('Accept the pending order').waitFor();
        await screenshot(page, 'blotter-shortcuts-help');
        await page.keyboard.press('Escape');
        await page.getByTestId('shortcuts-list').waitFor({ state: 'hidden' });
        if (!(await inRow())) await blotter.row(id).locator('[col-id="side"]').focus();

        await page.keyboard.press('a');
        await client.waitForReport(clOrdId, (m) => m.get(150) === '0');
        await blotter.statusCell(id).getByText('Accepted').waitFor();
        await backOnRow('Accept');

        await blotter.info.fillQty.waitFor();
        await page.keyboard.press('f');
        // The grid hands its key events to the page a task later: the focus moves then.
        await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Fill quantity', undefined, {
          timeout: 5000,
        });
        await page.keyboard.type('3');
        await page.keyboard.press('Tab');
        await page.keyboard.type('27000');
        await page.keyboard.press('Enter');
        await client.waitForReport(clOrdId, (m) => m.get(39) === '2');
        await blotter.statusCell(id).getByText('Filled').waitFor();
        await backOnRow('the fill');

        await blotter.info.doneForDay.waitFor();
        await page.keyboard.press('d');
        await page.getByTestId('confirm-summary').waitFor();
        await page.keyboard.press('Enter');
        await client.waitForReport(clOrdId, (m) => m.get(150) === '3');
        await blotter.statusCell(id).getByText('Done').waitFor();
        await blotter.statusCell(id).getByText('filled 3/3').waitFor();
        await page.waitForFunction(() => !!document.activeElement?.closest('.ag-row'));
      },
      { timezoneId: 'Asia/Singapore' },
    );
  });
});
