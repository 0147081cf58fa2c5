/// <reference lib="dom" />
// Reference loads that fail say so, 'Security Master API failed: {status}' and likewise
// for the other eight reference calls (spec 000 §7, §8), while the screen keeps working with what it has.
// The browser is made to fail the calls (page.route answers 500/503 or drops the connection).
// Screenshots at 1600x1000 and 1280x800.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { OrderActionsScreen } from './pages/AuditPages';
import { deskScreenshots } from './support/browser';
import { blotterDesk } from './support/blotter-desk';
import { until } from '../tests/support/until';

const { e2e, signInToBlotter, sendOrder } = blotterDesk('RL');

/** Answers `status` (or drops the connection) for every GET of exactly this path. */
async function failCall(page: Page, path: string, status: number | 'network'): Promise<void> {
  await page.route(
    (url) => url.pathname === path,
    (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      if (status === 'network') return route.abort('failed');
      return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ error: 'Reference data unavailable' }) });
    },
  );
}

describe('failed reference loads say so', () => {
  it("blotter: the header says 'Client Connectors API failed: 503' and 'Latest Prices API failed: 500' in one line, and the desk works on", async () => {
    await sendOrder({ qty: '2', price: '27000' }, 'BEFORE');
    await e2e.withPage(async (page) => {
      await failCall(page, '/api/client-connectors', 503);
      await failCall(page, '/api/trade-history/latest-prices', 500);
      const blotter = await signInToBlotter(page);
      const notice = page.getByTestId('blotter').getByTestId('reference-load-error');
      await notice.waitFor();
      assert.equal((await notice.innerText()).trim(), 'Client Connectors API failed: 503 · Latest Prices API failed: 500');
      // No layout jump: the header keeps its height; the orders still arrive.
      const header = page.getByTestId('blotter').locator('> div').first();
      assert.equal(Math.round((await header.boundingBox())!.height), 44, 'header height unchanged');
      const { id } = await sendOrder({ qty: '3', price: '27000' }, 'AFTER');
      await blotter.row(id).waitFor();
      await deskScreenshots(page, 'reference-loads-blotter', {
        prepare: async ({ width: w }) => {
          assert.equal(Math.round((await header.boundingBox())!.height), 44, `header height at ${w} px`);
          assert.ok(await page.getByTestId('live-dot').isVisible(), `live dot visible at ${w} px`);
          assert.ok(await page.getByTestId('users-online').isVisible(), `users online visible at ${w} px`);
        },
      });

      // Order Actions: initials instead of logos, the footer says why.
      const screen = new OrderActionsScreen(page);
      await screen.goto();
      const footerNotice = page.getByTestId('order-actions-page').getByTestId('reference-load-error');
      await footerNotice.waitFor();
      assert.equal((await footerNotice.innerText()).trim(), 'Client Connectors API failed: 503');
      await deskScreenshots(page, 'reference-loads-order-actions');
    });
  });

  it("FIX Message Specs and FIX Client Defaults: 'FIX Fields API failed: 500', 'FIX Enums API failed: 503', 'Client Connectors API failed: 503'", async () => {
    await e2e.withPage(async (page) => {
      await failCall(page, '/api/fix-fields', 500);
      await failCall(page, '/api/fix-enums', 503);
      await signInToBlotter(page, 'admin');
      await page.goto('/config/fix-message-specs');
      const notice = page.getByTestId('reference-load-error');
      await notice.getByText('FIX Fields API failed: 500', { exact: true }).waitFor();
      await notice.getByText('FIX Enums API failed: 503', { exact: true }).waitFor();
      await deskScreenshots(page, 'reference-loads-fix-message-specs');

      await failCall(page, '/api/client-connectors', 503);
      await page.goto('/config/fix-client-defaults');
      await notice.getByText('Client Connectors API failed: 503', { exact: true }).waitFor();
      await notice.getByText('FIX Enums API failed: 503', { exact: true }).waitFor();
      await deskScreenshots(page, 'reference-loads-fix-client-defaults');
    });
  });

  it("FIX Client Simulator: 'Security Master API failed: 500' (the status, not the server's message), a dropped connection as 'network error'", async () => {
    await e2e.withPage(async (page) => {
      await failCall(page, '/api/security-master', 500);
      await failCall(page, '/api/client-connectors', 'network');
      await signInToBlotter(page);
      await page.goto('/fix-test-client');
      const notice = page.getByTestId('reference-load-error');
      await notice.getByText('Client Connectors API failed: network error', { exact: true }).waitFor();
      await notice.getByText('Security Master API failed: 500', { exact: true }).waitFor();
      assert.equal(await page.getByText('Reference data unavailable').count(), 0, "the server's message is not the text");
      await deskScreenshots(page, 'reference-loads-fix-test-client');

      await page.goto('/fix-client');
      const line = page.getByTestId('reference-load-error');
      // The two loads fail one after the other: the line is read once it names the second as well.
      await until('the line naming both failed loads', async () => (await line.innerText()).includes('Security Master'));
      assert.equal((await line.innerText()).trim(), 'Client Connectors API failed: network error · Security Master API failed: 500');
      await deskScreenshots(page, 'reference-loads-fix-client');
    });
  });
  it("FIX Specification and the Broker Simulator: 'Broker Information API failed: 500', 'Latest Prices API failed: 503'", async () => {
    await e2e.withPage(async (page) => {
      await failCall(page, '/api/broker-information', 500);
      await failCall(page, '/api/trade-history/latest-prices', 503);
      await signInToBlotter(page);
      await page.goto('/fix-specification');
      const notice = page.getByTestId('reference-load-error');
      await notice.getByText('Broker Information API failed: 500', { exact: true }).waitFor();
      await deskScreenshots(page, 'reference-loads-fix-specification');

      await page.goto('/broker-simulator');
      await notice.getByText('Latest Prices API failed: 503', { exact: true }).waitFor();
      await deskScreenshots(page, 'reference-loads-broker-simulator');
    });
  });
});
