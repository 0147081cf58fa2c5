/// <reference lib="dom" />
// The kill switch per client in Chromium: a broker stops a client with working orders from
// the blotter's client filter menu (reason required, the working orders counted, the server's refusal
// shown in the dialog), the orders go Canceled, the stopped client shows on the blotter's header, on
// Client Connectors and on Service Status (live, and after a reload), new orders are refused, and the
// broker resumes it. A viewer sees the stop and no action.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { KillSwitchText } from '@fixdesk/protocol';
import type { Page } from 'playwright-core';
import { newOrderSingle } from '../tests/support/fix-client';
import { ClientFilterMenu, KillSwitchModal } from './pages/KillSwitch';
import { blotterDesk } from './support/blotter-desk';
import { DESK_SIZES, deskScreenshots, type DeskScreenshotOptions } from './support/browser';

const { e2e, client, signInToBlotter, sendOrder, nextClOrdId, apiCall } = blotterDesk('KS');
const SGX = 'SGX_CLIENT_1';

const SHOTS: DeskScreenshotOptions = { restore: true, dir: tmpdir() };

const toast = (page: Page, title: string) => page.locator('.mantine-Notification-root', { hasText: title });

/** The Status cell of a connector's row on Client Connectors (Active, Inactive, or Stopped by the kill switch). */
const statusCell = (page: Page, compId: string) =>
  page.getByRole('region', { name: 'Client connectors' }).locator('.ag-row', { hasText: compId }).locator('[col-id="status"]');

/** Sends a NewOrderSingle and waits for its first report (Pending New, or a refusal). */
async function sendRaw(tag: string): Promise<{ clOrdId: string; execType: string; text: string }> {
  const clOrdId = nextClOrdId(tag);
  await client.send('D', newOrderSingle(clOrdId, { qty: '2', price: '27000' }));
  const first = await client.waitForReport(clOrdId, (m) => m.get(150) === 'A' || m.get(150) === '8');
  return { clOrdId, execType: first.get(150)!, text: first.get(58) ?? '' };
}

describe('kill switch per client', () => {
  it('a broker stops a client from the blotter: its working orders cancel, the stop shows everywhere, live and after a reload; then resumes it', async () => {
    await e2e.withPage(async (admin) => {
      // An administrator watches Client Connectors meanwhile: the row follows without a reload.
      await admin.setViewportSize(DESK_SIZES[0]);
      await e2e.signIn(admin, 'admin', { at: '/config/client-connectors' });
      await statusCell(admin, SGX).getByText('Active').waitFor();

      await e2e.withPage(async (page) => {
        await page.setViewportSize(DESK_SIZES[0]);
        const blotter = await signInToBlotter(page, 'broker');
        const working = [await sendOrder({ qty: '3', price: '27000' }, 'W1'), await sendOrder({ qty: '4', price: '27100' }, 'W2')];
        await blotter.acceptButton(working[1]!.id).click();
        await blotter.statusCell(working[1]!.id).getByText('Accepted').waitFor();
        await blotter.acceptButton(working[0]!.id).waitFor();
        assert.equal(await page.getByTestId(`stopped-banner-${SGX}`).count(), 0, 'nothing stopped yet');
        const gridBefore = (await blotter.ordersGrid.boundingBox())!;

        // The client filter menu: Stop client for each client.
        const menu = new ClientFilterMenu(page);
        await menu.open();
        assert.equal(await menu.resumeItem(SGX).count(), 0);
        await menu.stopItem(SGX).click();
        const modal = new KillSwitchModal(page);
        await modal.waitOpen(SGX, 'stop');
        // The client's two working orders, counted from the blotter's live book.
        assert.equal((await modal.consequences.textContent())?.trim(), KillSwitchText.stopConsequences(SGX, 2));
        assert.equal(await modal.form.getByText(KillSwitchText.logoutOption).count(), 1);
        assert.equal(await modal.logout.isChecked(), false);

        // A reason is required (the server's schema, checked before sending): nothing is sent.
        await modal.confirmButton.click();
        await modal.reasonError().getByText('A reason is required').waitFor();
        // The server's own refusal of the reason shows under it too (a NUL character only the server checks).
        await modal.reason.fill('bad\u0000reason');
        assert.equal(await modal.reason.inputValue(), 'bad\u0000reason', 'the browser keeps the character: the server sees it');
        await modal.confirmButton.click();
        await modal
          .reasonError()
          .getByText(/Reason must not contain a NUL character/)
          .waitFor();
        await page.waitForTimeout(300);
        for (const w of working)
          assert.equal(
            client.received.filter((m) => m.get(11) === w.clOrdId && m.get(150) === '4').length,
            0,
            'no cancel before the confirmation',
          );
        await modal.reason.fill('Runaway algo: duplicate orders');
        await deskScreenshots(page, 'kill-modal', SHOTS);

        await modal.confirmButton.click();
        await modal.form.waitFor({ state: 'detached' });
        await toast(page, 'Client stopped').getByText(`${SGX} stopped: 2 working orders canceled`).waitFor();
        for (const w of working) {
          await client.waitForReport(w.clOrdId, (m) => m.get(150) === '4');
          await blotter.statusCell(w.id).getByText('Canceled').waitFor();
        }

        // The header's strip, in space the bar already had: the grid has not moved.
        const banner = page.getByTestId(`stopped-banner-${SGX}`);
        await banner.waitFor();
        assert.match(
          (await banner.textContent()) ?? '',
          new RegExp(`^${SGX} stopped by broker at (\\d{4}-\\d{2}-\\d{2} )?\\d{2}:\\d{2}:\\d{2} UTC: Runaway algo: duplicate orders$`),
        );
        const gridAfter = (await blotter.ordersGrid.boundingBox())!;
        assert.deepEqual(
          [gridAfter.x, gridAfter.y, gridAfter.height],
          [gridBefore.x, gridBefore.y, gridBefore.height],
          'no layout jump when the strip appears',
        );

        // The client's next order is refused, saying why.
        const refused = await sendRaw('AFTER-STOP');
        assert.equal(refused.execType, '8');
        assert.match(refused.text, /stopped by the desk \(kill switch\): Runaway algo: duplicate orders/);

        // The menu now offers Resume, and marks the client stopped.
        await menu.open();
        await menu.resumeItem(SGX).waitFor();
        await menu.menu.getByTestId(`client-stopped-${SGX}`).waitFor();
        await deskScreenshots(page, 'kill-blotter-menu', SHOTS);
        await menu.close();
        await deskScreenshots(page, 'kill-blotter', SHOTS);

        // The administrator's Client Connectors followed live; its tooltip says who and why.
        const cell = statusCell(admin, SGX);
        await cell.getByText('Stopped').waitFor();
        await cell.hover();
        await admin
          .locator('.ag-tooltip', { hasText: 'Active connector, trading stopped. Stopped by broker at' })
          .getByText(/Runaway algo: duplicate orders/)
          .waitFor();
        await deskScreenshots(admin, 'kill-client-connectors', SHOTS);
        // The stop in the Status cell and the Resume action keep the table within 1280 px (no sideways scroll).
        await admin.setViewportSize(DESK_SIZES[1]);
        await admin.waitForTimeout(300);
        const [scroll, view] = await admin
          .getByRole('region', { name: 'Client connectors' })
          .locator('.ag-body-horizontal-scroll-viewport')
          .evaluate((el) => [el.scrollWidth, el.clientWidth]);
        assert.ok(scroll! <= view! + 1, `Client Connectors at 1280 px: ${scroll! - view!} px of columns beyond the table`);
        await admin.setViewportSize(DESK_SIZES[0]);
        // After a reload it is still there (read from the connectors list).
        await admin.reload();
        await statusCell(admin, SGX).getByText('Stopped').waitFor();
        assert.equal(await admin.getByTestId(`resume-client-${SGX}`).count(), 1, 'the row offers Resume client');

        // Service Status: the client's session row.
        await admin.goto('/service-status');
        const stoppedBadge = admin.getByTestId(`session-stopped-${SGX}`);
        await stoppedBadge.waitFor();
        await deskScreenshots(admin, 'kill-service-status', { ...SHOTS, fullPage: true });

        // The broker's blotter after a reload shows the stop too.
        await page.reload();
        await blotter.waitReady();
        await page.getByTestId(`stopped-banner-${SGX}`).waitFor();

        // Resume from the client filter menu.
        await menu.open();
        await menu.resumeItem(SGX).click();
        await modal.waitOpen(SGX, 'resume');
        assert.equal((await modal.consequences.locator('p').first().textContent())?.trim(), KillSwitchText.resumeConsequences(SGX));
        await modal.form
          .getByTestId('kill-switch-current-stop')
          .getByText(/Stopped by broker at .*: Runaway algo: duplicate orders/)
          .waitFor();
        assert.equal(await modal.logout.count(), 0, 'no logout option on a resume');
        await modal.confirm('Algo fixed, client called');
        await toast(page, 'Client resumed').getByText(`${SGX} resumed: new orders are accepted again`).waitFor();
        await page.getByTestId(`stopped-banner-${SGX}`).waitFor({ state: 'detached' });
        // The administrator's Service Status drops the badge live.
        await stoppedBadge.waitFor({ state: 'detached' });

        // New orders are taken again; the canceled ones stay canceled.
        const again = await sendRaw('AFTER-RESUME');
        assert.equal(again.execType, 'A');
        for (const w of working) await blotter.statusCell(w.id).getByText('Canceled').waitFor();
      });
    });
  });

  it('a viewer sees a stopped client on the blotter and Service Status, and no Stop or Resume; the server refuses it too', async () => {
    const broker = await e2e.apiLogin('broker', e2e.server.demoPassword);
    const viewer = await e2e.apiLogin('viewer', e2e.server.demoPassword);
    assert.equal((await apiCall(viewer, `/api/client-connectors/${SGX}/stop`, { reason: 'not allowed' })).status, 403);
    const stopped = await apiCall(broker, `/api/client-connectors/${SGX}/stop`, { reason: 'Margin call' });
    assert.equal(stopped.status, 200);
    try {
      await e2e.withPage(async (page) => {
        await page.setViewportSize(DESK_SIZES[0]);
        await signInToBlotter(page, 'viewer');
        await page
          .getByTestId(`stopped-banner-${SGX}`)
          .getByText(/stopped by broker at .*: Margin call/)
          .waitFor();
        const menu = new ClientFilterMenu(page);
        await menu.open();
        await menu.menu.getByTestId(`client-stopped-${SGX}`).waitFor();
        assert.equal(await menu.killSwitchItems().count(), 0, 'no Stop or Resume for a viewer');
        assert.equal(await menu.menu.getByText('Kill switch').count(), 0);
        await menu.close();
        // A resume by a broker elsewhere reaches the viewer's blotter live.
        assert.equal((await apiCall(broker, `/api/client-connectors/${SGX}/resume`, { reason: 'Margin paid' })).status, 200);
        await page.getByTestId(`stopped-banner-${SGX}`).waitFor({ state: 'detached' });
        // Two clients stopped: a strip each, in the same header bar.
        assert.equal(
          (await apiCall(broker, `/api/client-connectors/${SGX}/stop`, { reason: 'Credit limit breached on the FFA book' })).status,
          200,
        );
        assert.equal(
          (await apiCall(broker, `/api/client-connectors/EEX_CLIENT_1/stop`, { reason: 'Duplicate ClOrdIDs from the client algo' })).status,
          200,
        );
        await page.getByTestId('stopped-banner-EEX_CLIENT_1').waitFor();
        await page.getByTestId(`stopped-banner-${SGX}`).waitFor();
        await deskScreenshots(page, 'kill-blotter-two-stopped-viewer', SHOTS);
        assert.equal((await apiCall(broker, `/api/client-connectors/EEX_CLIENT_1/resume`, { reason: 'Fixed' })).status, 200);
        await page.getByTestId('stopped-banner-EEX_CLIENT_1').waitFor({ state: 'detached' });
        // And a stop does too, on Service Status.
        assert.equal((await apiCall(broker, `/api/client-connectors/${SGX}/stop`, { reason: 'Margin call again' })).status, 200);
        await page.goto('/service-status');
        await page.getByTestId(`session-stopped-${SGX}`).waitFor();
      });
    } finally {
      await apiCall(broker, `/api/client-connectors/${SGX}/resume`, { reason: 'end of test' });
    }
  });
});
