// The FIX specification page and the client's password-protected document: the four tabs
// (header colour and title following the active tab) with screenshots at two sizes, the export
// dialog's checks and generator, and the downloaded file opened in a fresh browser with no server:
// a wrong password shows the error, the right one the four tabs with the client's CompIDs. With drop copy
// sessions: the Drop copy section of a covered client's Session Information, and a drop copy session's
// own specification (its copies described, no order to build), with screenshots at both sizes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { FIX_SPEC_TABS, PASSWORD_ALPHABET } from '@fixdesk/domain';
import { SpecExportText } from '@fixdesk/protocol';
import { DESK_SIZES, deskScreenshots, screenshot } from './support/browser';
import { E2E } from './support/fixture';

const e2e = new E2E();
const dir = mkdtempSync(join(tmpdir(), 'fix-spec-e2e-'));
before(() => e2e.start());
after(async () => {
  await e2e.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('FIX specification page', () => {
  it('shows the four tabs and hands out a document that opens offline with its password only', async () => {
    let file = '';
    let password = '';
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'admin', { at: '/fix-specification' });
      await page.getByTestId('contracts-table').getByText('C5TC', { exact: true }).waitFor();

      for (const tab of FIX_SPEC_TABS) {
        await page.getByRole('tab', { name: `${tab.number}. ${tab.title}` }).click();
        await page.getByTestId('spec-title').getByText(`${tab.number}. ${tab.title}`).waitFor();
        assert.equal(await page.getByTestId('spec-header').getAttribute('data-colour'), tab.colour, 'the header colour follows the tab');
        if (tab.key === 'orderGeneration') {
          await page
            .getByTestId('fix-preview-text')
            .getByText(/49=SGX_CLIENT_1\|/)
            .waitFor();
        }
        if (tab.key === 'tradeLifecycle')
          await page.getByTestId('execution-report-variants').getByText('Trade Cancel', { exact: true }).waitFor();
        if (tab.key === 'sessionInfo')
          await page.getByTestId('session-parameters').getByText(String(e2e.server.fixPort), { exact: true }).waitFor();
        await deskScreenshots(page, `fix-specification-${tab.number}`, { restore: true });
      }

      // The field table switches to the cancel request's fields.
      await page.getByRole('tab', { name: '2. Order Generation' }).click();
      await page.getByTestId('field-table-switch').getByText('Cancel Request F').click();
      await page.getByTestId('order-field-table').getByText('OrigClOrdID', { exact: true }).waitFor();

      // The export dialog's checks, in the spec's order, then a generated password.
      await page.getByTestId('open-export').click();
      const dialog = page.getByTestId('fix-spec-export');
      const submit = dialog.getByRole('button', { name: 'Generate document' });
      await submit.click();
      await dialog.getByText(SpecExportText.required).waitFor();
      await page.getByTestId('export-password').fill('abcdefgh');
      await page.getByTestId('export-password-confirm').fill('abcdefgX');
      await submit.click();
      await dialog.getByText(SpecExportText.mismatch).waitFor();
      await page.getByTestId('export-password').fill('abc');
      await page.getByTestId('export-password-confirm').fill('abc');
      await submit.click();
      await dialog.getByText(SpecExportText.tooShort).waitFor();
      await dialog.getByRole('button', { name: 'Generate password' }).click();
      password = await page.getByTestId('export-password').inputValue();
      assert.equal(password.length, 12);
      for (const c of password) assert.ok(PASSWORD_ALPHABET.includes(c), c);
      assert.equal(await page.getByTestId('export-password-confirm').inputValue(), password);
      await screenshot(page, 'fix-specification-export-dialog');
      const [download] = await Promise.all([page.waitForEvent('download'), submit.click()]);
      assert.match(download.suggestedFilename(), /^FIX_Specification_SGX_CLIENT_1_v\d+_\d{4}-\d{2}-\d{2}\.html$/);
      file = join(dir, download.suggestedFilename());
      await download.saveAs(file);
      await dialog.getByTestId('export-done').waitFor();

      // The connector's Interactive FIX Spec tab lists the version just generated.
      await page.goto('/config/client-connectors');
      await page.getByRole('button', { name: 'Edit connector SGX_CLIENT_1' }).click();
      await page
        .getByRole('form', { name: 'Edit Client Connector SGX_CLIENT_1' })
        .getByRole('tab', { name: 'Interactive FIX Spec' })
        .click();
      await page
        .getByTestId('fix-spec-versions')
        .getByText(/^v\d+$/)
        .first()
        .waitFor();
      await screenshot(page, 'fix-specification-connector-versions');
    });

    const html = readFileSync(file, 'utf8');
    assert.ok(!html.includes('SGX_CLIENT_1'), 'nothing of the client in clear');

    // A fresh browser context with no server behind it: every request but the file itself fails.
    const context = await e2e.browser.newContext({ viewport: DESK_SIZES[0] });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const requests: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:')) return route.continue();
        requests.push(url);
        return route.abort();
      });
      await page.goto(pathToFileURL(file).href);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Open' }).click();
      await page
        .getByRole('alert')
        .getByText(/Incorrect password/)
        .waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('#document').isHidden(), true, 'nothing revealed');
      await screenshot(page, 'fix-specification-document-wrong-password');

      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Open' }).click();
      const doc = page.locator('#document');
      await doc.getByText('SGX_CLIENT_1 → FIXDESK', { exact: false }).first().waitFor({ timeout: 30_000 });
      for (const tab of FIX_SPEC_TABS) {
        await doc.getByRole('button', { name: `${tab.number}. ${tab.title}` }).click();
        await doc.locator('.doc-title').getByText(tab.title, { exact: true }).waitFor();
        await doc.locator(`section[data-tab="${tab.key}"]`).waitFor({ state: 'visible' });
      }
      await doc.locator('section[data-tab="sessionInfo"]').getByText('SGX_CLIENT_1', { exact: true }).first().waitFor();
      await screenshot(page, 'fix-specification-document-session');
      assert.deepEqual(requests, [], 'the document asked for nothing over the network');
      assert.deepEqual(errors, [], 'the decryption page ran without errors');
    } finally {
      await context.close();
    }
  });

  it("shows the Drop copy section for a covered client and describes a drop copy session's copies", async () => {
    const token = await e2e.apiLogin('admin', e2e.server.adminPassword);
    for (const connector of [
      { comp_id: 'MIDDLE_OFFICE_DC', execution_id_prefix: 'MOD', client_name: 'Straits middle office', drop_copy_of: ['SGX_CLIENT_1'] },
      { comp_id: 'BACKOFFICE_DC', execution_id_prefix: 'BOD', client_name: 'Desk back office' },
    ]) {
      const made = await e2e.api('POST', '/api/client-connectors', token, { ...connector, session_type: 'drop_copy' });
      assert.equal(made.status, 200, JSON.stringify(made.body));
    }
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer', { at: '/fix-specification' });
      await page.getByTestId('contracts-table').getByText('C5TC', { exact: true }).waitFor();
      await page.getByRole('tab', { name: '4. Session Information' }).click();
      const section = page.getByTestId('drop-copy-section');
      await section
        .getByText('Copies of the reports we send SGX_CLIENT_1 also go to the drop copy sessions BACKOFFICE_DC and MIDDLE_OFFICE_DC.')
        .waitFor();
      assert.deepEqual(await section.getByTestId('drop-copy-peer').allTextContents(), ['BACKOFFICE_DC', 'MIDDLE_OFFICE_DC']);
      await section.getByTestId('drop-copy-fields').getByRole('cell', { name: 'CopyMsgIndicator', exact: true }).waitFor();
      assert.equal(
        await section.getByTestId('drop-copy-fields').getByRole('cell', { name: 'SGX_CLIENT_1', exact: true }).count(),
        2,
        'PartyID and Account',
      );
      // Between the session parameters and the session messages, inside the tab.
      const top = async (testId: string) => (await page.getByTestId(testId).boundingBox())!.y;
      assert.ok((await top('session-parameters')) < (await top('drop-copy-section')));
      await deskScreenshots(page, 'fix-specification-4-drop-copy-client', {
        restore: true,
        prepare: () => section.scrollIntoViewIfNeeded(),
      });

      // The drop copy session's own specification: picked in the same selector.
      await page.getByTestId('spec-connector').click();
      await page.getByRole('option', { name: /^BACKOFFICE_DC/ }).click();
      await section
        .getByText('BACKOFFICE_DC is a drop copy session: it receives copies of the reports we send every client and sends no orders.')
        .waitFor();
      assert.deepEqual(await section.getByTestId('drop-copy-peer').allTextContents(), ['every client']);
      await section.getByText(/flagged PossResend \(97=Y\)/).waitFor();
      await section.getByText(/Text \(58\) "Drop copy session: application messages are not accepted"/).waitFor();
      await deskScreenshots(page, 'fix-specification-4-drop-copy-session', {
        restore: true,
        prepare: () => section.scrollIntoViewIfNeeded(),
      });

      await page.getByRole('tab', { name: '2. Order Generation' }).click();
      await page
        .getByTestId('order-generation-drop-copy')
        .getByText(/BACKOFFICE_DC is a drop copy session: it receives copies/)
        .waitFor();
      assert.equal(await page.getByTestId('fix-preview-text').count(), 0, 'no order message built for a session that cannot send one');
      assert.equal(await page.getByTestId('order-field-table').count(), 0);
      await deskScreenshots(page, 'fix-specification-2-drop-copy-session', { restore: true });

      await page.getByRole('tab', { name: '1. About FFA Futures' }).click();
      await page
        .getByTestId('about-drop-copy')
        .getByText(/it trades nothing/)
        .waitFor();
      await page.getByTestId('contracts-table').getByText('C5TC', { exact: true }).waitFor();

      await page.getByRole('tab', { name: '3. Trade Lifecycle' }).click();
      await page
        .getByTestId('lifecycle-drop-copy')
        .getByText(/BACKOFFICE_DC sends none of the client's messages/)
        .waitFor();
      await page
        .getByTestId('execution-report-variants')
        .getByText(/797 CopyMsgIndicator/)
        .first()
        .waitFor();
      await deskScreenshots(page, 'fix-specification-3-drop-copy-session', { restore: true });
    });
  });
});
