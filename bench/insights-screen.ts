// The Insights screen in Chromium (issue 31: "the screen usable within 1.5 s"), on the server the
// benchmark runs, signed in as a broker: from the navigation's start to the first frame after every
// chart panel shows its figures with none loading, on the screen's default range (the last 7 days);
// then from choosing "Last 30 days" to the same. A new browser context each sample: nothing cached.
import type { Page } from 'playwright-core';
import { launchBrowser, newContext } from '../e2e/support/browser';
import { INSIGHT_PANELS } from '../e2e/pages/InsightsPage';
import { signedInStorage } from './signed-in-page';

export interface ScreenTimes {
  /** Opening /insights: navigation start → usable, ms. */
  open: number[];
  /** Where each opening's time went, from the page's own resource timings (ms since navigation start). */
  openPhases: OpeningPhases[];
  /** Choosing "Last 30 days" → usable, ms. */
  month: number[];
}

/**
 * Plain text, run in the page: window.__insightsUsable resolves with performance.now() one frame after
 * the first in which every panel shows its figures and none is loading (the charts draw in the frame
 * after they are given their data); with `afterLoading`, only once a panel was seen loading (a new range
 * keeps the old figures up while it loads).
 */
const watchScript = (afterLoading: boolean) => `(() => {
  window.__insightsUsable = new Promise((resolve) => {
    const ids = ${JSON.stringify(INSIGHT_PANELS)};
    let seen = ${!afterLoading};
    const tick = () => {
      const loading = ids.some((id) => document.querySelector('[data-testid="insight-' + id + '-loading"]'));
      if (loading) seen = true;
      const shown = ids.every((id) => document.querySelector('[data-testid="insight-' + id + '-summary"] [data-testid^="insight-"]'));
      if (seen && !loading && shown) requestAnimationFrame(() => resolve(performance.now()));
      else requestAnimationFrame(tick);
    };
    tick();
  });
})()`;

/**
 * An opening's milestones, ms since navigation start: the code in (the last byte of the scripts asked for
 * before the figures were), the figures asked (the first /api/insights request sent) and answered (the
 * last answer's last byte); usable is ScreenTimes.open.
 */
export interface OpeningPhases {
  codeIn: number;
  asked: number;
  answered: number;
}

const phasesOf = (page: Page): Promise<OpeningPhases> =>
  page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const charts = entries.filter((e) => new URL(e.name).pathname.startsWith('/api/insights/'));
    const asked = Math.min(...charts.map((e) => e.startTime));
    const scripts = entries.filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'));
    return {
      codeIn: Math.max(0, ...scripts.filter((e) => e.startTime < asked).map((e) => e.responseEnd)),
      asked,
      answered: Math.max(...charts.map((e) => e.responseEnd)),
    };
  });

const usableAt = (page: Page) => page.evaluate(() => (window as unknown as { __insightsUsable: Promise<number> }).__insightsUsable);

export async function measureInsightsScreen(url: string, session: { token: string; user: unknown }, samples: number): Promise<ScreenTimes> {
  const browser = await launchBrowser();
  const times: ScreenTimes = { open: [], openPhases: [], month: [] };
  try {
    for (let i = 0; i < samples + 1; i++) {
      const context = await newContext(browser, url, { timezoneId: 'UTC' });
      try {
        context.setDefaultTimeout(60_000);
        await context.addInitScript({ content: signedInStorage(session) + watchScript(false) });
        const page = await context.newPage();
        await page.setViewportSize({ width: 1600, height: 1000 });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto('/insights');
        const open = await usableAt(page);
        const phases = await phasesOf(page);
        await page.getByTestId('insights-range').click();
        const option = page.getByRole('option', { name: 'Last 30 days', exact: true });
        await option.waitFor();
        await page.evaluate(watchScript(true));
        const chosen = await page.evaluate(() => performance.now());
        await option.click();
        const month = (await usableAt(page)) - chosen;
        if (errors.length) throw new Error(`the Insights screen failed: ${errors.join('; ')}`);
        for (const id of INSIGHT_PANELS)
          if (await page.getByTestId(`insight-${id}-error`).count()) throw new Error(`the Insights screen shows an error in ${id}`);
        // The first sample warms the server (its statements' plans), not recorded.
        if (i > 0) {
          times.open.push(open);
          times.openPhases.push(phases);
          times.month.push(month);
        }
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return times;
}
