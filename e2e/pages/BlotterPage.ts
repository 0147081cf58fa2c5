import type { Locator, Page } from 'playwright-core';
import { until } from '../../tests/support/until';

/** The broker's blotter at /orders: header, the three panes and the Order Info panel. */
export class BlotterPage {
  readonly root: Locator;
  readonly ordersTitle: Locator;
  readonly executionsTitle: Locator;
  readonly ordersGrid: Locator;
  readonly executionsGrid: Locator;
  readonly liveDot: Locator;
  readonly usersOnline: Locator;
  readonly offline: Locator;
  readonly reconnecting: Locator;
  readonly info: OrderInfo;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('blotter');
    this.ordersTitle = page.getByTestId('orders-title');
    this.executionsTitle = page.getByTestId('executions-title');
    this.ordersGrid = page.getByTestId('orders-grid');
    this.executionsGrid = page.getByTestId('executions-grid');
    this.liveDot = page.getByTestId('live-dot');
    this.usersOnline = page.getByTestId('users-online');
    this.offline = page.getByTestId('live-offline');
    this.reconnecting = page.getByTestId('live-reconnecting');
    this.info = new OrderInfo(page.getByTestId('order-info'));
  }

  /**
   * The confirmation of an irreversible action (Done for Day, Reject, a refusal, a broker cancel): waits
   * for it, returns its consequence summary, and confirms (or goes back).
   */
  async confirm(answer: 'confirm' | 'back' = 'confirm'): Promise<string> {
    const dialog = this.page.getByRole('dialog').filter({ has: this.page.getByTestId('confirm-summary') });
    await dialog.waitFor();
    const summary = (await dialog.getByTestId('confirm-summary').textContent()) ?? '';
    if (answer === 'confirm') await dialog.getByTestId('confirm-button').click();
    else await dialog.getByRole('button', { name: 'Go back' }).click();
    await dialog.waitFor({ state: 'detached' });
    return summary;
  }

  async goto(): Promise<void> {
    await this.page.goto('/orders');
    await this.waitReady();
  }

  /** The grids are up and the live connection is authenticated. */
  async waitReady(): Promise<void> {
    await this.ordersTitle.waitFor();
    await this.page.locator('[data-testid="live-dot"][data-live="true"]').waitFor();
  }

  /** Every order in the book ('Orders (12)', or 'Orders (3 of 12)' while filtered). */
  async orderCount(): Promise<number> {
    const text = (await this.ordersTitle.textContent()) ?? '';
    const m = /\((\d+)(?: of (\d+))?\)/.exec(text);
    return Number(m?.[2] ?? m?.[1] ?? NaN);
  }

  /** Chooses one option of a pick filter (Client, Status) by its label and closes the menu. */
  async pick(testId: string, label: string): Promise<void> {
    await this.page.getByTestId(testId).click();
    const menu = this.page.getByTestId(`${testId}-menu`);
    await menu.getByRole('checkbox', { name: label, exact: true }).check();
    await this.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
  }

  /** The Orders grid row of a broker order id (AG Grid keeps row ids = order id; we find it by text). */
  row(brokerOrderId: string): Locator {
    return this.ordersGrid.locator('.ag-row', { hasText: brokerOrderId });
  }

  /** The status cell of that row (pinned left or not, AG Grid renders it in the row). */
  statusCell(brokerOrderId: string): Locator {
    return this.row(brokerOrderId).locator('[col-id="status"]');
  }

  acceptButton(brokerOrderId: string): Locator {
    return this.page.getByTestId(`accept-${brokerOrderId}`);
  }

  async select(brokerOrderId: string): Promise<void> {
    await this.row(brokerOrderId).locator('[col-id="side"]').click();
    await this.page.locator(`[data-testid="order-info"][data-order="${brokerOrderId}"]`).waitFor();
  }

  executionRows(): Locator {
    return this.executionsGrid.locator('.ag-row');
  }

  async executionTypes(): Promise<string[]> {
    return (await this.executionsGrid.locator('.ag-row [col-id="exectype"]').allTextContents()).map((t) => t.trim());
  }

  /** The selected order's executions once they satisfy `ready` (they load after the selection), or the last seen on timeout. */
  async executionTypesWhen(ready: (types: string[]) => boolean, timeoutMs = 10_000): Promise<string[]> {
    let types: string[] = [];
    await until('the executions', async () => ready((types = await this.executionTypes())), timeoutMs, 100).catch(() => undefined);
    return types;
  }
}

/** The Order Info panel (blotter right pane and the order detail screen). */
export class OrderInfo {
  readonly status: Locator;
  readonly filled: Locator;
  readonly avgPx: Locator;
  readonly fillQty: Locator;
  readonly fillPrice: Locator;
  readonly submitFill: Locator;
  readonly qtyCheck: Locator;
  readonly priceCheck: Locator;
  readonly sanityCheck: Locator;
  readonly accept: Locator;
  readonly rejectReason: Locator;
  readonly reject: Locator;
  readonly doneForDay: Locator;
  readonly fullyFilled: Locator;
  readonly serverError: Locator;
  readonly pendingRequest: Locator;
  readonly openTradeCapture: Locator;

  constructor(readonly root: Locator) {
    this.status = root.getByTestId('order-status');
    this.filled = root.getByTestId('order-filled');
    this.avgPx = root.getByTestId('order-avgpx');
    this.fillQty = root.getByRole('spinbutton', { name: 'Fill quantity' });
    this.fillPrice = root.getByRole('spinbutton', { name: 'Fill price' });
    this.submitFill = root.getByRole('button', { name: 'Submit Fill' });
    this.qtyCheck = root.getByTestId('fill-qty-check');
    this.priceCheck = root.getByTestId('fill-price-check');
    this.sanityCheck = root.getByTestId('fill-sanity-check');
    this.accept = root.getByRole('button', { name: 'Accept', exact: true });
    this.rejectReason = root.getByRole('textbox', { name: 'Rejection reason' });
    this.reject = root.getByRole('button', { name: 'Reject', exact: true });
    this.doneForDay = root.getByRole('button', { name: 'Done for Day' });
    this.fullyFilled = root.getByTestId('fully-filled');
    this.serverError = root.getByTestId('server-error');
    this.pendingRequest = root.getByTestId('pending-request');
    this.openTradeCapture = root.getByRole('button', { name: 'Open Trade Capture' });
  }

  async fill(qty: string, price: string): Promise<void> {
    await this.fillQty.fill(qty);
    await this.fillPrice.fill(price);
    await this.submitFill.click();
  }
}
