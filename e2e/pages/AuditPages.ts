import type { Locator, Page } from 'playwright-core';

/** The Order Actions audit screen (/order-actions). */
export class OrderActionsScreen {
  readonly root: Locator;
  readonly filter: Locator;
  readonly exportButton: Locator;
  readonly grid: Locator;
  readonly footer: Locator;
  readonly loading: Locator;
  readonly error: Locator;
  readonly empty: Locator;
  readonly info: Locator;
  readonly jsonModal: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('order-actions-page');
    this.filter = page.getByTestId('order-actions-filter');
    this.exportButton = page.getByTestId('order-actions-export');
    this.grid = page.getByTestId('order-actions-grid');
    this.footer = page.getByTestId('order-actions-footer');
    this.loading = page.getByTestId('order-actions-loading');
    this.error = page.getByTestId('order-actions-error');
    this.empty = page.getByTestId('order-actions-empty');
    this.info = page.getByTestId('order-actions-info');
    this.jsonModal = page.getByRole('dialog').filter({ has: page.getByTestId('action-json') });
  }

  async goto(): Promise<void> {
    await this.page.goto('/order-actions');
    await this.root.waitFor();
  }

  /** A grid row by the action's id. */
  row(id: number): Locator {
    return this.grid.locator(`.ag-row[row-id="${id}"]`);
  }

  cell(id: number, colId: string): Locator {
    return this.row(id).locator(`[col-id="${colId}"]`);
  }

  async waitForFooter(text: string): Promise<void> {
    await this.page.waitForFunction(([testId, expected]) => document.querySelector(`[data-testid="${testId}"]`)?.textContent === expected, [
      'order-actions-footer',
      text,
    ] as const);
  }
}

/** The FIX Messages audit screen (/fix-messages). */
export class FixMessagesScreen {
  readonly root: Locator;
  readonly filter: Locator;
  readonly refresh: Locator;
  readonly exportButton: Locator;
  readonly ignoreHeartbeats: Locator;
  readonly ignoreSessionMessages: Locator;
  readonly grid: Locator;
  readonly footer: Locator;
  readonly loading: Locator;
  readonly error: Locator;
  readonly empty: Locator;
  readonly modal: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('fix-messages-page');
    this.filter = page.getByTestId('fix-messages-filter');
    this.refresh = page.getByTestId('fix-messages-refresh');
    this.exportButton = page.getByTestId('fix-messages-export');
    this.ignoreHeartbeats = page.getByRole('checkbox', { name: 'Ignore heartbeats' });
    this.ignoreSessionMessages = page.getByRole('checkbox', { name: 'Ignore session messages' });
    this.grid = page.getByTestId('fix-messages-grid');
    this.footer = page.getByTestId('fix-messages-footer');
    this.loading = page.getByTestId('fix-messages-loading');
    this.error = page.getByTestId('fix-messages-error');
    this.empty = page.getByTestId('fix-messages-empty');
    this.modal = page.getByRole('dialog').filter({ has: page.getByTestId('copy-message') });
  }

  async goto(): Promise<void> {
    await this.page.goto('/fix-messages');
    await this.root.waitFor();
  }

  row(id: number): Locator {
    return this.grid.locator(`.ag-row[row-id="${id}"]`);
  }

  cell(id: number, colId: string): Locator {
    return this.row(id).locator(`[col-id="${colId}"]`);
  }

  /** The ids of the rows drawn, top to bottom. */
  async rowIds(): Promise<number[]> {
    return this.grid.locator('.ag-row').evaluateAll((rows) =>
      rows
        .map((r) => ({ id: Number(r.getAttribute('row-id')), top: r.getBoundingClientRect().top }))
        .sort((a, b) => a.top - b.top)
        .map((r) => r.id),
    );
  }
}

/** The export dialog shared by both screens. */
export class ExportDialogPart {
  readonly root: Locator;
  readonly start: Locator;
  readonly end: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog').filter({ has: page.getByTestId('export-submit') });
    this.start = this.root.getByLabel('Start date');
    this.end = this.root.getByLabel('End date');
    this.submit = this.root.getByTestId('export-submit');
  }
}
