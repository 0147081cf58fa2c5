import type { Locator, Page } from 'playwright-core';

export interface StoredConsent {
  necessary: boolean;
  analytics: boolean;
  functional: boolean;
  timestamp: string;
}

/** The cookie consent banner and its preferences view. */
export class CookieBanner {
  readonly root: Locator;
  readonly acceptAll: Locator;
  readonly rejectNonEssential: Locator;
  readonly managePreferences: Locator;
  readonly savePreferences: Locator;
  readonly back: Locator;
  readonly essential: Locator;
  readonly analytics: Locator;
  readonly functional: Locator;
  readonly cookiePolicyLink: Locator;
  readonly privacyPolicyLink: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('cookie-banner');
    this.acceptAll = this.root.getByRole('button', { name: 'Accept All' });
    this.rejectNonEssential = this.root.getByRole('button', { name: 'Reject Non-Essential' });
    this.managePreferences = this.root.getByRole('button', { name: 'Manage Preferences' });
    this.savePreferences = this.root.getByRole('button', { name: 'Save Preferences' });
    this.back = this.root.getByRole('button', { name: 'Back' });
    this.essential = this.root.getByRole('switch', { name: /Essential/ });
    this.analytics = this.root.getByRole('switch', { name: /Analytics/ });
    this.functional = this.root.getByRole('switch', { name: /Functional/ });
    this.cookiePolicyLink = this.root.getByRole('link', { name: /Cookie Policy/ });
    this.privacyPolicyLink = this.root.getByRole('link', { name: /Privacy Policy/ });
  }

  async waitVisible(): Promise<void> {
    await this.root.waitFor({ state: 'visible' });
  }

  async waitHidden(): Promise<void> {
    await this.root.waitFor({ state: 'detached' });
  }

  async stored(): Promise<StoredConsent | null> {
    const raw = await this.page.evaluate(() => window.localStorage.getItem('cookieConsent'));
    return raw === null ? null : (JSON.parse(raw) as StoredConsent);
  }
}
