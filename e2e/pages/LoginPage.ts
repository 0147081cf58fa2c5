import type { Locator, Page } from 'playwright-core';

/** The Sign In screen. */
export class LoginPage {
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  /** The "Login Failed" box. */
  readonly error: Locator;

  constructor(readonly page: Page) {
    const form = page.getByRole('form', { name: 'Sign in' });
    this.username = form.getByRole('textbox', { name: 'Username', exact: true });
    this.password = form.getByRole('textbox', { name: 'Password', exact: true });
    this.submit = form.getByRole('button', { name: 'Sign In' });
    this.error = page.getByRole('alert').filter({ hasText: 'Login Failed' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/login');
    await this.username.waitFor();
  }

  async fill(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
  }

  /** Fills both fields and submits with the button. */
  async signIn(username: string, password: string): Promise<void> {
    await this.fill(username, password);
    await this.submit.click();
  }

  async errorText(): Promise<string> {
    await this.error.waitFor();
    return (await this.error.innerText()).replace(/^Login Failed\s*/, '').trim();
  }
}
