// Issue 15 part B in the browser: the live session console (on its temporary admin page) shows a
// logged-on test client, logs it out with a typed reason after previewing what happens, sets the next
// target number while it is logged out (the preview says what the next Logon will carry), and the
// TLS/SSL tab body issues a certificate. Screenshots at 1600x1000 and 1280x800.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createSessionCodec, Initiator, MemoryLogFactory, MemoryStoreFactory } from '@fixdesk/fix';
import { screenshot, waitForPath } from './support/browser';
import { E2E } from './support/fixture';
import { LoginPage } from './pages/LoginPage';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

const COMP = 'E2E_CONSOLE';
const SIZES = [
  { width: 1600, height: 1000 },
  { width: 1280, height: 800 },
] as const;

async function signIn(page: Page, username: 'admin' | 'broker', path: string): Promise<void> {
  await page.goto(path);
  await waitForPath(page, '/login');
  await new LoginPage(page).signIn(username, username === 'admin' ? e2e.server.adminPassword : e2e.server.demoPassword);
}

/** Our initiator as the client, not reconnecting once logged out (as a client whose desk told it to stop). */
async function logOnClient(logs: MemoryLogFactory): Promise<{ initiator: Initiator; loggedOn: () => boolean }> {
  let loggedOn = false;
  const initiator = await Initiator.start({
    host: '127.0.0.1',
    port: e2e.server.fixPort,
    sessionID: { beginString: 'FIX.4.4', senderCompID: COMP, targetCompID: 'FIXDESK' },
    settings: { heartBtIntSec: 30 },
    storeFactory: new MemoryStoreFactory(),
    codec: createSessionCodec(),
    logFactory: logs,
    reconnect: false,
    app: { onLogon: () => void (loggedOn = true), onLogout: () => void (loggedOn = false), fromApp: () => undefined },
  });
  const until = Date.now() + 10_000;
  while (!loggedOn) {
    if (Date.now() > until) throw new Error('the test client did not log on');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { initiator, loggedOn: () => loggedOn };
}

describe('live session console', () => {
  before(async () => {
    const token = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const r = await fetch(`${e2e.server.baseUrl}/api/client-connectors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ comp_id: COMP, execution_id_prefix: 'E2C', client_name: 'Console Test Client', company_name: 'Console Test Ltd', trading_days: 'M,T,W,T,F,S,S', start_time: '00:00:00', end_time: '23:59:59', timezone: 'UTC' }),
    });
    assert.equal(r.status, 200, await r.text());
  });

  it('is for administrators only: a broker is sent home', async () => {
    await e2e.withPage(async (page) => {
      await signIn(page, 'broker', '/config/session-console');
      await waitForPath(page, '/');
    });
  });

  it('logs a client out with a reason, then sets the next target number while it is logged out', async () => {
    const logs = new MemoryLogFactory();
    const client = await logOnClient(logs);
    try {
      await e2e.withPage(async (page) => {
        await page.setViewportSize(SIZES[0]);
        await signIn(page, 'admin', '/config/session-console');
        await waitForPath(page, '/config/session-console');
        await page.getByRole('combobox', { name: 'Client connector' }).click();
        await page.getByRole('option', { name: new RegExp(`^${COMP}`) }).click();
        const console_ = page.getByTestId('session-console');
        await console_.getByText('Logged on', { exact: true }).waitFor();
        await page.getByTestId('tls-status').getByText('Disabled').waitFor();
        // Number changes are not offered while the client is logged on.
        assert.equal(await console_.getByRole('button', { name: 'Set next target number' }).isDisabled(), true);
        assert.equal(await console_.getByRole('button', { name: 'Reset sequence numbers' }).isDisabled(), true);
        const numbers = (await page.getByTestId('console-numbers').textContent())!;
        const [nextSender, nextTarget] = numbers.split('/').map((n) => Number(n.trim()));
        for (const size of SIZES) {
          await page.setViewportSize(size);
          await page.waitForTimeout(300);
          await screenshot(page, `session-console-logged-on-${size.width}x${size.height}`);
        }
        await page.setViewportSize(SIZES[0]);

        // Logout: previewed, and only with a typed reason.
        await console_.getByRole('button', { name: 'Logout' }).click();
        const dialog = page.getByRole('dialog', { name: `Logout · ${COMP}` });
        await dialog.getByTestId('action-preview').getByText(`the next Logon will carry 34=${nextTarget! + 1} and our answer 34=${nextSender! + 1}`, { exact: false }).waitFor();
        const confirm = dialog.getByRole('button', { name: 'Logout' });
        assert.equal(await confirm.isDisabled(), true, 'no reason typed yet');
        await dialog.getByLabel(/^Reason/).fill('End of day <b>maintenance</b>');
        await page.waitForTimeout(300);
        await screenshot(page, 'session-console-logout-preview');
        await confirm.click();
        await page.getByTestId('console-success').waitFor();
        await console_.getByText('Logged out', { exact: true }).waitFor();
        // As previewed: our Logout and the client's answer each took one number.
        await page.getByTestId('console-numbers').getByText(`${nextSender! + 1} / ${nextTarget! + 1}`).waitFor();
        const until = Date.now() + 5000;
        while (client.loggedOn() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        assert.equal(client.loggedOn(), false);
        const logout = logs.lines.find((l) => l.kind === 'in' && l.text.includes('\x0135=5\x01'));
        assert.ok(logout?.text.includes('\x0158=End of day <b>maintenance</b>\x01'), logout?.text);
        // The reason is shown as text in the history, not as markup.
        await console_.getByRole('table', { name: 'Recent console actions' }).getByText('End of day <b>maintenance</b>').waitFor();

        // Set the next target number while logged out: the preview names what the next Logon carries.
        await console_.getByRole('button', { name: 'Set next target number' }).click();
        const setDialog = page.getByRole('dialog', { name: `Set next target number · ${COMP}` });
        await setDialog.getByLabel(/^Next target number/).fill('25');
        await setDialog.getByTestId('action-preview').getByText('the next Logon will carry 34=25', { exact: false }).waitFor();
        await setDialog.getByLabel(/^Reason/).fill('Client restored its store at 25');
        await page.waitForTimeout(300);
        await screenshot(page, 'session-console-set-target-preview');
        await setDialog.getByRole('button', { name: 'Set next target number' }).click();
        await page.getByTestId('console-numbers').getByText(new RegExp(`/ 25$`)).waitFor();
        for (const size of SIZES) {
          await page.setViewportSize(size);
          await page.waitForTimeout(300);
          await screenshot(page, `session-console-logged-out-${size.width}x${size.height}`);
        }
      });
    } finally {
      await client.initiator.stop();
    }
  });

  it('issues a certificate from the TLS/SSL tab body and shows the key only on demand', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(SIZES[0]);
      await signIn(page, 'admin', '/config/session-console');
      await page.getByRole('combobox', { name: 'Client connector' }).click();
      await page.getByRole('option', { name: new RegExp(`^${COMP}`) }).click();
      const panel = page.getByTestId('tls-panel');
      await panel.getByLabel('Common name').waitFor();
      assert.equal(await panel.getByLabel('Country').inputValue(), 'US');
      await panel.getByLabel('Country').fill('USA1');
      assert.equal(await panel.getByLabel('Country').inputValue(), 'US', 'two letters at most');
      await panel.getByLabel('Common name').fill('');
      await panel.getByRole('button', { name: 'Generate certificates' }).click();
      await panel.getByText('Common name is required').waitFor();
      await panel.getByLabel('Common name').fill('console-client.example');
      await panel.getByRole('button', { name: 'Generate certificates' }).click();
      await page.getByTestId('tls-success').getByText(/^Certificates generated and stored in database! Valid until: \d{4}-\d{2}-\d{2}$/).waitFor();
      await page.getByTestId('tls-status').getByText('Enabled').waitFor();
      await panel.getByLabel('Client certificate').waitFor();
      assert.match(await panel.getByLabel('Desk CA certificate').inputValue(), /^-----BEGIN CERTIFICATE-----/);
      assert.equal(await panel.getByLabel('Client private key').count(), 0, 'the key is hidden until asked for');
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.waitForTimeout(300);
        await screenshot(page, `tls-panel-${size.width}x${size.height}`);
      }
      await panel.getByRole('button', { name: 'Show private key' }).click();
      assert.match(await panel.getByLabel('Client private key').inputValue(), /^-----BEGIN PRIVATE KEY-----/);
      await panel.getByRole('button', { name: 'Session config' }).click();
      await panel.getByLabel('QuickFIX settings file').getByText(`SenderCompID=${COMP}`, { exact: false }).waitFor();
      await page.setViewportSize(SIZES[0]);
      await page.waitForTimeout(300);
      await screenshot(page, 'tls-panel-key-and-config', true);
    });
  });
});
