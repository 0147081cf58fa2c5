// Defects a new administrator hits, continued from new-administrator.e2e.ts: the simulator's quantity
// above its range, the account's password change, the shared validation of LEI, MIC, currency and
// session counts, refusals worded for people, and refused prices and reasons shown as they were.
// Screenshots at 1600x1000 and 1280x800.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UserText } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { DESK_SIZES, type DeskScreenshotOptions, deskScreenshots } from './support/browser';
import { E2E } from './support/fixture';
import { BlotterPage } from './pages/BlotterPage';
import { SimulatorClientPage } from './pages/SimulatorPages';

process.env.TEST_CLIENT_PORTS = 'auto';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

const PW = 'Harbour-Lights-77';

const SHOTS: DeskScreenshotOptions = { restore: true };

describe('an administrator new to the desk, continued', () => {
  it('7. says so when the simulator quantity is above 1000 rather than sending 1000', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'broker', { at: '/fix-test-client' });
      const sim = new SimulatorClientPage(page);
      const qty = sim.entry.number('Quantity');
      await qty.waitFor();
      await qty.fill('2000');
      await qty.blur();
      await page.waitForTimeout(200);
      assert.equal(await qty.inputValue(), '2,000', 'the typed quantity stays');
      await sim.entry.root.getByText('Quantity must be between 1 and 1000').waitFor();
      assert.doesNotMatch(await sim.entry.previewText.innerText(), /\|38=1000\|/, 'the preview does not send 1000');
      // Send refuses it, saying why (before it would even ask for a running FIX client).
      await sim.entry.send.click();
      await sim.entry.error.getByText('Quantity must be between 1 and 1000').waitFor();
      await deskScreenshots(page, 'new-admin-simulator-quantity', SHOTS);
    });
  });

  it('8. refreshes the sessions after a password change, names the empty fields, refuses the same password (server too)', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const created = await e2e.api('POST', '/api/users', admin, {
      username: 'acct.user',
      email: 'acct.user@desk.example',
      password: PW,
      role: 'viewer',
      user_type: 'client',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const other = await e2e.apiLogin('acct.user', PW);
    const same = await e2e.api('POST', '/api/account/password', other, { current_password: PW, new_password: PW });
    assert.equal(same.status, 400, JSON.stringify(same.body));
    assert.equal(same.body.field, 'new_password');
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'acct.user', { at: '/account', password: PW });
      const sessions = page.getByTestId('account-session');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="account-session"]').length === 2);
      const form = page.getByRole('form', { name: 'Change password' });
      await form.getByRole('button', { name: 'Change Password' }).click();
      await form.getByText('Current password is required').waitFor();
      await form.getByText('New password is required').waitFor();
      assert.equal(await form.getByText(/for new users/).count(), 0);
      await deskScreenshots(page, 'new-admin-account-empty-submit', SHOTS);
      await form.getByLabel('Current password').fill(PW);
      await form.getByLabel(/^New password/).fill(PW);
      await form.getByLabel('Confirm new password').fill(PW);
      await form.getByRole('button', { name: 'Change Password' }).click();
      await form.getByText(/must differ from the current password/).waitFor();
      await form.getByLabel(/^New password/).fill('Quiet-Harbour-Tide-42');
      await form.getByLabel('Confirm new password').fill('Quiet-Harbour-Tide-42');
      await form.getByRole('button', { name: 'Change Password' }).click();
      await page.getByTestId('password-result').waitFor();
      // The other session was signed out: the list says so without a reload.
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="account-session"]').length === 1, undefined, {
        timeout: 5000,
      });
      assert.equal(await sessions.count(), 1);
      await deskScreenshots(page, 'new-admin-account-password-changed', SHOTS);
    });
  });

  it('9. validates LEI check digits, a MIC, a currency and session counts with the shared schemas (form and server agree)', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    // Server: each refused with the field named.
    const badLei = await e2e.api('POST', '/api/broker-information', admin, {
      company_name: 'Check Digit Ltd',
      lei: '5493001KJTIIGC8Y1R13',
    });
    assert.equal(badLei.status, 400, JSON.stringify(badLei.body));
    assert.equal(badLei.body.field, 'lei');
    const goodLei = await e2e.api('POST', '/api/broker-information', admin, {
      company_name: 'Check Digit Ltd',
      lei: '5493001KJTIIGC8Y1R12',
    });
    assert.equal(goodLei.status, 200, JSON.stringify(goodLei.body));
    const badCurrency = await e2e.api('POST', '/api/security-master', admin, {
      symbol: 'CURX',
      instrument_name: 'Currency check',
      instrument_type: 'Commodities',
      currency: 'ABC',
    });
    assert.equal(badCurrency.status, 400, JSON.stringify(badCurrency.body));
    assert.equal(badCurrency.body.field, 'currency');
    const badMic = await e2e.api('POST', '/api/client-capabilities', admin, {
      clientconnectors_id: 1,
      asset_class: 'FUTURES',
      market_identifier: 'XSE',
    });
    assert.equal(badMic.status, 400, JSON.stringify(badMic.body));
    assert.equal(badMic.body.field, 'market_identifier');
    for (const count of ['abc', '1.5']) {
      const r = await e2e.api('POST', '/api/client-sessions', admin, {
        comp_id: 'SGX_CLIENT_1',
        session_start: '2026-01-05 09:00',
        messages_sent: count,
      });
      assert.equal(r.status, 400, `${count}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.field, 'messages_sent');
    }
    // The forms say the same before sending.
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/broker-information' });
      await page.getByRole('button', { name: 'Add Broker' }).click();
      const form = page.getByRole('form', { name: 'Add Broker' });
      await form.getByRole('textbox', { name: 'Company Name' }).fill('Form Check Ltd');
      await form.getByRole('tab', { name: 'FIX Party Info' }).click();
      await form.getByRole('textbox', { name: 'LEI' }).fill('5493001KJTIIGC8Y1R13');
      await form.getByRole('button', { name: 'Create Broker' }).click();
      await form.getByText(/check digits that do not match/).waitFor();
      await deskScreenshots(page, 'new-admin-broker-lei-check-digits', SHOTS);
      await page.keyboard.press('Escape');

      await page.goto('/config/client-sessions');
      await page.getByRole('button', { name: 'Add Session' }).click();
      const session = page.getByRole('form', { name: 'Add Session' });
      await session.getByLabel('Messages Sent').fill('1.5');
      await session.getByRole('button', { name: 'Add Session' }).click();
      await session.getByText(/Messages Sent must be a whole number/).waitFor();
      await deskScreenshots(page, 'new-admin-session-count', SHOTS);
    });
  });

  it('10. shows a price refused off the tick as it was sent, and the reason text on the blotter', async () => {
    const client = new TestFixClient('SGX_CLIENT_1');
    await client.connect(e2e.server.fixPort);
    try {
      const body = newOrderSingle('I33-TICK-1', { qty: '5', price: '12.345' });
      await client.send('D', body);
      const refusal = await client.waitForReport('I33-TICK-1', (m) => m.get(150) === '8');
      const text = refusal.get(58) ?? '';
      assert.ok(text.length > 0, 'the refusal says why');
      await e2e.withPage(async (page) => {
        await page.setViewportSize(DESK_SIZES[0]);
        await e2e.signIn(page, 'broker', { at: '/orders' });
        const blotter = new BlotterPage(page);
        const row = page.locator('.ag-row', { hasText: 'Refused at intake' }).first();
        await row.waitFor();
        const status = row.locator('[col-id="status"]');
        await status.getByText(text.slice(0, 20), { exact: false }).waitFor();
        void blotter;
        await deskScreenshots(page, 'new-admin-blotter-refusal-text', SHOTS);
      });
    } finally {
      await client.stop();
    }
  });

  it('11. words refusals for people: the field by its name, no "Invalid body:", no zod wording, no API path', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const short = await e2e.api('POST', '/api/users', admin, {
      username: 'short.pw',
      email: 'short.pw@desk.example',
      password: 'short-pw-1',
      role: 'viewer',
      user_type: 'client',
    });
    assert.equal(short.status, 400);
    assert.equal(short.body.message, 'Password must have at least 12 characters');
    const port = await e2e.api('POST', '/api/client-connectors', admin, { comp_id: 'PORT_X', execution_id_prefix: 'PX', test_port: 70000 });
    assert.equal(port.status, 400);
    assert.equal(port.body.field, 'test_port');
    assert.equal(port.body.message, 'Test port must be at most 65535');
    const unknown = await e2e.api('POST', '/api/users', admin, {
      username: 'u.x',
      email: 'u.x@desk.example',
      password: PW,
      is_admin: true,
    });
    // A client user to edit below (as the first file's Add User test makes one).
    const reader = await e2e.api('POST', '/api/users', admin, {
      username: 'ops.reader',
      email: 'ops.reader@desk.example',
      password: PW,
      role: 'viewer',
      user_type: 'client',
    });
    assert.equal(reader.status, 200, JSON.stringify(reader.body));
    assert.equal(unknown.status, 400);
    assert.doesNotMatch(unknown.body.message ?? '', /^Invalid/);
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
      await page.locator('#main-content').getByRole('button', { name: 'Add Connector' }).click();
      const add = page.getByRole('form', { name: 'Add Client Connector' });
      await add.getByLabel('Component ID').fill('PORT_X');
      await add.getByLabel('Execution ID Prefix').fill('PX');
      await add.getByRole('tab', { name: 'Connection', exact: true }).click();
      await add.getByLabel('Test Port').fill('70000');
      await add.getByRole('button', { name: 'Add Connector' }).click();
      await add.getByText('Test Port must be at most 65535').waitFor();
      assert.equal(await add.getByText(/Too big|expected number/).count(), 0);
      await deskScreenshots(page, 'new-admin-connector-test-port', SHOTS);

      // Errors under the field: each of the server's problems under its own field, not the first only.
      await page.goto('/config/user-management');
      const grid = page.getByRole('region', { name: 'Users' });
      await grid.getByRole('button', { name: 'Edit user ops.reader' }).click();
      const form = page.getByRole('form', { name: 'Edit User ops.reader' });
      await form.getByRole('combobox', { name: 'User Type' }).click();
      await page.getByRole('option', { name: 'Broker/Trader', exact: true }).click();
      await form.getByRole('button', { name: 'Save Changes' }).click();
      for (const text of [UserText.brokerBranch, UserText.traderId, UserText.traderFullName]) await form.getByText(text).waitFor();
      await deskScreenshots(page, 'new-admin-user-broker-rule-under-fields', SHOTS);
    });
  });

  it("10. shows the simulator's refused price as it was sent (12.345, not 12.35)", async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'broker', { at: '/fix-test-client' });
      const sim = new SimulatorClientPage(page);
      await sim.goto();
      await sim.start.click();
      await page.locator('[data-testid="fix-client-status"]', { hasText: /^Connected$/ }).waitFor();
      await sim.entry.number('Limit price').fill('12.345');
      const banner = await sim.entry.sendAndConfirm();
      const clOrdId = /ClOrdID (\S+)\)/.exec(banner)?.[1] ?? '';
      const row = sim.sentOrderRow(clOrdId);
      await row.getByTestId('sent-order-status').getByText('Rejected').waitFor({ timeout: 20_000 });
      assert.match(await row.innerText(), /12\.345/, 'the price as sent');
      assert.doesNotMatch(await row.innerText(), /12\.35\b/);
      await deskScreenshots(page, 'new-admin-simulator-refused-price', SHOTS);
      await sim.stop.click();
      await page.locator('[data-testid="fix-client-status"]', { hasText: /^Disconnected$/ }).waitFor();
    });
  });
});
