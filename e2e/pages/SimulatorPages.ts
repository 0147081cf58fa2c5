import type { Locator, Page } from 'playwright-core';
import { screenshot, settled } from '../support/browser';
import { until } from '../../tests/support/until';

/** Picks an option of a Mantine Select by its visible label. */
export async function chooseOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option }).first().click();
}

/** The order-entry part both simulator screens share: tabs, forms, preview, send and its banners. */
export class OrderEntryPanel {
  readonly preview: Locator;
  readonly previewText: Locator;
  readonly previewWarnings: Locator;
  readonly copy: Locator;
  readonly send: Locator;
  readonly success: Locator;
  readonly error: Locator;
  readonly strategySymbol: Locator;
  readonly customRatios: Locator;

  constructor(
    readonly page: Page,
    readonly root: Locator,
  ) {
    this.preview = root.getByTestId('fix-preview');
    this.previewText = root.getByTestId('fix-preview-text');
    this.previewWarnings = root.getByTestId('fix-preview-warnings');
    this.copy = this.preview.getByRole('button', { name: /^Cop/ });
    this.send = root.getByTestId('send-order');
    this.success = root.getByTestId('send-success');
    this.error = root.getByTestId('send-error');
    this.strategySymbol = root.getByTestId('strategy-symbol');
    this.customRatios = root.getByTestId('custom-ratios');
  }

  tab(name: string): Locator {
    return this.root.getByRole('tab', { name, exact: true });
  }

  input(label: string): Locator {
    return this.root.getByRole('textbox', { name: label, exact: true });
  }

  number(label: string): Locator {
    return this.root.getByLabel(label, { exact: true });
  }

  /** A Mantine Select (a combobox) by its label. */
  select(label: string): Locator {
    return this.root.getByRole('combobox', { name: label, exact: true });
  }

  async choose(label: string, option: string | RegExp): Promise<void> {
    await chooseOption(this.page, this.select(label), option);
  }

  /** The type picker of one line of the custom strategy builder. */
  legType(side: 'buy' | 'sell', index: number): Locator {
    return this.root.getByTestId(`${side}-leg-${index}`).getByRole('combobox').first();
  }

  /** Sends and returns the success text (throws with the error banner's text when sending fails). */
  async sendAndConfirm(timeoutMs = 15_000): Promise<string> {
    // Read without waiting: a banner counted a moment ago may have gone (it stays 3 s), and innerText
    // would then wait for one to appear (30 s).
    const shownNow = async (l: Locator) => (await l.allInnerTexts())[0]?.trim();
    const before = (await shownNow(this.success)) ?? null;
    await this.send.click();
    // A success banner stays 3 s, so the previous order's may still be up: wait for a different one.
    const banner = async (): Promise<string | undefined> => {
      if ((await this.error.count()) > 0) {
        // What the page showed of the simulated client at that moment (a send refused as "not running"
        // right after the badge read Connected was seen under load; this says which status it had).
        const badge = this.page.locator('[data-testid="fix-client-status"]');
        const shown =
          (await badge.count()) > 0
            ? (
                await badge
                  .first()
                  .innerText()
                  .catch(() => '?')
              ).trim()
            : 'no badge';
        throw new Error(`sending failed: ${(await this.error.innerText()).trim()} (FIX client badge: ${shown})`);
      }
      const text = await shownNow(this.success);
      if (text && text !== before) return text;
      return undefined;
    };
    try {
      return await until('a success banner for the order sent', banner, timeoutMs, 50);
    } catch (err) {
      if ((err as Error).message.startsWith('timed out')) await screenshot(this.page, 'debug-send');
      throw err;
    }
  }

  async errorText(): Promise<string> {
    await this.error.waitFor();
    return (await this.error.innerText()).trim();
  }
}

/** FIX Client Simulator at /fix-test-client. */
export class SimulatorClientPage {
  readonly connector: Locator;
  readonly connectorInfo: Locator;
  readonly connectorSession: Locator;
  readonly clientStatus: Locator;
  readonly start: Locator;
  readonly stop: Locator;
  readonly ws: Locator;
  readonly sentOrders: Locator;
  readonly entry: OrderEntryPanel;

  constructor(readonly page: Page) {
    this.connector = page.getByRole('combobox', { name: 'Client Connector' });
    this.connectorInfo = page.getByTestId('connector-info');
    this.connectorSession = page.getByTestId('connector-session');
    this.clientStatus = page.getByTestId('fix-client-status');
    this.start = page.getByTestId('fix-client-control').getByRole('button', { name: 'Start' });
    this.stop = page.getByTestId('fix-client-control').getByRole('button', { name: 'Stop' });
    this.ws = page.getByTestId('ws-status');
    this.sentOrders = page.getByTestId('sent-orders');
    this.entry = new OrderEntryPanel(page, page.locator('main'));
  }

  async goto(): Promise<void> {
    await this.page.goto('/fix-test-client');
    await this.connectorInfo.waitFor();
    await this.page.locator('[data-testid="ws-status"]', { hasText: 'WebSocket connected' }).waitFor();
  }

  counter(name: 'sent' | 'pending' | 'filled' | 'completed'): Locator {
    return this.page.getByTestId(`counter-${name}`);
  }

  sentOrderRow(clOrdId: string): Locator {
    return this.sentOrders.locator(`tr[data-clordid="${clOrdId}"]`);
  }
}

/** FIX Client at /fix-client. */
export class SimulatorFixClientPage {
  readonly root: Locator;
  readonly client: Locator;
  readonly newOrder: Locator;
  readonly orders: Locator;
  readonly executions: Locator;
  readonly legs: Locator;
  readonly parties: Locator;
  readonly cancel: Locator;
  readonly replace: Locator;
  readonly success: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('fix-client');
    this.client = page.getByRole('combobox', { name: 'Client connector' });
    this.newOrder = page.getByTestId('new-order');
    this.orders = page.getByTestId('client-orders');
    this.executions = page.getByTestId('client-executions');
    this.legs = page.getByTestId('client-legs');
    this.parties = page.getByTestId('client-parties');
    this.cancel = page.getByTestId('cancel-order');
    this.replace = page.getByTestId('replace-order');
    this.success = page.getByTestId('client-success');
    this.error = page.getByTestId('client-error');
  }

  async goto(): Promise<void> {
    await this.page.goto('/fix-client');
    await this.root.waitFor();
    await this.page.locator('[data-testid="ws-status"]').waitFor();
  }

  orderRow(clOrdId: string): Locator {
    return this.orders.locator('.ag-row', { hasText: clOrdId });
  }

  statusOf(clOrdId: string): Locator {
    return this.orderRow(clOrdId).locator('[col-id="status"]');
  }

  async select(clOrdId: string): Promise<void> {
    await this.orderRow(clOrdId).locator('[col-id="clordid"]').click();
  }

  /**
   * Cancels the selected order through its dialog, once the dialog has opened and settled, and waits
   * for the banner that answers it: the success text, or a failure naming the error banner's text.
   */
  async cancelSelected(): Promise<string> {
    await this.cancel.click();
    const dialog = this.page.getByRole('dialog', { name: /^Cancel order / });
    await dialog.waitFor();
    await settled(this.page);
    await dialog.getByTestId('confirm-cancel').click();
    const answer = this.success.filter({ hasText: 'Cancel request' }).or(this.error.filter({ hasText: 'Failed to cancel order' }));
    await answer.waitFor();
    const text = (await answer.innerText()).trim();
    if ((await answer.getAttribute('data-testid')) !== 'client-success') throw new Error(`the cancel request failed: ${text}`);
    return text;
  }

  async executionTypes(): Promise<string[]> {
    return (await this.executions.locator('.ag-row [col-id="exectype"]').allTextContents()).map((t) => t.trim());
  }

  modal(): OrderEntryPanel {
    return new OrderEntryPanel(this.page, this.page.getByRole('dialog'));
  }
}

/** Broker Simulator at /broker-simulator. */
export class SimulatorBrokerPage {
  readonly auto: Locator;
  readonly acceptDelay: Locator;
  readonly fillDelay: Locator;
  readonly ws: Locator;
  readonly cards: Locator;

  constructor(readonly page: Page) {
    this.auto = page.getByRole('switch', { name: /Auto mode/ });
    this.acceptDelay = page.getByLabel('Accept delay (seconds)');
    this.fillDelay = page.getByLabel('Fill delay (seconds)');
    this.ws = page.getByTestId('ws-status');
    this.cards = page.getByTestId('sim-order-card');
  }

  async goto(): Promise<void> {
    await this.page.goto('/broker-simulator');
    await this.page.locator('[data-testid="ws-status"]', { hasText: 'WebSocket connected' }).waitFor();
  }

  /**
   * Turns auto mode on or off once the switch takes input: it is disabled while the simulator loads
   * the orders, and a forced click (the switch's input is drawn hidden) on a disabled one changes nothing.
   */
  async setAuto(on: boolean): Promise<void> {
    await this.page.locator('[data-testid="auto-mode"]:enabled').waitFor({ state: 'attached' });
    await (on ? this.auto.check({ force: true }) : this.auto.uncheck({ force: true }));
  }

  counter(name: 'pending' | 'active' | 'completed' | 'processed'): Locator {
    return this.page.getByTestId(`sim-${name}`);
  }

  card(clOrdId: string): Locator {
    return this.page.locator(`[data-testid="sim-order-card"][data-clordid="${clOrdId}"]`);
  }
}
