// Reference data screens: the Security Master walk (add a security in the browser, trade it
// over FIX at once, fail to delete it afterwards with the spec's text), the form's schema checks,
// markup typed by an admin shown as text, the route guard, and screenshots at two sizes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientDefaultsText, MessageSpecText, SecurityText } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { clickForSuccess, deskScreenshots, screenshot, settled } from './support/browser';
import { E2E } from './support/fixture';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

describe('security master screen', () => {
  it('is for administrators only: a broker is sent home', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker', { at: '/config/security-master', landing: '/' });
    });
  });

  it('adds a security that trades over FIX at once and then cannot be deleted', async () => {
    const client = new TestFixClient('SGX_CLIENT_1');
    try {
      await e2e.withPage(async (page) => {
        await e2e.signIn(page, 'admin', { at: '/config/security-master' });
        const grid = page.getByRole('region', { name: 'Securities' });
        await grid.getByText('C5TC', { exact: true }).waitFor();
        await deskScreenshots(page, 'security-master', { restore: true });

        // The form checks with the shared schema before sending.
        await page.getByRole('button', { name: 'Add Security' }).click();
        const form = page.getByRole('form', { name: 'Add Security' });
        await form.getByRole('button', { name: 'Add Security' }).click();
        await form.getByText('Symbol is required').waitFor();
        await form.getByText('Instrument Name is required').waitFor();
        await form.getByLabel('Price Tick Size').fill('0');
        await form.getByRole('button', { name: 'Add Security' }).click();
        await form.getByText(/Price Tick Size must be a tick size greater than 0/).waitFor();
        await settled(page); // the modal's fade-in
        await screenshot(page, 'security-master-form-errors');

        // A duplicate symbol: the server's 409 shows under the field.
        await form.getByLabel('Symbol').fill('c5tc');
        await form.getByLabel('Instrument Name').fill('Duplicate');
        await form.getByLabel('Price Tick Size').fill('1');
        await form.getByRole('button', { name: 'Add Security' }).click();
        await form.getByText('A security with symbol C5TC already exists').waitFor();

        // The real one; its name carries markup, which must stay text.
        const name = 'Supramax <b>10TC</b> <img src=x onerror="window.__xss=1">';
        await form.getByLabel('Symbol').fill('smx10');
        await form.getByLabel('Instrument Name').fill(name);
        await form.getByLabel('Price Tick Size').fill('0.5');
        await form.getByLabel('Series Months').fill('24');
        await settled(page); // the modal's fade-in
        await screenshot(page, 'security-master-add');
        await clickForSuccess(page, form.getByRole('button', { name: 'Add Security' }), SecurityText.created);
        await grid.getByText('SMX10', { exact: true }).waitFor();
        await grid.getByText(name, { exact: true }).waitFor();
        assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'markup in a name never runs');
        assert.equal(await grid.locator('b, img').count(), 0, 'markup in a name is shown as text');
        // Spec 001 §9: the success banner clears after 3000 ms.
        await page.getByTestId('admin-success').waitFor({ state: 'detached', timeout: 5000 });

        // Traded over FIX at once, no restart.
        await client.connect(e2e.server.fixPort);
        {
          await client.send('D', newOrderSingle('E2E-SMX-1', { symbol: 'SMX10', price: '1500.5' }));
          const report = await client.waitForReport('E2E-SMX-1', (m) => m.msgType === '8');
          assert.equal(report.get(150), 'A', `the new security is tradable: ${report.raw}`);
          await client.send('D', newOrderSingle('E2E-SMX-2', { symbol: 'SMX10', price: '1500.25' }));
          const offTick = await client.waitForReport('E2E-SMX-2', (m) => m.msgType === '8');
          assert.equal(offTick.get(58), 'Price 1500.25 is not a multiple of the tick size 0.5 for SMX10');
        }

        // Delete: the name must be typed exactly, then the server refuses (it has an order).
        await page.getByRole('button', { name: 'Delete security SMX10' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete security SMX10' });
        await dialog.getByText(SecurityText.typeToConfirm(name)).waitFor();
        const confirm = dialog.getByRole('button', { name: 'Delete', exact: true });
        assert.equal(await confirm.isDisabled(), true, 'disabled until the name matches');
        await dialog.getByLabel('Confirmation').fill(name.slice(0, -1));
        assert.equal(await confirm.isDisabled(), true, 'a near miss does not count');
        await dialog.getByLabel('Confirmation').fill(name);
        await settled(page); // the modal's fade-in
        await screenshot(page, 'security-master-delete-confirm');
        await confirm.click();
        const error = page.getByTestId('admin-error');
        await error.getByText(SecurityText.hasOrders('SMX10', 1)).waitFor();
        await dialog.waitFor({ state: 'detached' });
        await screenshot(page, 'security-master-delete-refused');
        await grid.getByText('SMX10', { exact: true }).waitFor();
        await error.getByRole('button', { name: 'Dismiss error' }).click();
        await error.waitFor({ state: 'detached' });

        // Edit: deactivate it; the next order is refused.
        await page.getByRole('button', { name: 'Edit security SMX10' }).click();
        const edit = page.getByRole('form', { name: 'Edit Security SMX10' });
        await edit.getByLabel('Active (tradable)').uncheck({ force: true });
        await clickForSuccess(page, edit.getByRole('button', { name: 'Save Changes' }), SecurityText.updated);
        const row = grid.locator('.ag-row', { hasText: 'SMX10' });
        await row.getByText('Inactive').waitFor();
        await client.send('D', newOrderSingle('E2E-SMX-3', { symbol: 'SMX10', price: '1500' }));
        assert.equal((await client.waitForReport('E2E-SMX-3', (m) => m.msgType === '8')).get(58), 'Symbol SMX10 is not active');

        // The Settings menu lists Reference Data.
        await page.getByRole('button', { name: 'Settings' }).click();
        await page.getByRole('menuitem', { name: /Security Master/ }).waitFor();
        await screenshot(page, 'settings-menu-reference-data');
      });
    } finally {
      await client.stop();
    }
  });
});

describe('FIX client defaults screen', () => {
  it('lists, adds, previews and deletes a client default; shows the Parties instances and the variables', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'admin', { at: '/config/fix-client-defaults' });
      const parties = page.getByRole('region', { name: 'Repeating group Parties' });
      await parties.locator('.mantine-Badge-root', { hasText: 'Entering Firm' }).waitFor();
      await parties.locator('.mantine-Badge-root', { hasText: 'Order Origination Trader' }).waitFor();
      const chips = page.getByLabel('Variables');
      await chips.getByText('%COMP_ID%').waitFor();
      assert.equal(await chips.locator('.mantine-Badge-root').count(), 12, 'the first 12 variables');
      await deskScreenshots(page, 'fix-client-defaults', { restore: true });

      // Add Account (1) on NewOrderSingle with a variable.
      await page.getByRole('button', { name: 'Add Default' }).click();
      const form = page.getByRole('form', { name: /Add default to D/ });
      await form.getByRole('button', { name: 'Create Default' }).click();
      await form.getByText(ClientDefaultsText.fillRequired).waitFor();
      await form.getByLabel('Tag').fill('1');
      await form.getByLabel('Default Value').fill('%COMP_ID%-ACC');
      await form.getByLabel('Notes').fill('<i>desk</i> account');
      await clickForSuccess(page, form.getByRole('button', { name: 'Create Default' }), ClientDefaultsText.created);
      const grid = page.getByRole('region', { name: 'Field defaults' });
      await grid.getByText('%COMP_ID%-ACC').waitFor();
      await grid.getByText('<i>desk</i> account').waitFor();

      // The same tag again: the server's 409 reason in the form.
      await page.getByRole('button', { name: 'Add Default' }).click();
      const again = page.getByRole('form', { name: /Add default to D/ });
      await again.getByLabel('Tag').fill('1');
      await again.getByLabel('Default Value').fill('X');
      await again.getByRole('button', { name: 'Create Default' }).click();
      await again.getByText(/already has a default for Account \(1\)/).waitFor();
      await again.getByRole('button', { name: 'Cancel' }).click();

      // Preview: the variable resolved for this client.
      await page.getByRole('button', { name: 'Preview with Variables' }).click();
      const preview = page.getByRole('dialog', { name: 'Preview with Variables' });
      await preview.getByText('SGX_CLIENT_1-ACC').waitFor();
      await settled(page); // the modal's fade-in
      await screenshot(page, 'fix-client-defaults-preview');
      await page.keyboard.press('Escape');
      await preview.waitFor({ state: 'detached' });

      // Delete asks first.
      await grid.getByRole('button', { name: 'Delete default Account (1)' }).click();
      const ask = page.getByRole('dialog', { name: 'Delete default' });
      await ask.getByText(ClientDefaultsText.confirmDelete).waitFor();
      await clickForSuccess(page, ask.getByRole('button', { name: 'Delete', exact: true }), 'Default deleted successfully');
      await grid.getByText('%COMP_ID%-ACC').waitFor({ state: 'detached' });
    });
  });
});

describe('FIX message specifications screen', () => {
  it('filters, adds, edits and deletes a specification; system fields are locked; the fields reference is read-only', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'admin', { at: '/config/fix-message-specs' });
      const grid = page.getByRole('region', { name: 'Message specifications' });
      await grid.getByText('ExecutionReport').first().waitFor();

      // Filter: ExecutionReport, ExecType F (Trade).
      await page.getByRole('combobox', { name: 'Message type', exact: true }).click();
      await page.getByRole('option', { name: /^8 · ExecutionReport/ }).click();
      await page.getByRole('combobox', { name: 'ExecType', exact: true }).click();
      await page.getByRole('option', { name: /^F · / }).click();
      await grid.getByText('LastPx').waitFor();
      const types = await grid.locator('.ag-row [col-id="exec_type"]').allTextContents();
      assert.ok(types.length > 0 && types.every((x) => x === 'F'), `only ExecType F: ${types.join(',')}`);
      await deskScreenshots(page, 'fix-message-specs', { restore: true });

      // Add: Account (1) on 8/F; ExecType is required for 8.
      await page.getByRole('button', { name: 'Add Specification' }).click();
      const form = page.getByRole('form', { name: 'Add Message Specification' });
      assert.equal(await form.getByRole('combobox', { name: 'ExecType (150)' }).inputValue(), 'F · TRADE', 'ExecType from the filter');
      await form.getByLabel('Field Number').fill('1');
      await form.getByLabel('Description').fill('The <u>client</u> account');
      assert.equal(await form.getByLabel('Field Name').inputValue(), 'Account', 'name from the dictionary');
      await clickForSuccess(page, form.getByRole('button', { name: 'Create Specification' }), MessageSpecText.created);
      await grid.getByText('The <u>client</u> account').waitFor();
      await screenshot(page, 'fix-message-specs-added');

      // System-controlled ExecType (150) offers no edit or delete; the new one offers both.
      assert.equal(await grid.getByRole('button', { name: /specification 8\/F ExecType \(150\)/ }).count(), 0);
      await grid.getByRole('button', { name: 'Edit specification 8/F Account (1)' }).click();
      const edit = page.getByRole('form', { name: /Edit specification 8 Account \(1\)/ });
      // By the keyboard: a click can land while the dialog is still sliding in (its open transition).
      const mandatory = edit.getByLabel('Mandatory');
      await mandatory.focus();
      await page.keyboard.press('Space');
      assert.equal(await mandatory.isChecked(), true);
      await clickForSuccess(page, edit.getByRole('button', { name: 'Save Changes' }), MessageSpecText.updated);

      await grid.getByRole('button', { name: 'Delete specification 8/F Account (1)' }).click();
      await clickForSuccess(
        page,
        page.getByRole('dialog', { name: 'Delete specification' }).getByRole('button', { name: 'Delete', exact: true }),
        MessageSpecText.deleted,
      );
      await grid.getByText('The <u>client</u> account').waitFor({ state: 'detached' });

      // FIX Fields Reference: read-only, with valid values.
      await page.getByRole('tab', { name: 'FIX Fields Reference' }).click();
      const fields = page.getByRole('region', { name: 'FIX fields' });
      await page.getByRole('textbox', { name: 'Filter fields' }).fill('OrdStatus');
      await fields.getByText('OrdStatus', { exact: true }).waitFor();
      assert.equal(await fields.getByRole('button', { name: /Edit|Delete/ }).count(), 0);
      await screenshot(page, 'fix-message-specs-fields-reference');
    });
  });
});
