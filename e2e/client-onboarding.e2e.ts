// Client onboarding (issue 15, part A): an administrator creates a connector and a capability in the
// screens, a FIX client logs on with the new comp id and its order reaches the blotter; without the
// capability the same order is refused with the reason. The route guard, the dialog's checks, the
// session record and the delete refused while the client has orders; screenshots at two sizes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CapabilityText } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { screenshot, waitForPath } from './support/browser';
import { E2E } from './support/fixture';
import { LoginPage } from './pages/LoginPage';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

const SIZES = [
  { width: 1600, height: 1000 },
  { width: 1280, height: 800 },
] as const;
const COMP = 'E2E_ONBOARD';

async function signIn(page: Page, username: 'admin' | 'broker', path: string): Promise<void> {
  await page.goto(path);
  await waitForPath(page, '/login');
  await new LoginPage(page).signIn(username, username === 'admin' ? e2e.server.adminPassword : e2e.server.demoPassword);
}

async function shots(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(250);
    await screenshot(page, `${name}-${size.width}x${size.height}`);
  }
  await page.setViewportSize(SIZES[0]);
}

async function choose(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string | RegExp): Promise<void> {
  await scope.getByRole('textbox', { name: label, exact: true }).or(scope.getByRole('combobox', { name: label, exact: true })).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('client onboarding screens', () => {
  it('are for administrators only: a broker is sent home', async () => {
    await e2e.withPage(async (page) => {
      for (const path of ['/config/client-connectors', '/config/client-sessions', '/config/client-capabilities']) {
        await signIn(page, 'broker', path);
        await waitForPath(page, '/');
        await page.context().clearCookies();
        await page.evaluate(() => localStorage.clear());
      }
    });
  });

  it('onboards a client: connector and capability in the screens, its order on the blotter', async () => {
    const client = new TestFixClient(COMP);
    try {
      await e2e.withPage(async (page) => {
        await signIn(page, 'admin', '/config/client-connectors');
        await waitForPath(page, '/config/client-connectors');
        const grid = page.getByRole('region', { name: 'Client connectors' });
        await grid.getByText('SGX_CLIENT_1', { exact: true }).waitFor();
        await shots(page, 'client-connectors');

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
        assert.equal(await form.getByLabel('Execution ID Prefix').inputValue(), 'ABC', 'the prefix input takes at most 3 characters');
        await page.waitForTimeout(400);
        await screenshot(page, 'client-connector-form-errors');

        await form.getByLabel('Component ID').fill(COMP);
        await form.getByLabel('Execution ID Prefix').fill('eo1');
        await form.getByLabel('Client Name').fill('E2E Onboard <b>Ltd</b>');
        await form.getByLabel('Website').fill('https://onboard.example');
        await form.getByRole('tab', { name: 'Trading' }).click();
        await form.getByLabel('Session Start').fill('00:00:00');
        await form.getByLabel('Session End').fill('23:59:59');
        await form.getByLabel('Trading Days').fill('M,T,W,T,F,S,S');
        await choose(page, form, 'Time Zone', 'UTC');
        await page.waitForTimeout(300);
        await screenshot(page, 'client-connector-form-trading');
        await form.getByRole('tab', { name: 'TLS/SSL' }).click();
        await form.getByText('Please save the connector first before generating certificates').waitFor();
        assert.equal(await form.getByRole('tab', { name: /WhatsApp/ }).isDisabled(), true, 'WhatsApp is not there yet');
        await form.getByRole('tab', { name: 'Interactive FIX Spec' }).click();
        await form.getByRole('table', { name: 'Session parameters' }).getByText('M,T,W,T,F,S,S 00:00:00–23:59:59 UTC').waitFor();
        await screenshot(page, 'client-connector-form-spec');
        await form.getByRole('button', { name: 'Add Connector' }).click();
        await page.getByTestId('admin-success').getByText('Client connector created successfully!').waitFor();
        const row = grid.locator('.ag-row', { hasText: COMP });
        await row.getByText('cannot trade').waitFor();
        await row.getByText('E2E Onboard <b>Ltd</b>', { exact: true }).waitFor();
        assert.equal(await grid.locator('b').count(), 0, 'markup typed in a name stays text');

        // The client logs on at once; without a capability its order is refused with the reason.
        await client.connect(e2e.server.fixPort);
        await row.getByText('Logged on').waitFor();
        await client.send('D', newOrderSingle('E2E-ONB-1'));
        const refused = await client.waitForReport('E2E-ONB-1', (m) => m.msgType === '8');
        assert.deepEqual([refused.get(150), refused.get(58)], ['8', 'No trading permission for C5TC']);

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
        await page.waitForTimeout(300);
        await screenshot(page, 'client-capability-form');
        await capForm.getByRole('button', { name: 'Add Capability' }).click();
        await page.getByTestId('admin-success').getByText(CapabilityText.created).waitFor();
        const capRow = caps.locator('.ag-row', { hasText: COMP });
        await capRow.getByText(CapabilityText.allSecurities).waitFor();
        await capRow.getByText('Buy', { exact: true }).waitFor();
        await capRow.getByText('Sell', { exact: true }).waitFor();
        await shots(page, 'client-capabilities');

        // The same order now reaches the blotter.
        await client.send('D', newOrderSingle('E2E-ONB-2'));
        const accepted = await client.waitForReport('E2E-ONB-2', (m) => m.msgType === '8');
        assert.equal(accepted.get(150), 'A', accepted.get(58));
        await page.goto('/orders');
        await page.getByText('E2E-ONB-2', { exact: true }).first().waitFor({ timeout: 15_000 });

        // Its session is recorded.
        await page.goto('/config/client-sessions');
        const sessions = page.getByRole('region', { name: 'Client sessions' });
        const sessionRow = sessions.locator('.ag-row', { hasText: COMP }).first();
        await sessionRow.getByText('Active').waitFor();
        await shots(page, 'client-sessions');
        await sessionRow.getByRole('button', { name: /^Edit session/ }).click();
        const sessionForm = page.getByRole('form', { name: /^Edit Session \d+ \(E2E_ONBOARD\)$/ });
        await sessionForm.getByText('a correction is kept beside the recorded values', { exact: false }).waitFor();
        await page.waitForTimeout(400);
        await screenshot(page, 'client-session-edit');
        await sessionForm.getByRole('button', { name: 'Cancel' }).click();

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
        await edit.getByText(`Cannot delete client connector ${COMP} - it has 1 order(s) in the system. Deactivate it instead.`).waitFor();
        await page.waitForTimeout(300);
        await screenshot(page, 'client-connector-delete-refused');
      });
    } finally {
      await client.stop();
    }
  });
});
