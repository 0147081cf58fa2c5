// Client FIX defaults end to end: defaults configured through the API (a field default and a Parties
// instance, both with %variables%) show up resolved in the message the FIX Client builds and sends, and in
// the order the desk received; a change applies to the next order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { screenshot, settled } from './support/browser';
import { E2E } from './support/fixture';
import { SimulatorFixClientPage } from './pages/SimulatorPages';
import { until } from '../tests/support/until';

process.env.TEST_CLIENT_PORTS = 'auto';

const e2e = new E2E();
before(() => e2e.start());
after(() => e2e.stop());

interface DeskOrder {
  clordid: string;
  account: string | null;
  parties: Array<{ partyID: string; partyRole: string | number; partyIDSource: string }>;
}

describe('client FIX defaults', () => {
  it('resolves %variables% of defaults set through the API in the FIX Client order and the order the desk received', async () => {
    const admin = await e2e.apiLogin('admin', e2e.server.adminPassword);
    const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
      const r = await fetch(`${e2e.server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as T };
    };
    const connectors = (await api<{ data: Array<{ id: number; comp_id: string }> }>('GET', '/api/client-connectors')).body.data;
    const sgx = connectors.find((c) => c.comp_id === 'SGX_CLIENT_1')!.id;
    const groups = (
      await api<{
        data: Array<{
          component_block_id: number;
          instances: Array<{ group_instance_number: number; fields: Array<{ tag: number; default_value: string }> }>;
        }>;
      }>('GET', `/api/fix-client-defaults/${sgx}/D/groups`)
    ).body.data;
    const parties = groups[0]!;

    // Account on every NewOrderSingle, and the trader party replaced by the client's desk.
    const account = await api<{ data: { default_id: number }; message: string }>('POST', '/api/fix-client-defaults', {
      client_connector_id: sgx,
      msg_type: 'D',
      tag: 1,
      default_value: '%EXECUTION_ID_PREFIX%-%COMP_ID%',
    });
    assert.equal(account.status, 200, account.body.message);
    assert.equal((await api('DELETE', `/api/fix-client-defaults/group/${sgx}/D/${parties.component_block_id}/2`)).status, 200);
    const trader = await api<{ message: string }>('POST', '/api/fix-client-defaults/group', {
      client_connector_id: sgx,
      msg_type: 'D',
      component_block_id: parties.component_block_id,
      group_instance_number: 2,
      fields: [
        { tag: 448, default_value: 'Desk of %CLIENT_NAME%' },
        { tag: 447, default_value: 'D' },
        { tag: 452, default_value: '11' },
      ],
    });
    assert.equal(trader.status, 200, trader.body.message);

    await e2e.withPage(async (page) => {
      await e2e.signIn(page, 'broker', { landing: '/' });
      const fixClient = new SimulatorFixClientPage(page);
      await fixClient.goto();
      const start = page.getByTestId('client-summary').getByRole('button', { name: 'Start' });
      await page.locator('[data-testid="fix-client-status"]', { hasText: /Connected|Disconnected/ }).waitFor();
      if (await start.isEnabled()) await start.click();
      await page.locator('[data-testid="fix-client-status"]', { hasText: /^Connected$/ }).waitFor();

      await fixClient.newOrder.click();
      const modal = fixClient.modal();
      await modal.previewText.waitFor();
      const preview = await modal.previewText.innerText();
      assert.match(preview, /\|1=SGX-SGX_CLIENT_1\|/, 'Account from %EXECUTION_ID_PREFIX%-%COMP_ID%');
      assert.match(
        preview,
        /\|453=2\|448=549300STRAITS000SG15\|447=D\|452=7\|448=Desk of Straits Shipping Capital\|447=D\|452=11\|/,
        'Parties from the defaults',
      );
      assert.doesNotMatch(preview, /%/, 'every variable resolved');
      assert.equal(await modal.previewWarnings.count(), 0, 'no warnings');
      await page.locator('[data-testid="send-order"]:enabled').waitFor();
      await settled(page); // the button's loader fades out
      await screenshot(page, 'fix-client-order-with-defaults-preview');

      const sent = /ClOrdID (\S+)\)/.exec(await modal.sendAndConfirm())![1]!;
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // The order as the desk stored it from the FIX message it received.
      const broker = await e2e.apiLogin('broker', e2e.server.demoPassword);
      const deskOrder = await until(
        `order ${sent} on the desk`,
        async () => {
          const r = await fetch(`${e2e.server.baseUrl}/api/orders?sendercompid=SGX_CLIENT_1`, {
            headers: { authorization: `Bearer ${broker}` },
          });
          return ((await r.json()) as DeskOrder[]).find((o) => o.clordid === sent);
        },
        30_000,
        250,
      );
      assert.equal(deskOrder.account, 'SGX-SGX_CLIENT_1');
      assert.deepEqual(
        deskOrder.parties.map((p) => [p.partyID, String(p.partyRole)]),
        [
          ['549300STRAITS000SG15', '7'],
          ['Desk of Straits Shipping Capital', '11'],
        ],
      );
      const received = await fetch(`${e2e.server.baseUrl}/api/fix-messages?clordid=${sent}&msgType=D&direction=RX`, {
        headers: { authorization: `Bearer ${broker}` },
      });
      const raw = ((await received.json()) as { messages: Array<{ raw_fix: string }> }).messages[0]!.raw_fix.replaceAll('\u0001', '|');
      assert.match(raw, /\|1=SGX-SGX_CLIENT_1\|/);
      assert.match(raw, /\|448=Desk of Straits Shipping Capital\|/);

      // The client's own Order Parties panel shows what it sent.
      await fixClient.statusOf(sent).filter({ hasText: 'Pending' }).waitFor();
      await fixClient.select(sent);
      await fixClient.parties.getByText('Desk of Straits Shipping Capital').waitFor();
      await screenshot(page, 'fix-client-defaults-order');

      // An edit on the defaults applies to the next order the FIX Client builds.
      assert.equal(
        (await api('PUT', `/api/fix-client-defaults/${account.body.data.default_id}`, { default_value: '%CLIENT_NAME%' })).status,
        200,
      );
      await fixClient.newOrder.click();
      await modal.previewText.waitFor();
      assert.match(await modal.previewText.innerText(), /\|1=Straits Shipping Capital\|/);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.getByTestId('client-summary').getByRole('button', { name: 'Stop' }).click();
      await page.locator('[data-testid="fix-client-status"]', { hasText: 'Disconnected' }).waitFor();
    });
  });
});
