// Defects a new administrator hits on the configuration screens, as an administrator meets them in
// the browser: the CSV export's dates typed by hand, the connectors' host and port (FIX_PORT of this
// server, never 9876), a certificate refused while the desk has no TLS port, the seeded viewer saved
// unchanged, Add User disabled once saved, the broker dialog's Close asking before it drops changes.
// The rest are in new-administrator-refusals.e2e.ts (two files: one took over the 5 minutes a file
// may take on a loaded CI machine). This file's server has no FIX_TLS_PORT. Screenshots at 1600x1000
// and 1280x800.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clickAndSee, DESK_SIZES, type DeskScreenshotOptions, deskScreenshots } from './support/browser';
import { until } from '../tests/support/until';
import { E2E } from './support/fixture';
import { ExportDialogPart, FixMessagesScreen, OrderActionsScreen } from './pages/AuditPages';

process.env.TEST_CLIENT_PORTS = 'auto';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

const PW = 'Harbour-Lights-77';

const SHOTS: DeskScreenshotOptions = { restore: true };

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
        await deskScreenshots(
          page,
          `new-admin-export-typed-${screen instanceof FixMessagesScreen ? 'fix-messages' : 'order-actions'}`,
          SHOTS,
        );
        await page.keyboard.press('Escape');
        await dialog.root.waitFor({ state: 'hidden' });
      }
    });
  });

  it('2. shows the connector grid, its Interactive FIX Spec tab and a new connector the port the desk listens on (FIX_PORT)', async () => {
    const port = e2e.server.fixPort;
    assert.notEqual(port, 9876, 'this server listens elsewhere than the default');
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const config = await e2e.api('GET', '/api/client-connectors/SGX_CLIENT_1/session-config', admin);
    const cfg = config.body['data'] as { host: string; port: number };
    assert.equal(cfg.port, port, 'the session config says FIX_PORT');
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
      const grid = page.getByRole('region', { name: 'Client connectors' });
      const cell = grid.locator('.ag-row', { hasText: 'SGX_CLIENT_1' }).first().locator('[col-id="hostPort"]');
      await cell.waitFor();
      assert.equal((await cell.innerText()).trim(), `${cfg.host}:${port}`, 'the grid says what the session config says');
      await deskScreenshots(page, 'new-admin-connectors-grid', SHOTS);

      await page.getByRole('button', { name: 'Edit connector SGX_CLIENT_1' }).click();
      const edit = page.getByRole('form', { name: 'Edit Client Connector SGX_CLIENT_1' });
      await edit.getByLabel('Client Name').waitFor();
      await edit.getByRole('tab', { name: 'Interactive FIX Spec' }).click();
      const params = edit.getByRole('table', { name: 'Session parameters' });
      const hostPort = params.getByRole('row', { name: /Host : port/ });
      await hostPort.waitFor();
      assert.match(await hostPort.innerText(), new RegExp(`${cfg.host.replace(/\./g, '\\.')} : ${port}$`));
      await deskScreenshots(page, 'new-admin-connector-spec-tab', SHOTS);
      await edit.getByRole('tab', { name: 'Connection', exact: true }).click();
      const editPort = edit
        .getByRole('textbox', { name: 'Port', exact: true })
        .or(edit.getByLabel('Port', { exact: true }))
        .first();
      assert.equal(await editPort.inputValue(), String(port));
      await edit.getByRole('button', { name: 'Cancel' }).click();

      await page.locator('#main-content').getByRole('button', { name: 'Add Connector' }).click();
      const add = page.getByRole('form', { name: 'Add Client Connector' });
      await add.getByRole('tab', { name: 'Connection', exact: true }).click();
      const addPort = add
        .getByRole('textbox', { name: 'Port', exact: true })
        .or(add.getByLabel('Port', { exact: true }))
        .first();
      await addPort.waitFor();
      // The form fills the port in once it has the desk's settings: read it then, not at first sight.
      const shown = await until("the new connector's port filled in", async () => (await addPort.inputValue()) || null).catch(() => '');
      assert.equal(shown, String(port), "a new connector's port is the desk's");
      await deskScreenshots(page, 'new-admin-connector-add-connection', SHOTS);
    });
  });

  it('3. refuses a certificate while the desk has no TLS port, on the server and in the TLS tab, saying how to open one', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const refused = await e2e.api('POST', '/api/client-connectors/EEX_CLIENT_1/generate-certs', admin, {
      commonName: 'eex.example',
      country: 'DE',
    });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.message ?? '', /FIX_TLS_PORT/);
    const after = await e2e.api('GET', '/api/client-connectors/EEX_CLIENT_1', admin);
    assert.equal((after.body['data'] as { tls_enabled: boolean }).tls_enabled, false, 'no certificate was stored');
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
      await page.getByRole('button', { name: 'Edit connector EEX_CLIENT_1' }).click();
      const edit = page.getByRole('form', { name: 'Edit Client Connector EEX_CLIENT_1' });
      await edit.getByLabel('Client Name').waitFor();
      await edit.getByRole('tab', { name: 'TLS/SSL' }).click();
      const panel = page.getByTestId('tls-panel');
      await panel
        .getByTestId('tls-no-port')
        .getByText(/FIX_TLS_PORT/)
        .waitFor();
      assert.equal(await panel.getByRole('button', { name: 'Generate certificates' }).isDisabled(), true);
      await deskScreenshots(page, 'new-admin-tls-no-port', SHOTS);
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
      await clickAndSee(
        form.getByRole('button', { name: 'Save Changes' }),
        page.getByTestId('user-saved').getByText('User updated successfully'),
      );
      await form.waitFor({ state: 'hidden', timeout: 5000 });
      // Deactivated, then active again.
      form = await editViewer();
      await form.getByRole('switch', { name: /^Active/ }).uncheck({ force: true });
      await clickAndSee(form.getByRole('button', { name: 'Save Changes' }), page.getByTestId('user-saved'));
      await form.waitFor({ state: 'hidden', timeout: 5000 });
      form = await editViewer();
      await form.getByRole('switch', { name: /^Active/ }).check({ force: true });
      await form.locator('input[type="password"]').fill(PW);
      await clickAndSee(
        form.getByRole('button', { name: 'Save Changes' }),
        page.getByTestId('user-saved').getByText(/User updated successfully/),
      );
      await deskScreenshots(page, 'new-admin-viewer-saved', SHOTS);
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
      await clickAndSee(submit, page.getByTestId('user-saved').getByText('User created successfully'));
      assert.equal(await submit.isDisabled(), true, 'the form cannot be sent again');
      assert.equal(await form.getByRole('textbox', { name: 'Username' }).isDisabled(), true, 'nor edited');
      await submit.click({ force: true }).catch(() => undefined);
      await page.waitForTimeout(300);
      assert.equal(await form.getByText(/already exists/).count(), 0, 'no second create');
      await deskScreenshots(page, 'new-admin-add-user-saved', SHOTS);
      await form.waitFor({ state: 'hidden', timeout: 5000 });
    });
  });

  it('6. asks before the broker dialog drops unsaved changes, and keeps Save on the Contacts tab', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(page, 'admin', { at: '/config/broker-information' });
      const grid = page.getByRole('region', { name: 'Brokers' });
      await grid
        .getByRole('button', { name: /^Edit broker / })
        .first()
        .click();
      const form = page.getByRole('form', { name: /^Edit Broker / });
      const name = form.getByRole('textbox', { name: 'Company Name' });
      await name.waitFor();
      const original = await name.inputValue();
      await name.fill(`${original} (renamed)`);
      await form.getByRole('tab', { name: 'Contacts' }).click();
      await form.getByRole('button', { name: 'Save Changes' }).waitFor();
      await deskScreenshots(page, 'new-admin-broker-contacts-save', SHOTS);
      await form.getByRole('button', { name: 'Close' }).click();
      const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      await ask.waitFor();
      await deskScreenshots(page, 'new-admin-broker-close-confirm', SHOTS);
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await ask.waitFor({ state: 'hidden' });
      await form.getByRole('tab', { name: 'Basic Info' }).click();
      assert.equal(await name.inputValue(), `${original} (renamed)`, 'the change is still there');
      await form.getByRole('button', { name: 'Close' }).click();
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await form.waitFor({ state: 'hidden' });
      await grid.getByText(original, { exact: true }).first().waitFor();
      // Unchanged: Close closes at once.
      await grid
        .getByRole('button', { name: /^Edit broker / })
        .first()
        .click();
      await form.getByRole('button', { name: 'Close' }).click();
      await form.waitFor({ state: 'hidden' });
      assert.equal(await ask.count(), 0);
    });
  });
});
