/// <reference lib="dom" />
// Callbacks passed to page.evaluate run in the browser, so the browser globals must type-check here.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

const repoRoot = new URL('../..', import.meta.url).pathname;
export const SCREENSHOT_DIR = join(repoRoot, 'e2e/screenshots');

/**
 * Features of Chromium's own window that a page under test never uses. Chromium 156's new headless
 * mode is the whole browser, and for every window (each test's context) it loads the address bar's
 * suggestion popups as two WebUI pages in a renderer of their own: in a blotter test file that
 * renderer took 31 s of CPU of the browser's 134 s, as much as the test's server and test process
 * together, on a machine of two cores where the browser tests are bound by CPU.
 */
const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Debian's Chromium, headless. Playwright gives every launch a fresh temporary profile
 * (user-data dir). The networking flags stop Chromium calling home, which this machine's
 * closed network would refuse. It starts through chromium-merged-features.sh, which adds
 * UNUSED_FEATURES to Playwright's own --disable-features list (Chromium keeps only one such list).
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: join(repoRoot, 'e2e/support/chromium-merged-features.sh'),
    env: {
      ...process.env,
      FIXDESK_CHROMIUM: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      FIXDESK_DISABLE_FEATURES: UNUSED_FEATURES.join(','),
    },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ContextOptions {
  /** Store a cookie choice before any page loads, so the banner stays out of the way. */
  consentGiven?: boolean;
  /** Overrides the browser's user agent (the desktop shell is recognised by it). */
  userAgent?: string;
  /** The browser's time zone (IANA); the machine's when absent. */
  timezoneId?: string;
  /**
   * Runs the app as an installed app: '(display-mode: standalone)' matches. Chromium's CDP
   * Emulation.setEmulatedMedia does not emulate display-mode (checked with Chromium 156: the query
   * stays false), so matchMedia answers that query as if installed, in every page of the context
   * (pop-outs too).
   */
  standalone?: boolean;
}

/** Plain text, not a function: the test transpiler could add helpers the page lacks. */
const STANDALONE_SCRIPT = `
  (() => {
    const real = window.matchMedia.bind(window);
    const installed = /\\(\\s*display-mode\\s*:\\s*standalone\\s*\\)/i;
    window.matchMedia = (query) => {
      if (!installed.test(query)) return real(query);
      const list = real('all');
      return new Proxy(list, {
        get(target, key) {
          if (key === 'media') return query;
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    };
  })();
`;

export async function newContext(
  browser: Browser,
  baseURL: string,
  { consentGiven = true, userAgent, standalone = false, timezoneId }: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1366, height: 860 },
    locale: 'en-GB',
    ...(userAgent ? { userAgent } : {}),
    ...(timezoneId ? { timezoneId } : {}),
  });
  if (standalone) await context.addInitScript({ content: STANDALONE_SCRIPT });
  // How long a wait for an element may last before the test fails. On a quiet machine these waits end
  // in well under a second; with another suite sharing the 2 cores the blotter's first load (orders,
  // grid, live connection) has taken over 15 s. A longer bound costs only a failing test its time.
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(30_000);
  if (consentGiven) {
    await context.addInitScript(() => {
      if (!window.localStorage.getItem('cookieConsent')) {
        window.localStorage.setItem(
          'cookieConsent',
          JSON.stringify({ necessary: true, analytics: false, functional: false, timestamp: new Date().toISOString() }),
        );
      }
    });
  }
  return context;
}

/** Saves the page as {name}.png, in e2e/screenshots unless `dir` says elsewhere. */
export async function screenshot(page: Page, name: string, fullPage = false, dir = SCREENSHOT_DIR): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}

/** The two desk window sizes screenshots are taken at: a large monitor, then a laptop. */
export type DeskSize = { readonly width: number; readonly height: number };
export const DESK_SIZES: readonly [DeskSize, DeskSize] = [
  { width: 1600, height: 1000 },
  { width: 1280, height: 800 },
];

/**
 * Waits until the page has drawn two frames and no finite CSS animation or transition is running (a
 * popup's or modal's fade-in, a grid laying itself out after a resize): what a screenshot should show,
 * without guessing a fixed time. Endless animations (a spinner, a pulsing dot) do not count. Gives up
 * silently after `timeoutMs`: it only decides when a picture is taken, never what a test asserts.
 */
export async function settled(page: Page, timeoutMs = 3_000): Promise<void> {
  await page.evaluate(SETTLED_SCRIPT.replace('LIMIT_MS', String(timeoutMs)));
}

/** Plain text, like STANDALONE_SCRIPT: the test transpiler's helpers (__name) are not in the page. */
const SETTLED_SCRIPT = `
  (async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const end = performance.now() + LIMIT_MS;
    for (;;) {
      await frame();
      await frame();
      const running = document.getAnimations().filter((a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
      const left = end - performance.now();
      if (running.length === 0 || left <= 0) return;
      await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, left))]);
    }
  })()
`;

export interface DeskScreenshotOptions {
  /** At least this long for the layout to settle after each resize, then until it has (settled). */
  settleMs?: number;
  /** Runs after each resize and before its screenshot (a hover, a popup, a check at that size). */
  prepare?: (size: DeskSize) => Promise<void>;
  fullPage?: boolean;
  /** Back to the large size afterwards. */
  restore?: boolean;
  dir?: string;
}

/**
 * Screenshots at both desk sizes (DESK_SIZES), as {name}-{width}x{height}.png, each once the page has
 * settled: the one way the e2e tests picture a screen at the desk's sizes.
 */
export async function deskScreenshots(
  page: Page,
  name: string,
  { settleMs = 0, prepare, fullPage = false, restore = false, dir }: DeskScreenshotOptions = {},
): Promise<void> {
  for (const size of DESK_SIZES) {
    await page.setViewportSize(size);
    if (settleMs > 0) await page.waitForTimeout(settleMs);
    await settled(page);
    if (prepare) await prepare(size);
    await screenshot(page, `${name}-${size.width}x${size.height}`, fullPage, dir);
  }
  if (restore) await page.setViewportSize(DESK_SIZES[0]);
}

/**
 * Waits until the page's path is the expected one: the navigation committed, not the new page's load
 * event (what the test does next waits for its own elements). Waiting for the load as well timed out
 * a sign-out check after 15 s ("waiting for navigation until load") on a machine running two suites
 * at once.
 */
export async function waitForPath(page: Page, pathname: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === pathname, { timeout: 15_000, waitUntil: 'commit' });
  } catch (error) {
    // Where the page is instead says which way a wrong turn went.
    throw new Error(`waiting for ${pathname}, the page is at ${new URL(page.url()).pathname}`, { cause: error });
  }
}

/**
 * Clicks `button` and waits for `shown` (a notice's text). The notices a save shows go by themselves:
 * the admin screens' success banner clears after 3000 ms (spec 001 §9), a saved user's dialog closes
 * after 2000 ms, and a busy machine can spend that long between a click and a wait started after it
 * (fresh-clone CI runs beside another suite did, on three screens): the wait starts before the click.
 * A notice with the same text still showing from an earlier action is waited out first, so that it
 * cannot answer for this one.
 */
export async function clickAndSee(button: Locator, shown: Locator): Promise<void> {
  await shown.waitFor({ state: 'hidden' });
  await Promise.all([shown.waitFor(), button.click()]);
}

/** clickAndSee for the admin screens' success banner showing `text`. */
export function clickForSuccess(page: Page, button: Locator, text: string | RegExp): Promise<void> {
  return clickAndSee(button, page.getByTestId('admin-success').getByText(text));
}
