import type { Locator, Page } from 'playwright-core';

export const INSIGHT_PANELS = ['order-flow', 'time-to-answer', 'clients', 'contracts', 'fix-sessions'] as const;
export type InsightPanelId = (typeof INSIGHT_PANELS)[number];

/** The Insights screen (/insights): its filters and its five chart panels. */
export class InsightsScreen {
  readonly root: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('insights-page');
  }

  async goto(): Promise<void> {
    await this.page.goto('/insights');
    await this.root.waitFor();
  }

  panel(id: InsightPanelId): Locator {
    return this.page.getByTestId(`insight-${id}`);
  }

  /** A figure of a panel's totals, as a number ('1,234' → 1234). */
  async total(id: InsightPanelId, figure: string): Promise<number> {
    const text = await this.page.getByTestId(`insight-${id}-total-${figure}`).innerText();
    return Number(text.replace(/,/g, ''));
  }

  async totalText(id: InsightPanelId, figure: string): Promise<string> {
    return this.page.getByTestId(`insight-${id}-total-${figure}`).innerText();
  }

  /** Waits until every panel has figures for the filters chosen and none is loading. */
  async settled(): Promise<void> {
    for (const id of INSIGHT_PANELS) {
      await this.page.getByTestId(`insight-${id}-summary`).locator('[data-testid^="insight-"]').first().waitFor();
      await this.page.getByTestId(`insight-${id}-loading`).waitFor({ state: 'detached' });
    }
  }

  async chooseRange(label: string): Promise<void> {
    await this.page.getByTestId('insights-range').click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  async chooseClient(label: string): Promise<void> {
    await this.page.getByTestId('insights-clients').click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
    await this.page.keyboard.press('Escape');
  }

  async chooseExchange(label: string): Promise<void> {
    await this.page.getByTestId('insights-exchange').click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  async showAs(id: InsightPanelId, mode: 'Chart' | 'Table'): Promise<void> {
    await this.page.getByTestId(`insight-${id}-mode`).locator('label').filter({ hasText: mode }).click();
  }

  legendItem(id: InsightPanelId, name: string): Locator {
    return this.page.getByTestId(`insight-${id}-legend`).getByRole('button', { name, exact: true });
  }

  chart(id: InsightPanelId): Locator {
    return this.page.getByTestId(`insight-${id}-chart`);
  }
}
