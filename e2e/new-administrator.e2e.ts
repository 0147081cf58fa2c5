// Defects a new administrator hits, as an administrator meets them in the browser: the CSV
// export's dates typed by hand, the connectors' host and port (FIX_PORT of this server, never 9876), a
// certificate refused while the desk has no TLS port, the seeded viewer saved unchanged, Add User
// disabled once saved, the broker dialog's Close asking before it drops changes, the simulator's
// quantity above its range, the account's password change, the shared validation of LEI, MIC,
// currency and session counts, and refused prices and reasons shown as they were. This file's server
// has no FIX_TLS_PORT. Screenshots at 1600x1000 and 1280x800.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UserText } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { DESK_SIZES, type DeskScreenshotOptions, deskScreenshots } from './support/browser';
import { E2E } from './support/fixture';
import { ExportDialogPart, FixMessagesScreen, OrderActionsScreen } from './pages/AuditPages';
import { BlotterPage } from './pages/BlotterPage';
import { SimulatorClientPage } from './pages/SimulatorPages';

process.env.TEST_CLIENT_PORTS = 'auto';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

const PW = 'Harbour-Lights-77';


const SHOTS: DeskScreenshotOptions = { settleMs: 350, restore: true };

type Json = Record<string, unknown>;
async function api(method: string, path: string, token: string, json?: unknown): Promise<{ status: number; body: Json & { message?: string; field?: string } }> {
  const r = await fetch(`${e2e.server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: r.status, body: (await r.json()) as Json };
}

describe('an administrator new to the desk', () => {
  it('1. types the export dates by hand on FIX Messages and Order Actions without the screen crashing', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/fix-messages' });
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') pageErrors.push(m.text());
      });
      for (const screen of [new FixMessagesScreen(page), new OrderActionsScreen(page)]) {
        await screen.goto();
        await screen.exportButton.click();
        const dialog = new ExportDialogPart(page);
        await dialog.root.waitFor();
        // Typed as a person types a date, key by key, into both fields (day and month alike: the
        // field's order of day and month is the browser's).
        // Clicked at the left edge: the day is the field's first part.
        await dialog.start.click({ position: { x: 12, y: 12 } });
        await page.keyboard.type('02022026', { delay: 30 });
        await dialog.end.click({ position: { x: 12, y: 12 } });
        await page.keyboard.type('03032026', { delay: 30 });
        await page.waitForTimeout(300);
        assert.deepEqual(pageErrors, [], 'no error in the page');
        assert.equal(await dialog.root.isVisible(), true, 'the dialog is still there');
        assert.equal(await dialog.start.inputValue(), '2026-02-02');
        assert.equal(await dialog.end.inputValue(), '2026-03-03');
        await deskScreenshots(page, `issue33-export-typed-${screen instanceof FixMessagesScreen ? 'fix-messages' : 'order-actions'}`, SHOTS);
        await page.keyboard.press('Escape');
        await dialog.root.waitFor({ state: 'hidden' });
      }
    });
  });

  it('2. shows the connector grid, its Interactive FIX Spec tab and a new connector the port the desk listens on (FIX_PORT)', async () => {
    const port = e2e.server.fixPort;
    assert.notEqual(port, 9876, 'this server listens elsewhere than the default');
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const config = await api('GET', '/api/client-connectors/SGX_CLIENT_1/session-config', admin);
    const cfg = config.body['data'] as { host: string; port: number };
    assert.equal(cfg.port, port, 'the session config says FIX_PORT');
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
      const grid = page.getByRole('region', { name: 'Client connectors' });
      const cell = grid.locator('.ag-row', { hasText: 'SGX_CLIENT_1' }).first().locator('[col-id="hostPort"]');
      await cell.waitFor();
      assert.equal((await cell.innerText()).trim(), `${cfg.host}:${port}`, 'the grid says what the session config says');
      await deskScreenshots(page, 'issue33-connectors-grid', SHOTS);

      await page.getByRole('button', { name: 'Edit connector SGX_CLIENT_1' }).click();
      const edit = page.getByRole('form', { name: 'Edit Client Connector SGX_CLIENT_1' });
      await edit.getByLabel('Client Name').waitFor();
      await edit.getByRole('tab', { name: 'Interactive FIX Spec' }).click();
      const params = edit.getByRole('table', { name: 'Session parameters' });
      const hostPort = params.getByRole('row', { name: /Host : port/ });
      await hostPort.waitFor();
      assert.match(await hostPort.innerText(), new RegExp(`${cfg.host.replace(/\./g, '\\.')} : ${port}$`));
      await deskScreenshots(page, 'issue33-connector-spec-tab', SHOTS);
      await edit.getByRole('tab', { name: 'Connection', exact: true }).click();
      const editPort = edit.getByRole('textbox', { name: 'Port', exact: true }).or(edit.getByLabel('Port', { exact: true })).first();
      assert.equal(await editPort.inputValue(), String(port));
      await edit.getByRole('button', { name: 'Cancel' }).click();

      await page.locator('#main-content').getByRole('button', { name: 'Add Connector' }).click();
      const add = page.getByRole('form', { name: 'Add Client Connector' });
      await add.getByRole('tab', { name: 'Connection', exact: true }).click();
      const addPort = add.getByRole('textbox', { name: 'Port', exact: true }).or(add.getByLabel('Port', { exact: true })).first();
      await addPort.waitFor();
      assert.equal(await addPort.inputValue(), String(port), "a new connector's port is the desk's");
      await deskScreenshots(page, 'issue33-connector-add-connection', SHOTS);
    });
  });

  it('3. refuses a certificate while the desk has no TLS port, on the server and in the TLS tab, saying how to open one', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const refused = await api('POST', '/api/client-connectors/EEX_CLIENT_1/generate-certs', admin, { commonName: 'eex.example', country: 'DE' });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.message ?? '', /FIX_TLS_PORT/);
    const after = await api('GET', '/api/client-connectors/EEX_CLIENT_1', admin);
    assert.equal((after.body['data'] as { tls_enabled: boolean }).tls_enabled, false, 'no certificate was stored');
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
      await page.getByRole('button', { name: 'Edit connector EEX_CLIENT_1' }).click();
      const edit = page.getByRole('form', { name: 'Edit Client Connector EEX_CLIENT_1' });
      await edit.getByLabel('Client Name').waitFor();
      await edit.getByRole('tab', { name: 'TLS/SSL' }).click();
      const panel = page.getByTestId('tls-panel');
      await panel.getByTestId('tls-no-port').getByText(/FIX_TLS_PORT/).waitFor();
      assert.equal(await panel.getByRole('button', { name: 'Generate certificates' }).isDisabled(), true);
      await deskScreenshots(page, 'issue33-tls-no-port', SHOTS);
    });
  });

  it('4. saves the seeded viewer unchanged, resets its password and makes it active again', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/user-management' });
      const grid = page.getByRole('region', { name: 'Users' });
      await grid.getByText('viewer', { exact: true }).first().waitFor();
      const editViewer = async () => {
        await grid.getByRole('button', { name: 'Edit user viewer' }).click();
        const form = page.getByRole('form', { name: 'Edit User viewer' });
        await form.waitFor();
        return form;
      };
      let form = await editViewer();
      await form.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByTestId('user-saved').getByText('User updated successfully').waitFor();
      await form.waitFor({ state: 'hidden', timeout: 5000 });
      // Deactivated, then active again.
      form = await editViewer();
      await form.getByRole('switch', { name: /^Active/ }).uncheck({ force: true });
      await form.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByTestId('user-saved').waitFor();
      await form.waitFor({ state: 'hidden', timeout: 5000 });
      form = await editViewer();
      await form.getByRole('switch', { name: /^Active/ }).check({ force: true });
      await form.locator('input[type="password"]').fill(PW);
      await form.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByTestId('user-saved').getByText(/User updated successfully/).waitFor();
      await deskScreenshots(page, 'issue33-viewer-saved', SHOTS);
      await form.waitFor({ state: 'hidden', timeout: 5000 });
    });
    // The new password signs the viewer in.
    await e2e.apiLogin('viewer', PW);
  });

  it('5. disables Add User once the user is saved, so a second click cannot try again', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/user-management' });
      await page.getByRole('button', { name: 'Add User' }).click();
      const form = page.getByRole('form', { name: 'Add User' });
      await form.getByRole('textbox', { name: 'Username' }).fill('ops.reader');
      await form.getByRole('textbox', { name: 'Email' }).fill('ops.reader@desk.example');
      await form.locator('input[type="password"]').fill(PW);
      await form.getByRole('combobox', { name: 'User Type' }).click();
      await page.getByRole('option', { name: 'Client', exact: true }).click();
      const submit = form.getByRole('button', { name: 'Add User' });
      await submit.click();
      await page.getByTestId('user-saved').getByText('User created successfully').waitFor();
      assert.equal(await submit.isDisabled(), true, 'the form cannot be sent again');
      assert.equal(await form.getByRole('textbox', { name: 'Username' }).isDisabled(), true, 'nor edited');
      await submit.click({ force: true }).catch(() => undefined);
      await page.waitForTimeout(300);
      assert.equal(await form.getByText(/already exists/).count(), 0, 'no second create');
      await deskScreenshots(page, 'issue33-add-user-saved', SHOTS);
      await form.waitFor({ state: 'hidden', timeout: 5000 });
    });
  });

  it('6. asks before the broker dialog drops unsaved changes, and keeps Save on the Contacts tab', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/broker-information' });
      const grid = page.getByRole('region', { name: 'Brokers' });
      await grid.getByRole('button', { name: /^Edit broker / }).first().click();
      const form = page.getByRole('form', { name: /^Edit Broker / });
      const name = form.getByRole('textbox', { name: 'Company Name' });
      await name.waitFor();
      const original = await name.inputValue();
      await name.fill(`${original} (renamed)`);
      await form.getByRole('tab', { name: 'Contacts' }).click();
      await form.getByRole('button', { name: 'Save Changes' }).waitFor();
      await deskScreenshots(page, 'issue33-broker-contacts-save', SHOTS);
      await form.getByRole('button', { name: 'Close' }).click();
      const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      await ask.waitFor();
      await deskScreenshots(page, 'issue33-broker-close-confirm', SHOTS);
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await ask.waitFor({ state: 'hidden' });
      await form.getByRole('tab', { name: 'Basic Info' }).click();
      assert.equal(await name.inputValue(), `${original} (renamed)`, 'the change is still there');
      await form.getByRole('button', { name: 'Close' }).click();
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await form.waitFor({ state: 'hidden' });
      await grid.getByText(original, { exact: true }).first().waitFor();
      // Unchanged: Close closes at once.
      await grid.getByRole('button', { name: /^Edit broker / }).first().click();
      await form.getByRole('button', { name: 'Close' }).click();
      await form.waitFor({ state: 'hidden' });
      assert.equal(await ask.count(), 0);
    });
  });

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
      await deskScreenshots(page, 'issue33-simulator-quantity', SHOTS);
    });
  });

  it('8. refreshes the sessions after a password change, names the empty fields, refuses the same password (server too)', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const created = await api('POST', '/api/users', admin, { username: 'acct.user', email: 'acct.user@desk.example', password: PW, role: 'viewer', user_type: 'client' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const other = await e2e.apiLogin('acct.user', PW);
    const same = await api('POST', '/api/account/password', other, { current_password: PW, new_password: PW });
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
      await deskScreenshots(page, 'issue33-account-empty-submit', SHOTS);
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
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="account-session"]').length === 1, undefined, { timeout: 5000 });
      assert.equal(await sessions.count(), 1);
      await deskScreenshots(page, 'issue33-account-password-changed', SHOTS);
    });
  });

  it('9. validates LEI check digits, a MIC, a currency and session counts with the shared schemas (form and server agree)', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    // Server: each refused with the field named.
    const badLei = await api('POST', '/api/broker-information', admin, { company_name: 'Check Digit Ltd', lei: '5493001KJTIIGC8Y1R13' });
    assert.equal(badLei.status, 400, JSON.stringify(badLei.body));
    assert.equal(badLei.body.field, 'lei');
    const goodLei = await api('POST', '/api/broker-information', admin, { company_name: 'Check Digit Ltd', lei: '5493001KJTIIGC8Y1R12' });
    assert.equal(goodLei.status, 200, JSON.stringify(goodLei.body));
    const badCurrency = await api('POST', '/api/security-master', admin, { symbol: 'CURX', instrument_name: 'Currency check', instrument_type: 'Commodities', currency: 'ABC' });
    assert.equal(badCurrency.status, 400, JSON.stringify(badCurrency.body));
    assert.equal(badCurrency.body.field, 'currency');
    const badMic = await api('POST', '/api/client-capabilities', admin, { clientconnectors_id: 1, asset_class: 'FUTURES', market_identifier: 'XSE' });
    assert.equal(badMic.status, 400, JSON.stringify(badMic.body));
    assert.equal(badMic.body.field, 'market_identifier');
    for (const count of ['abc', '1.5']) {
      const r = await api('POST', '/api/client-sessions', admin, { comp_id: 'SGX_CLIENT_1', session_start: '2026-01-05 09:00', messages_sent: count });
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
      await deskScreenshots(page, 'issue33-broker-lei-check-digits', SHOTS);
      await page.keyboard.press('Escape');

      await page.goto('/config/client-sessions');
      await page.getByRole('button', { name: 'Add Session' }).click();
      const session = page.getByRole('form', { name: 'Add Session' });
      await session.getByLabel('Messages Sent').fill('1.5');
      await session.getByRole('button', { name: 'Add Session' }).click();
      await session.getByText(/Messages Sent must be a whole number/).waitFor();
      await deskScreenshots(page, 'issue33-session-count', SHOTS);
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
        await deskScreenshots(page, 'issue33-blotter-refusal-text', SHOTS);
      });
    } finally {
      await client.stop();
    }
  });

  it('11. words refusals for people: the field by its name, no "Invalid body:", no zod wording, no API path', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const short = await api('POST', '/api/users', admin, { username: 'short.pw', email: 'short.pw@desk.example', password: 'short-pw-1', role: 'viewer', user_type: 'client' });
    assert.equal(short.status, 400);
    assert.equal(short.body.message, 'Password must have at least 12 characters');
    const port = await api('POST', '/api/client-connectors', admin, { comp_id: 'PORT_X', execution_id_prefix: 'PX', test_port: 70000 });
    assert.equal(port.status, 400);
    assert.equal(port.body.field, 'test_port');
    assert.equal(port.body.message, 'Test port must be at most 65535');
    const unknown = await api('POST', '/api/users', admin, { username: 'u.x', email: 'u.x@desk.example', password: PW, is_admin: true });
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
      await deskScreenshots(page, 'issue33-connector-test-port', SHOTS);

      // Errors under the field: each of the server's problems under its own field, not the first only.
      await page.goto('/config/user-management');
      const grid = page.getByRole('region', { name: 'Users' });
      await grid.getByRole('button', { name: 'Edit user ops.reader' }).click();
      const form = page.getByRole('form', { name: 'Edit User ops.reader' });
      await form.getByRole('combobox', { name: 'User Type' }).click();
      await page.getByRole('option', { name: 'Broker/Trader', exact: true }).click();
      await form.getByRole('button', { name: 'Save Changes' }).click();
      for (const text of [UserText.brokerBranch, UserText.traderId, UserText.traderFullName]) await form.getByText(text).waitFor();
      await deskScreenshots(page, 'issue33-user-broker-rule-under-fields', SHOTS);
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
      await deskScreenshots(page, 'issue33-simulator-refused-price', SHOTS);
      await sim.stop.click();
      await page.locator('[data-testid="fix-client-status"]', { hasText: /^Disconnected$/ }).waitFor();
    });
  });
});
