// An order may not put another firm's identity on the desk's records through its parties: over FIX,
// on both databases, an Entering Firm (PartyRole 7) that is another firm's LEI is refused with the two
// LEIs named (its own LEI, or a firm code that is no LEI, goes through), and an Order Origination
// Trader (PartyRole 11) that is another client's contact is refused without naming that client, as
// the desk holds the contact now (a change of contact counts at once). Before, such orders were taken
// and the desk's records and reports carried the other firm's identity.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

const OWN_LEI = '549300STRAITS000SG15';
const OTHER_CLIENTS_LEI = '529900NORDHAFEN00E87';

for (const kind of TEST_DB_KINDS) {
  describe(`the Entering Firm of an order is its own client on ${kind}`, () => {
    let t: TestServer;
    let client: TestFixClient;
    before(async () => {
      t = await startTestServer(kind);
      const { rows } = await t.server.ctx.db.query<{ client_lei: string }>(
        `SELECT client_lei FROM client_connectors WHERE comp_id = 'SGX_CLIENT_1'`,
      );
      assert.equal(rows[0]?.client_lei, OWN_LEI);
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    const withEnteringFirm = (clOrdId: string, firm: string, trader = 'TRADER1') => {
      const body = newOrderSingle(clOrdId).filter(([tag]) => ![453, 448, 447, 452].includes(tag));
      body.push([453, '2'], [448, firm], [447, 'D'], [452, '7'], [448, trader], [447, 'D'], [452, '11']);
      return body;
    };
    const execType = async (clOrdId: string, trader: string) => {
      await client.send('D', withEnteringFirm(clOrdId, OWN_LEI, trader));
      const r = await client.waitForReport(clOrdId, (m) => m.msgType === '8');
      return r.get(150) === '8' ? `refused: ${r.get(58)}` : (r.get(150) ?? '');
    };

    it("refuses another firm's LEI as Entering Firm, naming both", async () => {
      await client.send('D', withEnteringFirm(`EF-${kind}-1`, OTHER_CLIENTS_LEI));
      const r = await client.waitForReport(`EF-${kind}-1`, (m) => m.msgType === '8');
      assert.equal(r.get(150), '8');
      assert.equal(r.get(103), '99');
      assert.equal(r.get(58), `Entering Firm (PartyRole 7) ${OTHER_CLIENTS_LEI} is another firm's LEI: this client's is ${OWN_LEI}`);
    });

    it('takes its own LEI (in any case) and a firm code that is no LEI', async () => {
      await client.send('D', withEnteringFirm(`EF-${kind}-2`, OWN_LEI.toLowerCase()));
      assert.equal((await client.waitForReport(`EF-${kind}-2`, (m) => m.msgType === '8')).get(150), 'A');
      await client.send('D', withEnteringFirm(`EF-${kind}-3`, 'STRAITS-DESK'));
      assert.equal((await client.waitForReport(`EF-${kind}-3`, (m) => m.msgType === '8')).get(150), 'A');
    });

    it("refuses another client's contact as Order Origination Trader, and follows a change of contact", async () => {
      assert.equal(
        await execType(`EF-${kind}-4`, 'Jonas Berger'),
        'refused: Order Origination Trader (PartyRole 11) Jonas Berger is the contact of another client of this desk',
      );
      assert.equal(
        await execType(`EF-${kind}-5`, 'JONAS.BERGER@nordhafen.example'),
        'refused: Order Origination Trader (PartyRole 11) JONAS.BERGER@nordhafen.example is the contact of another client of this desk',
      );
      assert.equal(await execType(`EF-${kind}-6`, 'Mei Lin Tan'), 'A');
      const admin = await t.login('admin');
      const r = await t.api('/api/client-connectors/EEX_CLIENT_1', { method: 'PUT', token: admin, json: { client_contact: 'Anke Vogel' } });
      assert.equal(r.status, 200, await r.text());
      assert.equal(await execType(`EF-${kind}-7`, 'Jonas Berger'), 'A');
      assert.match(
        await execType(`EF-${kind}-8`, 'anke vogel'),
        /^refused: Order Origination Trader \(PartyRole 11\) anke vogel is the contact/,
      );
    });
  });
}
