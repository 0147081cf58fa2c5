/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calendarSpread, maturity } from '../tests/support/fix-client';
import { screenshot } from './support/browser';
import { blotterDesk } from './support/blotter-desk';

const { e2e, client, nextClOrdId, signInToBlotter } = blotterDesk('ML');

// The Multileg Trade Capture window: spread entry, leg panels, leg and spread fills.
describe('blotter: multileg trade capture', () => {
  it('captures a multileg order: spread entry, buy and sell leg panels, leg fills', async () => {
    await e2e.withPage(async (page) => {
      const blotter = await signInToBlotter(page);
      const clOrdId = nextClOrdId('ML');
      await client.send('AB', calendarSpread(clOrdId));
      const id = (await client.waitForReport(clOrdId, (m) => m.get(150) === 'A')).get(37)!;
      // Pending: the trade capture button and the accept form are both shown; Enter goes to the accept form.
      await blotter.select(id);
      await blotter.info.root.getByTestId('accept-reject-panel').waitFor();
      assert.equal(await page.locator('[id="fill-panel-first"]').count(), 1, 'one element is the Enter target');
      await blotter.row(id).locator('[col-id="side"]').click();
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () =>
          document.activeElement?.closest('[data-testid="accept-reject-panel"]') !== null && document.activeElement?.tagName === 'INPUT',
      );
      await blotter.acceptButton(id).click();
      await blotter.statusCell(id).getByText('Accepted').waitFor();
      await blotter.info.root.getByTestId('multileg-section').waitFor();
      await blotter.row(id).locator('[col-id="side"]').click();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.textContent === 'Open Trade Capture');
      await blotter.info.openTradeCapture.click();
      const modal = page.getByRole('dialog');
      await modal.getByText('Trade Analysis').waitFor();
      await modal.getByText('Client Info').waitFor();
      await modal.getByTestId('spread-fill').waitFor();
      const buyLeg = modal.getByTestId('leg-panel-buy');
      const sellLeg = modal.getByTestId('leg-panel-sell');
      await buyLeg.locator('.ag-row').first().waitFor();
      await sellLeg.locator('.ag-row').first().waitFor();
      const rowHeight = await buyLeg
        .locator('.ag-row')
        .first()
        .evaluate((el) => el.getBoundingClientRect().height);
      assert.equal(Math.round(rowHeight), 30, 'legs grid rows are 30 px');

      // The leg form's own texts.
      await buyLeg.getByRole('spinbutton', { name: 'Buy leg quantity' }).fill('3');
      await buyLeg.getByText('Total fills (3) would exceed order quantity (2)', { exact: true }).waitFor();
      await screenshot(page, 'blotter-multileg');

      await buyLeg.getByRole('spinbutton', { name: 'Buy leg quantity' }).fill('2');
      await buyLeg.getByRole('spinbutton', { name: 'Buy leg price' }).fill('27300');
      await buyLeg.getByRole('button', { name: 'Fill Leg' }).click();
      await client.waitForReport(clOrdId, (m) => m.get(150) === 'F');
      // Filled leg by leg now: the spread fill is disabled, and says why (not a 409 after the click).
      const spreadEntry = modal.getByTestId('spread-fill');
      await spreadEntry
        .getByTestId('fill-blocked')
        .getByText('This order is being filled leg by leg: add the fill on one of its legs.', { exact: true })
        .waitFor();
      assert.equal(await spreadEntry.getByRole('spinbutton', { name: 'Spread fill quantity' }).isDisabled(), true);
      assert.equal(await spreadEntry.getByRole('button', { name: 'Submit Spread Fill' }).isDisabled(), true);
      // The leg's own average price.
      assert.equal((await buyLeg.locator('.ag-row [col-id]').last().textContent())?.trim(), '27,300.00');
      await buyLeg.getByRole('spinbutton', { name: 'Buy leg quantity' }).fill('1');
      await buyLeg.getByText('Order is already fully filled', { exact: true }).waitFor();

      await sellLeg.getByRole('spinbutton', { name: 'Sell leg quantity' }).fill('2');
      await sellLeg.getByRole('spinbutton', { name: 'Sell leg price' }).fill('27100');
      await sellLeg.getByRole('button', { name: 'Fill Leg' }).click();
      const done = await client.waitForReport(clOrdId, (m) => m.get(39) === '2');
      assert.equal(done.get(14), '2');
      assert.equal(done.get(6), '200', 'the implied spread price');
      await modal.getByTestId('ml-cumqty').getByText('2', { exact: true }).waitFor();
      await screenshot(page, 'blotter-multileg-filled');

      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      await blotter.statusCell(id).getByText('Filled').waitFor();
    });
  });

  it('lays the trade capture out in one column in a 760 px window, Trade Analysis on its own row', async () => {
    await e2e.withPage(async (page) => {
      await signInToBlotter(page);
      const clOrdId = nextClOrdId('NARROW');
      await client.send('AB', calendarSpread(clOrdId, { price: '250' }));
      const id = (await client.waitForReport(clOrdId, (m) => m.get(150) === 'A')).get(37)!;
      // The desktop pop-out's size (windows.ts).
      await page.setViewportSize({ width: 760, height: 920 });
      await page.goto(`/order-detail/${id}`);
      await page.getByRole('button', { name: 'Open Trade Capture' }).click();
      const modal = page.getByRole('dialog');
      const analysis = modal.getByTestId('trade-analysis');
      await analysis.waitFor();
      const a = (await analysis.boundingBox())!;
      const c = (await modal
        .getByText('Client Info')
        .locator('xpath=ancestor::div[contains(@class,"mantine-Paper-root")][1]')
        .boundingBox())!;
      const body = (await modal.locator('.mantine-Modal-body').boundingBox())!;
      assert.ok(c.y >= a.y + a.height, 'Client Info is below Trade Analysis');
      assert.ok(Math.abs(a.width - c.width) < 1, `both span the one column (${a.width} vs ${c.width})`);
      assert.ok(a.x + a.width <= body.x + body.width + 0.5, 'Trade Analysis stays inside the modal');
      await screenshot(page, 'blotter-multileg-narrow');
    });
  });

  it('books a spread fill for the whole strategy from the trade capture', async () => {
    await e2e.withPage(async (page) => {
      const blotter = await signInToBlotter(page);
      const clOrdId = nextClOrdId('SPR');
      await client.send(
        'AB',
        calendarSpread(clOrdId, {
          qty: '3',
          price: '-150',
          side: '2',
          legs: [
            { maturity: maturity(4), side: '2' },
            { maturity: maturity(5), side: '1' },
          ],
        }),
      );
      const id = (await client.waitForReport(clOrdId, (m) => m.get(150) === 'A')).get(37)!;
      await blotter.acceptButton(id).click();
      await blotter.statusCell(id).getByText('Accepted').waitFor();
      await blotter.select(id);
      await blotter.info.openTradeCapture.click();
      const spread = page.getByRole('dialog').getByTestId('spread-fill');
      await spread.getByRole('spinbutton', { name: 'Spread fill price' }).fill('-160');
      await spread.getByText('Sell order fill price -160 is below limit price -150 (must be ≥)', { exact: true }).waitFor();
      await spread.getByRole('spinbutton', { name: 'Spread fill quantity' }).fill('1');
      await spread.getByRole('spinbutton', { name: 'Spread fill price' }).fill('-140');
      await spread.getByRole('button', { name: 'Submit Spread Fill' }).click();
      const fill = await client.waitForReport(clOrdId, (m) => m.get(150) === 'F');
      assert.deepEqual([fill.get(32), fill.get(31), fill.get(39)], ['1', '-140', '1']);
      await page.getByRole('dialog').getByTestId('ml-cumqty').getByText('1', { exact: true }).waitFor();
      // A spread fill gives the legs no price of their own: not "0.00"; and the legs cannot be filled now.
      const dialog = page.getByRole('dialog');
      // The leg rows follow the order's update a frame later: wait for the cell rather than read it once.
      const legAvg = dialog.getByTestId('leg-panel-buy').locator('.ag-row').first().locator('[col-id]').last();
      await legAvg.getByText('at spread', { exact: true }).waitFor({ timeout: 5_000 });
      await dialog
        .getByTestId('leg-panel-buy')
        .getByTestId('fill-blocked')
        .getByText('This order is being filled at the spread price: add the fill as a spread fill.', { exact: true })
        .waitFor();
      assert.equal(await dialog.getByTestId('leg-panel-buy').getByRole('button', { name: 'Fill Leg' }).isDisabled(), true);
      await screenshot(page, 'blotter-multileg-spread-filled');
    });
  });
});
