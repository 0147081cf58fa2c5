// Client onboarding in one walk: an administrator creates a connector and a capability in
// the screens, a QuickFIX C++ client (validating against the FIX 4.4 dictionary) logs on with the new
// comp id, its order reaches the blotter and is accepted
// and filled there; once the capability is removed the next order is refused with the reason. The route
// guard, the dialog's checks, the session record and the delete refused while the client has orders.
// Then the live session console and the certificates, from the connector dialog's Session and TLS/SSL
// tabs: every tab and the grids are photographed at 1600x1000 and 1280x800.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createSessionCodec, Initiator, MemoryLogFactory, MemoryStoreFactory } from '@fixdesk/fix';
import { CapabilityText } from '@fixdesk/protocol';
import { buildQuickfix, quickfixUnavailable } from '../bench/quickfix/build';
import { newOrderSingle } from '../tests/support/fix-client';
import { field, hasFields, QuickfixPeer } from '../tests/interop/quickfix-peer';
import { clickForSuccess, type DeskScreenshotOptions, deskScreenshots, screenshot, settled } from './support/browser';
import { E2E } from './support/fixture';
import { BlotterPage } from './pages/BlotterPage';
import { ClientFilterMenu } from './pages/KillSwitch';
import { until } from '../tests/support/until';

// A TLS port (on a free port): the TLS/SSL tab issues a certificate only where a TLS logon can use it.
const e2e = new E2E({ env: { FIX_TLS_PORT: '0' } });
before(() => e2e.start());
after(() => e2e.stop());

const COMP = 'E2E_ONBOARD';
const CONSOLE_COMP = 'E2E_CONSOLE';
const DROP_COMP = 'E2E_MIDDLE_OFFICE';
const BACK_OFFICE = 'E2E_BACK_OFFICE';

const SHOTS: DeskScreenshotOptions = { restore: true };

/** A Mantine Select's input by its label (a textbox, or a combobox where it is not searchable). */
const selectInput = (scope: Page | ReturnType<Page['getByRole']>, label: string) =>
  scope
    .getByRole('textbox', { name: label, exact: true })
    .or(scope.getByRole('combobox', { name: label, exact: true }))
    .first();

async function choose(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string | RegExp): Promise<void> {
  await selectInput(scope, label).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Our initiator as the client, not reconnecting once logged out (as a client whose desk told it to stop). */
async function logOnConsoleClient(logs: MemoryLogFactory): Promise<{ initiator: Initiator; loggedOn: () => boolean }> {
  let loggedOn = false;
  const initiator = await Initiator.start({
    host: '127.0.0.1',
    port: e2e.server.fixPort,
    sessionID: { beginString: 'FIX.4.4', senderCompID: CONSOLE_COMP, targetCompID: 'FIXDESK' },
    // No heartbeat within the test: the numbers read on the console must still hold at its Logout (a
    // loaded CI machine took over 30 s to get there, and a heartbeat in between took a number each way).
    // Its connector allows it (heartbeat_max_sec 600).
    settings: { heartBtIntSec: 600 },
    storeFactory: new MemoryStoreFactory(),
    codec: createSessionCodec(),
    logFactory: logs,
    reconnect: false,
    app: { onLogon: () => void (loggedOn = true), onLogout: () => void (loggedOn = false), fromApp: () => undefined },
  });
  await until('the test client to log on', () => loggedOn);
  return { initiator, loggedOn: () => loggedOn };
}

/** The new client: QuickFIX C++ as a client's FIX team runs it (UseDataDictionary=Y), scripted line by line. */
class QuickfixClient {
  private peer: QuickfixPeer | undefined;
  private readonly store = mkdtempSync(join(tmpdir(), 'e2e-onboard-qf-'));

  async connect(port: number): Promise<void> {
    const build = buildQuickfix(['fixpeer']);
    this.peer = new QuickfixPeer({
      binary: build.programs.fixpeer,
      mode: 'initiator',
      port,
      senderCompID: COMP,
      targetCompID: 'FIXDESK',
      storeDir: this.store,
      dictionaryPath: build.dictionaryPath,
      heartBtIntSec: 30,
      killAfterMs: 600_000,
    });
    this.peer.script('start\nwait-logon');
    await this.peer.waitForLine((l) => l.startsWith('LOGON'));
  }

  /** A NewOrderSingle with the fields our test clients send. */
  sendOrder(clOrdId: string, o: Parameters<typeof newOrderSingle>[1] = {}): void {
    this.peer!.script(
      `send 35=D|${newOrderSingle(clOrdId, o)
        .map(([tag, value]) => `${tag}=${value}`)
        .join('|')}`,
    );
  }

  /** The first report QuickFIX handed its application with these fields (after its dictionary checked it). */
  async report(want: Record<number, string>): Promise<(tag: number) => string | undefined> {
    const line = await this.peer!.waitForLine((l) => l.startsWith('APP') && hasFields(l.slice(4), want), 15_000);
    return (tag) => field(line.slice(4), tag);
  }

  /** No session Reject from QuickFIX: every report passed its dictionary. */
  sessionRejects(): string[] {
    return this.peer ? this.peer.messages('TX').filter((m) => hasFields(m, { 35: '3' })) : [];
  }

  async stop(): Promise<void> {
    if (this.peer) {
      this.peer.script('logout\nwait-logout', true);
      await this.peer.finished().catch(() => this.peer?.kill());
    }
    rmSync(this.store, { recursive: true, force: true });
  }
}

const quickfixMissing = quickfixUnavailable();
if (quickfixMissing && process.env.CI) throw new Error(`the onboarding walk needs QuickFIX in CI: ${quickfixMissing}`);

describe('client onboarding screens', () => {
  it('are for administrators only: a broker is sent home', async () => {
    await e2e.withPage(async (page) => {
      for (const path of ['/config/client-connectors', '/config/client-sessions', '/config/client-capabilities']) {
        await e2e.signIn(page, 'broker', { at: path, landing: '/' });
        await page.context().clearCookies();
        await page.evaluate(() => localStorage.clear());
      }
    });
  });

  it(
    'onboards a QuickFIX client in the screens: its order accepted and filled on the blotter, refused once the capability is removed',
    { skip: quickfixMissing ? `needs QuickFIX: ${quickfixMissing}` : false },
    async () => {
      const client = new QuickfixClient();
      try {
        await e2e.withPage(async (page) => {
          await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
          const grid = page.getByRole('region', { name: 'Client connectors' });
          await grid.getByText('SGX_CLIENT_1', { exact: true }).waitFor();
          await deskScreenshots(page, 'client-connectors', SHOTS);

          // The dialog checks with the shared schema before sending.
          await page.getByRole('button', { name: 'Add Connector' }).click();
          const form = page.getByRole('form', { name: 'Add Client Connector' });
          await form.getByRole('button', { name: 'Add Connector' }).click();
          await form.getByText('Component ID is required').waitFor();
          await form.getByLabel('Execution ID Prefix').fill('ABCD');
          await form.getByLabel('LEI').fill('L'.repeat(20));
          await form.getByLabel('Website').fill('javascript:alert(1)');
          await form.getByRole('button', { name: 'Add Connector' }).click();
          await form.getByText(/must be an http:\/\/ or https:\/\/ address/).waitFor();
          await form.getByText(/20-character LEI/).waitFor();
          assert.equal(await form.getByLabel('Execution ID Prefix').inputValue(), 'ABC', 'the prefix input takes at most 3 characters');
          await settled(page);
          await screenshot(page, 'client-connector-form-errors');

          await form.getByLabel('Component ID').fill(COMP);
          await form.getByLabel('Execution ID Prefix').fill('eo1');
          await form.getByLabel('Client Name').fill('E2E Onboard <b>Ltd</b>');
          await form.getByLabel('LEI').fill('529900E2EONBOARD0085');
          await form.getByLabel('Website').fill('https://onboard.example');
          await form.getByRole('tab', { name: 'Trading' }).click();
          await form.getByLabel('Session Start').fill('00:00:00');
          await form.getByLabel('Session End').fill('23:59:59');
          await form.getByLabel('Trading Days').fill('M,T,W,T,F,S,S');
          await choose(page, form, 'Time Zone', 'UTC');
          await settled(page);
          await screenshot(page, 'client-connector-form-trading');
          await form.getByRole('tab', { name: 'TLS/SSL' }).click();
          await form.getByText('Please save the connector first before generating certificates').waitFor();
          assert.equal(await form.getByRole('tab', { name: /WhatsApp/ }).isDisabled(), true, 'WhatsApp is not there yet');
          await form.getByRole('tab', { name: 'Interactive FIX Spec' }).click();
          await form.getByRole('table', { name: 'Session parameters' }).getByText('M,T,W,T,F,S,S 00:00:00–23:59:59 UTC').waitFor();
          await screenshot(page, 'client-connector-form-spec');
          await clickForSuccess(page, form.getByRole('button', { name: 'Add Connector' }), 'Client connector created successfully!');
          const row = grid.locator('.ag-row', { hasText: COMP });
          await row.getByText('cannot trade').waitFor();
          await row.getByText('E2E Onboard <b>Ltd</b>', { exact: true }).waitFor();
          assert.equal(await grid.locator('b').count(), 0, 'markup typed in a name stays text');

          // The client logs on at once; without a capability its order is refused with the reason.
          await client.connect(e2e.server.fixPort);
          await row.getByText('Logged on').waitFor();
          client.sendOrder('E2E-ONB-1');
          const refused = await client.report({ 35: '8', 11: 'E2E-ONB-1' });
          assert.deepEqual([refused(150), refused(58)], ['8', 'No trading permission for C5TC']);

          // The capability, in its screen.
          await page.goto('/config/client-capabilities');
          const caps = page.getByRole('region', { name: 'Client capabilities' });
          await caps.locator('.ag-row').first().waitFor();
          await page.getByRole('button', { name: 'Add Capability' }).click();
          const capForm = page.getByRole('form', { name: 'Add Capability' });
          await capForm.getByRole('button', { name: 'Add Capability' }).click();
          await capForm.getByText('Client must be a client connector').or(capForm.getByText('Client is required')).first().waitFor();
          await choose(page, capForm, 'Client', new RegExp(COMP));
          await capForm.getByLabel('Max Order Qty').fill('50');
          await settled(page);
          await screenshot(page, 'client-capability-form');
          await clickForSuccess(page, capForm.getByRole('button', { name: 'Add Capability' }), CapabilityText.created);
          const capRow = caps.locator('.ag-row', { hasText: COMP });
          await capRow.getByText(CapabilityText.allSecurities).waitFor();
          await capRow.getByText('Buy', { exact: true }).waitFor();
          await capRow.getByText('Sell', { exact: true }).waitFor();
          await deskScreenshots(page, 'client-capabilities', SHOTS);

          // The same order now reaches the blotter, where it is accepted and filled.
          client.sendOrder('E2E-ONB-2', { qty: '10', price: '27000' });
          const pending = await client.report({ 35: '8', 11: 'E2E-ONB-2' });
          assert.equal(pending(150), 'A', pending(58));
          const orderId = pending(37)!;
          const blotter = new BlotterPage(page);
          await blotter.goto();
          await blotter.acceptButton(orderId).click();
          await client.report({ 11: 'E2E-ONB-2', 150: '0' });
          await blotter.statusCell(orderId).getByText('Accepted').waitFor();
          await blotter.select(orderId);
          await blotter.info.fill('10', '27000');
          const filled = await client.report({ 11: 'E2E-ONB-2', 39: '2' });
          assert.deepEqual([filled(150), filled(32), filled(31), filled(14)], ['F', '10', '27000', '10']);
          await blotter.statusCell(orderId).getByText('Filled').waitFor();
          await deskScreenshots(page, 'client-onboarding-filled', SHOTS);

          // Its session is recorded.
          await page.goto('/config/client-sessions');
          const sessions = page.getByRole('region', { name: 'Client sessions' });
          const sessionRow = sessions.locator('.ag-row', { hasText: COMP }).first();
          await sessionRow.getByText('Active').waitFor();
          await deskScreenshots(page, 'client-sessions', SHOTS);
          await sessionRow.getByRole('button', { name: /^Edit session/ }).click();
          const sessionForm = page.getByRole('form', { name: /^Edit Session \d+ \(E2E_ONBOARD\)$/ });
          await sessionForm.getByText('a correction is kept beside the recorded values', { exact: false }).waitFor();
          await settled(page);
          await screenshot(page, 'client-session-edit');
          await sessionForm.getByRole('button', { name: 'Cancel' }).click();

          // The capability removed: the next order is refused, at once and with the reason.
          await page.goto('/config/client-capabilities');
          const granted = caps.locator('.ag-row', { hasText: COMP });
          await granted.getByRole('button', { name: /^Delete capability \d+ of E2E_ONBOARD$/ }).click();
          await clickForSuccess(
            page,
            page.getByRole('dialog', { name: /^Delete capability/ }).getByRole('button', { name: 'Delete', exact: true }),
            /^Capability \d+ deleted/,
          );
          await granted.waitFor({ state: 'detached' });
          client.sendOrder('E2E-ONB-3');
          const refusedAgain = await client.report({ 35: '8', 11: 'E2E-ONB-3' });
          assert.deepEqual([refusedAgain(150), refusedAgain(58)], ['8', 'No trading permission for C5TC']);
          assert.deepEqual(client.sessionRejects(), [], 'QuickFIX found every report valid');
          await page.goto('/config/client-connectors');
          await grid.locator('.ag-row', { hasText: COMP }).getByText('cannot trade').waitFor();

          // Edit: the ids are locked; TLS shows its state; delete needs the exact comp id and is refused (orders).
          await page.goto('/config/client-connectors');
          await page.getByRole('button', { name: `Edit connector ${COMP}` }).click();
          const edit = page.getByRole('form', { name: `Edit Client Connector ${COMP}` });
          await edit.getByLabel('Client Name').waitFor();
          assert.equal(await edit.getByLabel('Execution ID Prefix').isDisabled(), true);
          assert.equal(await edit.getByLabel('Execution ID Prefix').inputValue(), 'EO1');
          await edit.getByRole('tab', { name: 'TLS/SSL' }).click();
          await edit.getByText('Disabled', { exact: true }).waitFor();
          await edit.getByRole('tab', { name: 'Delete' }).click();
          const del = edit.getByRole('button', { name: 'Delete Connector' });
          assert.equal(await del.isDisabled(), true);
          await edit.getByLabel(`Please type "${COMP}" to confirm deletion`).fill(COMP.toLowerCase());
          assert.equal(await del.isDisabled(), true, 'the comp id must match exactly');
          await edit.getByLabel(`Please type "${COMP}" to confirm deletion`).fill(COMP);
          await del.click();
          await edit
            .getByText(`Cannot delete client connector ${COMP} - it has 1 order(s) in the system. Deactivate it instead.`)
            .waitFor();
          await settled(page);
          await screenshot(page, 'client-connector-delete-refused');
        });
      } finally {
        await client.stop();
      }
    },
  );

  it('operates the live session and issues certificates from the connector dialog (Session and TLS/SSL tabs)', async () => {
    const token = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const created = await fetch(`${e2e.server.baseUrl}/api/client-connectors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        comp_id: CONSOLE_COMP,
        execution_id_prefix: 'E2C',
        client_name: 'Console Test Client',
        company_name: 'Console Test Ltd',
        trading_days: 'M,T,W,T,F,S,S',
        start_time: '00:00:00',
        end_time: '23:59:59',
        timezone: 'UTC',
        heartbeat_max_sec: 600,
      }),
    });
    assert.equal(created.status, 200, await created.text());
    const logs = new MemoryLogFactory();
    const client = await logOnConsoleClient(logs);
    try {
      await e2e.withPage(async (page) => {
        await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
        await page.getByRole('button', { name: `Edit connector ${CONSOLE_COMP}` }).click();
        const edit = page.getByRole('form', { name: `Edit Client Connector ${CONSOLE_COMP}` });
        await edit.getByLabel('Client Name').waitFor();
        // Every tab of the dialog, at both sizes (WhatsApp is there but disabled).
        assert.equal(await edit.getByRole('tab', { name: /WhatsApp/ }).isDisabled(), true);
        for (const [tab, name] of [
          ['Basic', 'basic'],
          ['Connection', 'connection'],
          ['Authentication', 'authentication'],
          ['Trading', 'trading'],
          ['Interactive FIX Spec', 'spec'],
          ['Delete', 'delete'],
        ] as const) {
          await edit.getByRole('tab', { name: tab, exact: true }).click();
          await deskScreenshots(page, `client-connector-tab-${name}`, SHOTS);
        }

        // Session tab: the live console. Number changes are not offered while the client is logged on.
        await edit.getByRole('tab', { name: 'Session', exact: true }).click();
        const console_ = page.getByTestId('session-console');
        await console_.getByText('Logged on', { exact: true }).waitFor();
        assert.equal(await console_.getByRole('button', { name: 'Set next target number' }).isDisabled(), true);
        assert.equal(await console_.getByRole('button', { name: 'Reset sequence numbers' }).isDisabled(), true);
        const numbers = (await page.getByTestId('console-numbers').textContent())!;
        const [nextSender, nextTarget] = numbers.split('/').map((n) => Number(n.trim()));
        await deskScreenshots(page, 'client-connector-tab-session-logged-on', SHOTS);

        // Logout: previewed, and only with a typed reason.
        await console_.getByRole('button', { name: 'Logout' }).click();
        const dialog = page.getByRole('dialog', { name: `Logout · ${CONSOLE_COMP}` });
        await dialog
          .getByTestId('action-preview')
          .getByText(`the next Logon will carry 34=${nextTarget! + 1} and our answer 34=${nextSender! + 1}`, { exact: false })
          .waitFor();
        const confirm = dialog.getByRole('button', { name: 'Logout' });
        assert.equal(await confirm.isDisabled(), true, 'no reason typed yet');
        await dialog.getByLabel(/^Reason/).fill('End of day <b>maintenance</b>');
        await settled(page);
        await screenshot(page, 'session-console-logout-preview');
        await confirm.click();
        await page.getByTestId('console-success').waitFor();
        await console_.getByText('Logged out', { exact: true }).waitFor();
        // As previewed: our Logout and the client's answer each took one number.
        await page
          .getByTestId('console-numbers')
          .getByText(`${nextSender! + 1} / ${nextTarget! + 1}`)
          .waitFor();
        await until('the client to be logged out', () => !client.loggedOn(), 5000);
        const logout = logs.lines.find((l) => l.kind === 'in' && l.text.includes('\x0135=5\x01'));
        assert.ok(logout?.text.includes('\x0158=End of day <b>maintenance</b>\x01'), logout?.text);
        // The reason is shown as text in the history, not as markup.
        await console_.getByRole('table', { name: 'Recent console actions' }).getByText('End of day <b>maintenance</b>').waitFor();

        // Set the next target number while logged out: the preview names what the next Logon carries.
        await console_.getByRole('button', { name: 'Set next target number' }).click();
        const setDialog = page.getByRole('dialog', { name: `Set next target number · ${CONSOLE_COMP}` });
        await setDialog.getByLabel(/^Next target number/).fill('25');
        await setDialog.getByTestId('action-preview').getByText('the next Logon will carry 34=25', { exact: false }).waitFor();
        await setDialog.getByLabel(/^Reason/).fill('Client restored its store at 25');
        await settled(page);
        await screenshot(page, 'session-console-set-target-preview');
        await setDialog.getByRole('button', { name: 'Set next target number' }).click();
        await page
          .getByTestId('console-numbers')
          .getByText(/\/ 25$/)
          .waitFor();
        await deskScreenshots(page, 'client-connector-tab-session-logged-out', SHOTS);

        // TLS/SSL tab: a certificate issued by the desk's CA; the key only on demand.
        await edit.getByRole('tab', { name: 'TLS/SSL' }).click();
        const panel = page.getByTestId('tls-panel');
        await page.getByTestId('tls-status').getByText('Disabled').waitFor();
        await panel.getByLabel('Common name').waitFor();
        assert.equal(await panel.getByLabel('Country').inputValue(), 'US');
        await panel.getByLabel('Country').fill('USA1');
        assert.equal(await panel.getByLabel('Country').inputValue(), 'US', 'two letters at most');
        await panel.getByLabel('Common name').fill('');
        await panel.getByRole('button', { name: 'Generate certificates' }).click();
        await panel.getByText('Common name is required').waitFor();
        await deskScreenshots(page, 'client-connector-tab-tls', SHOTS);
        await panel.getByLabel('Common name').fill('console-client.example');
        await panel.getByRole('button', { name: 'Generate certificates' }).click();
        await page
          .getByTestId('tls-success')
          .getByText(/^Certificates generated and stored in database! Valid until: \d{4}-\d{2}-\d{2}$/)
          .waitFor();
        await page.getByTestId('tls-status').getByText('Enabled').waitFor();
        await panel.getByLabel('Client certificate').waitFor();
        assert.match(await panel.getByLabel('Desk CA certificate').inputValue(), /^-----BEGIN CERTIFICATE-----/);
        assert.equal(await panel.getByLabel('Client private key').count(), 0, 'the key is hidden until asked for');
        await deskScreenshots(page, 'client-connector-tab-tls-issued', SHOTS);
        await panel.getByRole('button', { name: 'Show private key' }).click();
        assert.match(await panel.getByLabel('Client private key').inputValue(), /^-----BEGIN PRIVATE KEY-----/);
        await panel.getByRole('button', { name: 'Session config' }).click();
        await panel.getByLabel('QuickFIX settings file').getByText(`SenderCompID=${CONSOLE_COMP}`, { exact: false }).waitFor();
        // Generating certificates saved nothing else: the dialog still closes without a change.
        await edit.getByRole('button', { name: 'Cancel' }).click();
        await page
          .getByRole('region', { name: 'Client connectors' })
          .locator('.ag-row', { hasText: CONSOLE_COMP })
          .getByText('Enabled', { exact: true })
          .waitFor();
      });
    } finally {
      await client.initiator.stop();
    }
  });

  it("makes a drop copy connector in the dialog: its session type, the clients it copies, the grid's Session Type", async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'admin', { at: '/config/client-connectors' });
      const grid = page.getByRole('region', { name: 'Client connectors' });
      await grid.getByText('SGX_CLIENT_1', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add Connector' }).click();
      const form = page.getByRole('form', { name: 'Add Client Connector' });
      await form.getByLabel('Component ID').fill(DROP_COMP);
      await form.getByLabel('Execution ID Prefix').fill('MO2');
      await form.getByLabel('Client Name').fill('Middle Office');
      // The clients copied are asked for a drop copy only.
      assert.equal(await form.getByLabel('Clients Copied').count(), 0);
      await choose(page, form, 'Session Type', 'Drop Copy');
      await choose(page, form, 'Clients Copied', /^SGX_CLIENT_1/);
      // The list closed: a click on the dialog's title.
      await page.getByRole('dialog').getByText('Add Client Connector', { exact: true }).click();
      await deskScreenshots(page, 'client-connector-drop-copy-form', SHOTS);
      await clickForSuccess(page, form.getByRole('button', { name: 'Add Connector' }), 'Client connector created successfully!');
      const row = grid.locator('.ag-row', { hasText: DROP_COMP });
      await row.getByText('Drop Copy', { exact: true }).waitFor();
      await grid.locator('.ag-row', { hasText: 'SGX_CLIENT_1' }).getByText('Order Entry', { exact: true }).waitFor();
      await deskScreenshots(page, 'client-connectors-drop-copy', SHOTS);

      // Edited again: the dialog reads both back.
      await page.getByRole('button', { name: `Edit connector ${DROP_COMP}` }).click();
      const edit = page.getByRole('form', { name: `Edit Client Connector ${DROP_COMP}` });
      await edit.getByText('SGX_CLIENT_1', { exact: false }).first().waitFor();
      const sessionType = selectInput(edit, 'Session Type');
      assert.equal(await sessionType.inputValue(), 'Drop Copy');
      await deskScreenshots(page, 'client-connector-drop-copy-edit', SHOTS);
      await edit.getByRole('button', { name: 'Cancel' }).click();
    });
  });

  it('leaves a drop copy session out of the lists of clients that trade, and keeps it where sessions are listed', async () => {
    const token = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const made = await e2e.api('POST', '/api/client-connectors', token, {
      comp_id: BACK_OFFICE,
      execution_id_prefix: 'BO7',
      client_name: 'Back Office Copies',
      session_type: 'drop_copy',
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    await e2e.withPage(async (page) => {
      // The blotter's client filter (and its Stop client items): trading clients only.
      await e2e.signIn(page, 'admin', { at: '/orders' });
      const menu = new ClientFilterMenu(page);
      await menu.open();
      await menu.stopItem('SGX_CLIENT_1').waitFor();
      assert.equal(await menu.stopItem(BACK_OFFICE).count(), 0);
      assert.equal(await menu.menu.getByText('Back Office Copies').count(), 0);
      await menu.close();

      // The FIX Client trades as the client it picks.
      await page.goto(`${e2e.server.baseUrl}/fix-client`);
      await selectInput(page, 'Client connector').click();
      await page
        .getByRole('option', { name: /SGX_CLIENT_1/ })
        .first()
        .waitFor();
      assert.equal(await page.getByRole('option', { name: /Back Office Copies/ }).count(), 0);
      await page.keyboard.press('Escape');

      // Capabilities are for clients that trade; the sessions screen lists every session, a drop copy's too.
      for (const [at, listed] of [
        ['/config/client-capabilities', false],
        ['/config/client-sessions', true],
      ] as const) {
        await page.goto(`${e2e.server.baseUrl}${at}`);
        await selectInput(page, 'Filter by client').click();
        await page
          .getByRole('option', { name: /SGX_CLIENT_1/ })
          .first()
          .waitFor();
        assert.equal(await page.getByRole('option', { name: /Back Office Copies/ }).count(), listed ? 1 : 0, at);
        await page.keyboard.press('Escape');
      }
    });
  });
});
