// The simulators end to end: the FIX Client Simulator logs a simulated client on to the desk and sends
// an outright, a quarter strip, a calendar spread and a custom multileg; the Broker Simulator in auto
// mode accepts and fills each in 2-4 chunks and marks it done; the blotter, the FIX Client screen and
// the API all show the outcome; stopping the client disconnects the connector.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newContext, screenshot, settled } from './support/browser';
import { E2E } from './support/fixture';
import { BlotterPage } from './pages/BlotterPage';
import { chooseOption, SimulatorBrokerPage, SimulatorClientPage, SimulatorFixClientPage } from './pages/SimulatorPages';
import { until } from '../tests/support/until';

// Several e2e servers run side by side: let each pick free control ports rather than the connectors' own.
process.env.TEST_CLIENT_PORTS = 'auto';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

interface ApiOrder {
  id: number;
  clordid: string;
  brokerorderid: string;
  ordstatus: string;
  symbol: string;
  msg_type: string;
  legs: unknown[];
  execReports?: Array<{ exectype: string; lastqty: string | null }>;
}

describe('simulators', () => {
  it('shows a viewer Send Order, Start and Stop disabled, saying why (the role, not the FIX client)', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'viewer', { landing: '/' });
      const sim = new SimulatorClientPage(page);
      await sim.goto();
      await sim.clientStatus.waitFor();
      assert.equal(await sim.entry.send.isDisabled(), true);
      const why = page.locator('[data-blocked-reason]', { has: page.getByTestId('send-order') });
      assert.match(
        (await why.getAttribute('data-blocked-reason')) ?? '',
        /read-only: trading actions need the Broker or Administrator role/,
      );
      const control = page.getByTestId('fix-client-control');
      assert.equal(await control.getByRole('button', { name: 'Start' }).isDisabled(), true);
      await why.hover();
      await page
        .getByRole('tooltip')
        .getByText(/read-only/)
        .waitFor();
      await screenshot(page, 'fix-test-client-viewer');
    });
  });

  it('checks an order before sending it, in the spec order, and shows the FIX preview', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker', { landing: '/' });
      const sim = new SimulatorClientPage(page);
      await sim.goto();
      assert.match(await sim.connectorInfo.innerText(), /SGX_CLIENT_1 → FIXDESK/);
      await sim.clientStatus.filter({ hasText: 'Disconnected' }).waitFor();

      const preview = await sim.entry.previewText.innerText();
      assert.match(preview, /^8=FIX\.4\.4\|9=\d+\|35=D\|/);
      assert.match(preview, /\|11=SGX-1\.1\|/, 'client order id rule: prefix, count + 1, .1');
      assert.match(preview, /\|49=SGX_CLIENT_1\|56=FIXDESK\|/);
      assert.match(preview, /\|448=549300STRAITS000SG15\|447=D\|452=7\|448=Mei Lin Tan\|447=D\|452=11\|/, 'parties from the connector');
      assert.match(preview, /\|10=\d{3}\|$/);

      // Connector chosen, symbol and quantity there, price missing: the limit price message comes first.
      await sim.entry.number('Limit price').fill('');
      await sim.entry.send.click();
      assert.equal(await sim.entry.errorText(), 'Please enter Limit Price for limit orders');
      await sim.entry.number('Limit price').fill('27000');
      await sim.entry.send.click();
      await page.getByText('FIX Client not running. Start client first.').waitFor();

      await sim.entry.tab('Custom Multileg').click();
      await chooseOption(page, sim.entry.legType('sell', 1), 'Quarter (3 months)');
      await sim.entry.customRatios.waitFor();
      assert.equal((await sim.entry.customRatios.innerText()).trim(), 'Ratios by greatest common divisor: buy legs 3 : sell legs 1');
      assert.match(await sim.entry.strategySymbol.innerText(), /^([A-Z0-9]+)-[A-Z][a-z]{2}-\d{2}\/\1-Q[1-4]-\d{2}$/);
      await screenshot(page, 'simulator-custom-multileg', true);
    });
  });

  it('sends an outright, a quarter strip, a calendar spread and a custom multileg that the Broker Simulator fills and finishes', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker', { landing: '/' });
      const broker = new SimulatorBrokerPage(page);
      await broker.goto();
      await broker.acceptDelay.fill('0');
      await page.getByText('Accept delay must be between 1 and 10 seconds').waitFor();
      await broker.acceptDelay.fill('1');
      await broker.fillDelay.fill('1');
      await broker.setAuto(true);
      assert.equal(await broker.auto.isChecked(), true);

      // The client side in a browser of its own (a second tab of one browser would share the session
      // storage with the broker's tab).
      const clientContext = await newContext(e2e.browser, e2e.server.baseUrl);
      const client = await clientContext.newPage();
      const clientErrors: string[] = [];
      client.on('pageerror', (error) => clientErrors.push(error.message));
      await e2e.signIn(client, 'admin', { landing: '/' });
      const sim = new SimulatorClientPage(client);
      await sim.goto();
      await sim.start.click();
      // Whole text: a string would match as a case-insensitive substring, and "Disconnected" contains it
      // (the test then sent while the client was still logging on, which failed under load).
      await client.locator('[data-testid="fix-client-status"]', { hasText: /^Connected$/ }).waitFor();
      await client.locator('[data-testid="connector-session"]', { hasText: /^Connected$/ }).waitFor();

      const sent: string[] = [];
      const clOrdIdOf = (banner: string) => /ClOrdID (\S+)\)/.exec(banner)?.[1] ?? '';

      // Outright: the first security's default month, 10 lots at 27,000.
      let banner = await sim.entry.sendAndConfirm();
      assert.match(banner, /^Order sent successfully!/);
      sent.push(clOrdIdOf(banner));

      // Quarter strip (the Multileg tab's default type).
      await sim.entry.tab('Multileg').click();
      await client.getByTestId('leg-table-empty').waitFor({ state: 'detached' });
      banner = await sim.entry.sendAndConfirm();
      assert.match(banner, /^Multileg order sent successfully!/);
      sent.push(clOrdIdOf(banner));

      // Calendar spread: 12 months against the next 12.
      await sim.entry.choose('Multileg type', 'Calendar Spread');
      assert.match(await sim.entry.strategySymbol.innerText(), /^[A-Z0-9]+-CAL-\d{2}\/CAL-\d{2}$/);
      await screenshot(client, 'simulator-calendar-spread', true);
      banner = await sim.entry.sendAndConfirm();
      sent.push(clOrdIdOf(banner));

      // Custom: one month against a quarter, balanced 3 : 1.
      await sim.entry.tab('Custom Multileg').click();
      await chooseOption(client, sim.entry.legType('sell', 1), 'Quarter (3 months)');
      banner = await sim.entry.sendAndConfirm();
      assert.match(banner, /^Custom order sent successfully!/);
      sent.push(clOrdIdOf(banner));
      assert.deepEqual(sent, ['SGX-1.1', 'SGX-2.1', 'SGX-3.1', 'SGX-4.1']);

      // Every order ends Done for Day with 2 to 4 fills, through the desk's own API.
      const token = await e2e.apiLogin('broker', e2e.server.demoPassword);
      const done = await until(
        'all four orders done for day',
        async () => {
          const r = await fetch(`${e2e.server.baseUrl}/api/orders?sendercompid=SGX_CLIENT_1`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const list = (await r.json()) as ApiOrder[];
          const mine = sent.map((c) => list.find((o) => o.clordid === c));
          return mine.every((o) => o?.ordstatus === '3') ? (mine as ApiOrder[]) : undefined;
        },
        90_000,
        250,
      );
      for (const o of done) {
        const fills = (o.execReports ?? []).filter((er) => er.exectype === 'F').length;
        assert.ok(fills >= 2 && fills <= 4, `${o.clordid} has ${fills} fills`);
      }
      assert.deepEqual(
        done.map((o) => o.msg_type),
        ['D', 'AB', 'AB', 'AB'],
      );
      assert.deepEqual(
        done.map((o) => o.legs.length),
        [0, 3, 24, 4],
      );

      // The Broker Simulator's cards and counters say the same.
      for (const c of sent)
        await page
          .locator(`[data-testid="sim-order-card"][data-clordid="${c}"] [data-testid="sim-order-status"]`, { hasText: 'Done for Day' })
          .waitFor();
      assert.equal((await broker.counter('processed').innerText()).trim(), '4');
      assert.equal((await broker.counter('completed').innerText()).trim(), '4');
      await screenshot(page, 'broker-simulator', true);

      // The client's own counters and sent orders are live.
      await client.locator('[data-testid="counter-completed"]', { hasText: '4' }).waitFor();
      assert.equal((await sim.counter('sent').innerText()).trim(), '4');
      assert.equal((await sim.counter('pending').innerText()).trim(), '0');
      await sim.sentOrderRow('SGX-3.1').locator('[data-testid="sent-order-status"]', { hasText: 'Done for Day' }).waitFor();
      await screenshot(client, 'fix-test-client', true);

      // The broker's blotter shows them Done (the simulator's work is finished, so its tab can move on).
      await broker.setAuto(false);
      const blotter = new BlotterPage(page);
      await blotter.goto();
      for (const o of done) await blotter.statusCell(o.brokerorderid).filter({ hasText: 'Done' }).waitFor();
      await blotter.select(done[0]!.brokerorderid);
      const fills = (t: string[]) => t.filter((x) => x.startsWith('F')).length;
      const types = await blotter.executionTypesWhen((t) => fills(t) >= 2);
      assert.ok(fills(types) >= 2, `blotter executions ${types.join(', ')}`);
      await screenshot(page, 'simulators-blotter');

      // The FIX Client screen: orders, executions, legs and parties from the client's side.
      const fixClient = new SimulatorFixClientPage(client);
      await fixClient.goto();
      for (const c of sent) await fixClient.statusOf(c).filter({ hasText: 'Done for Day' }).waitFor();
      await fixClient.select('SGX-2.1');
      await client.getByTestId('client-legs').locator('.ag-row').nth(2).waitFor();
      const execTypes = await fixClient.executionTypes();
      assert.equal(execTypes[0], 'A · Pending');
      assert.equal(execTypes[1], '0 · Accepted');
      assert.equal(execTypes.at(-1), '3 · Done for Day');
      const trades = execTypes.filter((t) => t === 'F · Trade').length;
      assert.ok(trades >= 2 && trades <= 4, `${trades} trades on the client side`);
      assert.match(await fixClient.parties.innerText(), /Order Origination Trader/);
      assert.equal(await fixClient.cancel.count(), 0, 'no Cancel on a finished order');
      await screenshot(client, 'fix-client');

      // Stop the client: the connector goes Disconnected.
      await sim.goto();
      await sim.stop.click();
      await client.locator('[data-testid="fix-client-status"]', { hasText: 'Disconnected' }).waitFor();
      await client.locator('[data-testid="connector-session"]', { hasText: 'Disconnected' }).waitFor();
      await screenshot(client, 'fix-test-client-stopped');
      await clientContext.close();
      assert.deepEqual(clientErrors, [], 'no uncaught errors on the client pages');
    });
  });

  it('cancels and replaces from the FIX Client with real FIX requests the broker decides', async () => {
    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker', { landing: '/' });
      const token = await e2e.apiLogin('broker', e2e.server.demoPassword);
      const desk = async (path: string, body?: unknown) =>
        fetch(`${e2e.server.baseUrl}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const deskOrder = async (clOrdId: string) =>
        until(
          clOrdId,
          async () =>
            ((await (await desk('/api/orders?sendercompid=SGX_CLIENT_1')).json()) as ApiOrder[]).find((o) => o.clordid === clOrdId),
          60_000,
          250,
        );

      const fixClient = new SimulatorFixClientPage(page);
      await fixClient.goto();
      const start = page.getByTestId('client-summary').getByRole('button', { name: 'Start' });
      await page.locator('[data-testid="fix-client-status"]', { hasText: /Connected|Disconnected/ }).waitFor();
      if (await start.isEnabled()) await start.click();
      await page.locator('[data-testid="fix-client-status"]', { hasText: /^Connected$/ }).waitFor();

      // Two orders from the New Order modal.
      await fixClient.newOrder.click();
      const modal = fixClient.modal();
      await modal.tab('Outright Orders').waitFor();
      await modal.input('Text (optional comment)').fill('please work this one');
      const first = /ClOrdID (\S+)\)/.exec(await modal.sendAndConfirm())![1]!;
      const second = /ClOrdID (\S+)\)/.exec(await modal.sendAndConfirm())![1]!;
      assert.notEqual(first, second);
      await settled(page); // the modal settles after the banner appears
      await screenshot(page, 'fix-client-new-order');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // The desk accepts both.
      for (const c of [first, second]) {
        await fixClient.statusOf(c).filter({ hasText: 'Pending' }).waitFor();
        assert.equal((await desk(`/api/orders/${(await deskOrder(c)).id}/accept`, {})).status, 200);
        await fixClient.statusOf(c).filter({ hasText: 'Accepted' }).waitFor();
      }

      // Cancel the first: 35=F, Pending Cancel, the broker confirms, Canceled.
      await fixClient.select(first);
      assert.match(await fixClient.cancelSelected(), new RegExp(`Cancel request ${first.replace(/\.1$/, '.2').replace('.', '\\.')} sent`));
      await fixClient.statusOf(first).filter({ hasText: 'Pending Cancel' }).waitFor();
      assert.equal((await desk(`/api/orders/${(await deskOrder(first)).id}/cancel-request/confirm`, {})).status, 200);
      await fixClient.statusOf(first).filter({ hasText: 'Canceled' }).waitFor();
      assert.ok((await fixClient.executionTypes()).includes('4 · Canceled'));
      assert.equal(await fixClient.cancel.count(), 0, 'no Cancel on a canceled order');

      // Replace the second: 35=G with a new quantity and price, confirmed by the broker.
      await fixClient.select(second);
      await fixClient.replace.click();
      await page.getByLabel('New quantity').fill('12');
      await page.getByLabel('New limit price').fill('26500');
      await page.getByTestId('confirm-replace').click();
      await fixClient.statusOf(second).filter({ hasText: 'Pending Replace' }).waitFor();
      assert.equal((await desk(`/api/orders/${(await deskOrder(second)).id}/replace-request/confirm`, {})).status, 200);
      const replacedId = second.replace(/\.1$/, '.2');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await fixClient.orderRow(replacedId).locator('[col-id="price"]', { hasText: '26,500.00' }).waitFor();
      assert.equal((await fixClient.orderRow(replacedId).locator('[col-id="orderqty"]').innerText()).trim(), '12');
      await screenshot(page, 'fix-client-cancel-replace');

      await page.getByTestId('client-summary').getByRole('button', { name: 'Stop' }).click();
      await page.locator('[data-testid="fix-client-status"]', { hasText: 'Disconnected' }).waitFor();
    });
  });
});
