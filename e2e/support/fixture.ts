import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, type ContextOptions } from './browser';
import { startServer, type RunningServer } from './server';

/**
 * One server and one browser per test file; each test gets a fresh context (empty storage,
 * no cookies). Page errors fail the test: a screen that throws is a bug even if it renders.
 */
export class E2E {
  server!: RunningServer;
  browser!: Browser;

  async start(): Promise<void> {
    this.server = await startServer();
    this.browser = await launchBrowser();
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    await this.server?.stop();
  }

  async withPage<T>(run: (page: Page, context: BrowserContext) => Promise<T>, options?: ContextOptions): Promise<T> {
    const context = await newContext(this.browser, this.server.baseUrl, options);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      const result = await run(page, context);
      if (pageErrors.length > 0) throw new Error(`uncaught errors in the page:\n${pageErrors.join('\n')}`);
      return result;
    } catch (err) {
      // What the server logged (warnings and up) is the first thing to read when a screen test fails.
      const log = this.server.output().trim();
      if (log) console.error(`server log (last lines):\n${log.split('\n').slice(-(Number(process.env.E2E_LOG_LINES) || 80)).join('\n')}`);
      throw err;
    } finally {
      await context.close();
    }
  }

  /** Signs in through the API (not the UI) and returns the bearer token. */
  async apiLogin(username: string, password: string): Promise<string> {
    const response = await fetch(`${this.server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = (await response.json()) as { token?: string };
    if (!response.ok || !body.token) throw new Error(`API sign-in failed: ${response.status}`);
    return body.token;
  }
}
