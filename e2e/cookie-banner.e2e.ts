import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { E2E } from './support/fixture';
import { CookieBanner, type StoredConsent } from './pages/CookieBanner';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

const fresh = { consentGiven: false };

function assertRecent(consent: StoredConsent | null): asserts consent is StoredConsent {
  assert.ok(consent, 'a choice is stored');
  assert.equal(consent.necessary, true);
  const age = Date.now() - Date.parse(consent.timestamp);
  assert.ok(age >= 0 && age < 60_000, `timestamp ${consent.timestamp} is an ISO time from just now`);
  assert.equal(new Date(consent.timestamp).toISOString(), consent.timestamp);
}

/** After a reload the app has rendered (its heading is there) and the banner has not come back. */
async function assertStaysHiddenAfterReload(page: Page, banner: CookieBanner): Promise<void> {
  await page.reload();
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForTimeout(200);
  assert.equal(await banner.root.count(), 0, 'banner not shown once a choice is stored');
}

describe('cookie banner', () => {
  it('shows until a choice is made; Accept All stores every category and persists', async () => {
    await e2e.withPage(async (page) => {
      const banner = new CookieBanner(page);
      await page.goto('/');
      await banner.waitVisible();
      assert.equal(await banner.stored(), null);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await screenshot(page, 'cookie-banner');

      await banner.acceptAll.click();
      await banner.waitHidden();
      const stored = await banner.stored();
      assertRecent(stored);
      assert.deepEqual({ analytics: stored.analytics, functional: stored.functional }, { analytics: true, functional: true });
      await assertStaysHiddenAfterReload(page, banner);
    }, fresh);
  });

  it('Reject Non-Essential stores analytics and functional as false', async () => {
    await e2e.withPage(async (page) => {
      const banner = new CookieBanner(page);
      await page.goto('/terms');
      await banner.rejectNonEssential.click();
      await banner.waitHidden();
      const stored = await banner.stored();
      assertRecent(stored);
      assert.deepEqual({ analytics: stored.analytics, functional: stored.functional }, { analytics: false, functional: false });
      await assertStaysHiddenAfterReload(page, banner);
    }, fresh);
  });

  it('Manage Preferences keeps Essential on, saves the chosen toggles, and Back returns to the notice', async () => {
    await e2e.withPage(async (page) => {
      const banner = new CookieBanner(page);
      await page.goto('/');
      await banner.managePreferences.click();
      await banner.savePreferences.waitFor();

      assert.equal(await banner.essential.isChecked(), true);
      assert.equal(await banner.essential.isDisabled(), true, 'Essential is locked');
      assert.equal(await banner.analytics.isChecked(), false);
      assert.equal(await banner.functional.isChecked(), false);
      for (const [link, href] of [
        [banner.cookiePolicyLink, '/cookie-policy'],
        [banner.privacyPolicyLink, '/privacy-policy'],
      ] as const) {
        assert.equal(await link.getAttribute('href'), href);
        assert.equal(await link.getAttribute('target'), '_blank', `${href} opens in a new tab`);
      }
      await page.getByRole('heading', { level: 1 }).waitFor();
      await screenshot(page, 'cookie-preferences');

      await banner.back.click();
      await banner.acceptAll.waitFor();
      assert.equal(await banner.stored(), null, 'Back stores nothing');

      await banner.managePreferences.click();
      await banner.analytics.check({ force: true });
      assert.equal(await banner.analytics.isChecked(), true);
      await banner.savePreferences.click();
      await banner.waitHidden();
      const stored = await banner.stored();
      assertRecent(stored);
      assert.deepEqual({ analytics: stored.analytics, functional: stored.functional }, { analytics: true, functional: false });
      await assertStaysHiddenAfterReload(page, banner);
    }, fresh);
  });

  it('can be reopened from the Cookie Policy with the stored choice, and changed', async () => {
    await e2e.withPage(async (page) => {
      const banner = new CookieBanner(page);
      await page.goto('/cookie-policy');
      await banner.acceptAll.click();
      await banner.waitHidden();

      await page.getByRole('button', { name: 'Change cookie preferences' }).click();
      await banner.savePreferences.waitFor();
      assert.equal(await banner.analytics.isChecked(), true);
      assert.equal(await banner.functional.isChecked(), true);
      await banner.functional.uncheck({ force: true });
      await banner.savePreferences.click();
      await banner.waitHidden();
      const stored = await banner.stored();
      assertRecent(stored);
      assert.deepEqual({ analytics: stored.analytics, functional: stored.functional }, { analytics: true, functional: false });
    }, fresh);
  });

  it('asks again when the stored value is not a valid choice', async () => {
    await e2e.withPage(async (page) => {
      const banner = new CookieBanner(page);
      await page.goto('/');
      await banner.waitVisible();
      await page.evaluate(() => window.localStorage.setItem('cookieConsent', 'accepted'));
      await page.reload();
      await banner.waitVisible();
    }, fresh);
  });
});
