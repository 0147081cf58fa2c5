import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LoginPage } from '../pages/LoginPage';
import { launchBrowser, newContext, waitForPath, type ContextOptions } from './browser';
import { startServer, type RunningServer, type ServerOptions } from './server';

/**
 * One server and one browser per test file; each test gets a fresh context (empty storage,
 * no cookies). Page errors fail the test: a screen that throws is a bug even if it renders.
 */
export class E2E {
  server!: RunningServer;
  browser!: Browser;

  constructor(private readonly serverOptions: ServerOptions = {}) {}

  /** The server and the browser start at once: the browser's launch overlaps the server's start. */
  async start(): Promise<void> {
    const [server, browser] = await Promise.allSettled([startServer(this.serverOptions), launchBrowser()]);
    if (server.status === 'fulfilled') this.server = server.value;
    if (browser.status === 'fulfilled') this.browser = browser.value;
    if (server.status === 'rejected' || browser.status === 'rejected') {
      await this.stop();
      throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.browser?.close(), this.server?.stop()]);
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
      if (log)
        console.error(
          `server log (last lines):\n${log
            .split('\n')
            .slice(-(Number(process.env.E2E_LOG_LINES) || 80))
            .join('\n')}`,
        );
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

  /** One API call with a bearer token: its status and its JSON body. */
  async api(method: string, path: string, token: string, json?: unknown): Promise<{ status: number; body: ApiBody }> {
    const r = await fetch(`${this.server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: r.status, body: (await r.json()) as ApiBody };
  }

  /** The seeded password of admin (its own) or of the demo users (broker, viewer: one shared). */
  passwordOf(username: string): string {
    return username === 'admin' ? this.server.adminPassword : this.server.demoPassword;
  }

  /**
   * Signs in through the Sign In screen, the one way browser tests sign in. Without `at` it opens
   * /login; with `at` it opens that page signed out, which sends the user to /login. It then waits for
   * `landing`, or for `at`, or (neither given) until the app has left /login.
   */
  async signIn(page: Page, username: string, { at, landing, password }: SignInOptions = {}): Promise<void> {
    const login = new LoginPage(page);
    if (at === undefined) {
      await login.goto();
    } else {
      await page.goto(at);
      await waitForPath(page, '/login');
    }
    await login.signIn(username, password ?? this.passwordOf(username));
    const expected = landing ?? at;
    if (expected === undefined) await page.waitForURL((url) => url.pathname !== '/login');
    else await waitForPath(page, expected);
  }
}

export interface SignInOptions {
  /** A page to open signed out; the Sign In screen it leads to is where the user signs in. */
  at?: string;
  /** The path the app should show after signing in. */
  landing?: string;
  /** When not the seeded password of the user. */
  password?: string;
}

/** A JSON answer of the API, with the refusal's message and field when it is one. */
export type ApiBody = Record<string, unknown> & { message?: string; field?: string };
