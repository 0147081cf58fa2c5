import type { Locator, Page } from 'playwright-core';

/** The kill switch's confirmation, shared by the blotter's client filter and Client Connectors. */
export class KillSwitchModal {
  readonly form: Locator;
  readonly consequences: Locator;
  readonly reason: Locator;
  readonly logout: Locator;
  readonly confirmButton: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId('kill-switch-form');
    this.consequences = this.form.getByTestId('kill-switch-consequences');
    this.reason = this.form.getByRole('textbox', { name: 'Reason' });
    this.logout = this.form.getByRole('checkbox');
    this.confirmButton = this.form.getByTestId('kill-switch-confirm');
    this.error = this.form.getByTestId('kill-switch-error');
  }

  /** The dialog is open for `compId` in `mode`. */
  async waitOpen(compId: string, mode: 'stop' | 'resume'): Promise<void> {
    await this.page.locator(`[data-testid="kill-switch-form"][data-client="${compId}"][data-mode="${mode}"]`).waitFor();
  }

  /** The message shown under the reason (the form's own check or the server's 400). */
  reasonError(): Locator {
    return this.page.locator('.mantine-TextInput-error');
  }

  async confirm(reason: string): Promise<void> {
    await this.reason.fill(reason);
    await this.confirmButton.click();
    await this.form.waitFor({ state: 'detached' });
  }
}

/** The blotter's client filter menu with its Stop / Resume client items. */
export class ClientFilterMenu {
  readonly button: Locator;
  readonly menu: Locator;

  constructor(readonly page: Page) {
    this.button = page.getByTestId('client-filter');
    this.menu = page.getByTestId('client-filter-menu');
  }

  async open(): Promise<void> {
    if (!(await this.menu.isVisible())) await this.button.click();
    await this.menu.waitFor();
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.menu.waitFor({ state: 'hidden' });
  }

  stopItem(compId: string): Locator {
    return this.menu.getByTestId(`stop-client-${compId}`);
  }

  resumeItem(compId: string): Locator {
    return this.menu.getByTestId(`resume-client-${compId}`);
  }

  /** Every Stop/Resume item the menu offers. */
  killSwitchItems(): Locator {
    return this.menu.locator('[data-testid^="stop-client-"], [data-testid^="resume-client-"]');
  }
}
