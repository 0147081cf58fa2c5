import type { Locator, Page } from 'playwright-core';

/** Privacy Policy, Cookie Policy and Terms share one layout. */
export class LegalPage {
  readonly heading: Locator;
  readonly lastUpdated: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.lastUpdated = page.getByTestId('last-updated');
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(path);
    await this.heading.waitFor();
  }

  section(title: RegExp): Locator {
    return this.page.getByRole('region', { name: title });
  }
}
