import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { screenshot, waitForPath } from './support/browser';
import { E2E } from './support/fixture';
import { Footer } from './pages/Footer';
import { LegalPage } from './pages/LegalPage';
import { LoginPage } from './pages/LoginPage';
import { NavBar } from './pages/NavBar';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The desktop wrapper announces itself in the user agent (Chromium cannot emulate display-mode). */
const DESKTOP_SHELL_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36 FixDeskDesktop/1.0';

describe('public pages', () => {
  it('landing page presents the product, its three benefits and the footer', async () => {
    await e2e.withPage(async (page) => {
      const nav = new NavBar(page);
      const footer = new Footer(page);
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'FIX order management for voice and chat based OTC brokers' }).waitFor();
      assert.match(await page.locator('main').innerText(), /connects systematic, low-touch clients to traditional brokers/);
      for (const benefit of ['Digital integration', 'Workflow preservation', 'Operational efficiency']) {
        await page.getByRole('heading', { level: 3, name: benefit }).waitFor();
      }
      await nav.signInButton.waitFor();
      assert.deepEqual(await nav.mainNav.getByRole('link').allTextContents(), ['Home'], 'signed out: only Home is linked');

      for (const [name, href] of [
        ['Privacy Policy', '/privacy-policy'],
        ['Cookie Policy', '/cookie-policy'],
        ['Terms and Conditions', '/terms'],
      ] as const) {
        assert.equal(await footer.link(name).getAttribute('href'), href);
      }
      for (const name of ['Support', 'Privacy enquiries', 'Data Protection Officer']) {
        assert.match((await footer.link(name).getAttribute('href')) ?? '', /^mailto:[^@\s]+@[^@\s]+$/);
      }
      const footerText = await footer.root.innerText();
      assert.match(footerText, new RegExp(`© ${new Date().getFullYear()} FixDesk`));
      assert.match(footerText, /GDPR compliant/i);
      await footer.root.getByText('About', { exact: true }).waitFor();
      await screenshot(page, 'landing');
      await screenshot(page, 'landing-full', true);
    });
  });

  it('legal pages show today as their last-updated date', async () => {
    await e2e.withPage(async (page) => {
      const legal = new LegalPage(page);
      for (const [path, title, shot] of [
        ['/privacy-policy', 'Privacy Policy', 'privacy-policy'],
        ['/cookie-policy', 'Cookie Policy', 'cookie-policy'],
        ['/terms', 'Terms and Conditions', 'terms'],
      ] as const) {
        await legal.goto(path);
        assert.equal(await legal.heading.textContent(), title);
        assert.equal(await legal.lastUpdated.getAttribute('data-date'), localToday(), `${path} last updated today`);
        assert.match((await legal.lastUpdated.textContent()) ?? '', /^Last updated: \d{1,2} \w+ \d{4}$/);
        assert.equal(await page.title(), `${title} · FixDesk`);
        await screenshot(page, shot);
      }
    });
  });

  it('cookie policy lists every cookie with its duration', async () => {
    await e2e.withPage(async (page) => {
      const legal = new LegalPage(page);
      await legal.goto('/cookie-policy');
      const rows = page.getByRole('table', { name: 'Cookies we use' }).locator('tbody tr');
      const table = (
        await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')))
      ).map((cells) => [cells[0], cells[3]]);
      assert.deepEqual(table, [
        ['sessionId', 'Session'],
        ['authToken', '24 hours'],
        ['cookieConsent', '1 year'],
        ['userPreferences', '1 year'],
        ['analytics_id', '2 years'],
      ]);
    });
  });

  it('terms state the audience, minimum age, uptime target, notice period and the open placeholders', async () => {
    await e2e.withPage(async (page) => {
      const legal = new LegalPage(page);
      await legal.goto('/terms');
      const text = await page.locator('article').innerText();
      assert.match(text, /financial institutions, brokers and qualified entities/);
      assert.match(text, /at least 18 years old/);
      assert.match(text, /99\.9% uptime/);
      assert.match(text, /at least 30 days' notice of material changes/);
      assert.match(text, /\[JURISDICTION\]/);
      assert.match(text, /\[ARBITRATION BODY\]/);
    });
  });

  it('an unknown address shows a not-found page with a way home', async () => {
    await e2e.withPage(async (page) => {
      await page.goto('/no-such-screen');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByRole('link', { name: 'Back to home' }).click();
      await waitForPath(page, '/');
    });
  });

  it('the footer links reach the legal pages from the keyboard', async () => {
    await e2e.withPage(async (page) => {
      const footer = new Footer(page);
      await page.goto('/');
      await footer.link('Terms and Conditions').focus();
      await page.keyboard.press('Enter');
      await waitForPath(page, '/terms');
      await page.getByRole('heading', { level: 1, name: 'Terms and Conditions' }).waitFor();
    });
  });
});

describe('desktop shell', () => {
  it('skips the landing page, uses the compact bar without a footer, and logs out to sign-in', async () => {
    await e2e.withPage(
      async (page) => {
        const nav = new NavBar(page);
        const login = new LoginPage(page);
        await page.goto('/');
        await waitForPath(page, '/login');
        const bar = await nav.root.boundingBox();
        assert.equal(bar?.height, 60, 'compact bar is 60 px tall');
        assert.equal(await page.getByRole('contentinfo').count(), 0, 'no footer in the desktop shell');

        await login.signIn('broker', e2e.server.demoPassword);
        await nav.logoutButton.waitFor();
        assert.match(await nav.root.innerText(), /broker/);
        await screenshot(page, 'compact-bar');

        await nav.logoutButton.click();
        await waitForPath(page, '/login');
        await login.username.waitFor();
      },
      { userAgent: DESKTOP_SHELL_USER_AGENT },
    );
  });
});
