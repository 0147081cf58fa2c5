import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClientConnector } from '@fixdesk/protocol';
import { buildOrderMessage, clientSendProblem, defaultOrderForms, simulatorSendProblem, strategyLegs } from './orderForms';

const now = new Date(Date.UTC(2026, 0, 15, 9, 30));
const connector = {
  comp_id: 'SGX_CLIENT_1',
  target_comp_id: 'FIXDESK',
  client_name: 'Straits Shipping Capital',
  client_lei: '549300STRAITS000SG15',
  lei: '549300STRAITS000SG15',
  client_contact: 'Mei Lin Tan',
} as ClientConnector;
const field = (raw: string, tag: number) =>
  raw
    .split('\u0001')
    .filter((f) => f.startsWith(`${tag}=`))
    .map((f) => f.slice(String(tag).length + 1));

describe('order forms into FIX messages', () => {
  it('builds an outright with the client order id, parties from the connector and a complete preview header', () => {
    const forms = defaultOrderForms(now, 'C5TC');
    const { built, raw } = buildOrderMessage('outright', forms, { connector, clOrdId: 'SGX-3.1', now, msgSeqNum: 12 });
    assert.equal(built.msgType, 'D');
    assert.deepEqual(field(raw, 11), ['SGX-3.1']);
    assert.deepEqual(field(raw, 34), ['12']);
    assert.deepEqual(field(raw, 200), ['202602'], 'YYYYMM');
    assert.deepEqual(field(raw, 448), ['549300STRAITS000SG15', 'Mei Lin Tan'], '%client_lei% and %client_contact% resolved');
    assert.deepEqual(field(raw, 452), ['7', '11']);
    assert.deepEqual(field(raw, 447), ['D', 'D']);
    assert.match(raw, /^8=FIX\.4\.4\u00019=\d+\u000135=D\u0001/);
    assert.match(raw, /\u000110=\d{3}\u0001$/);
  });

  it("applies the client's FIX defaults: fields the form leaves out, Parties instances, %variables% resolved", () => {
    const forms = defaultOrderForms(now, 'C5TC');
    const clientDefaults = {
      defaults: [
        { tag: 1, value: '%EXECUTION_ID_PREFIX%-%COMP_ID%' },
        { tag: 38, value: '999' },
        { tag: 58, value: 'for %BROKER_NAME%' },
      ],
      groups: [
        {
          countTag: 453,
          instances: [
            [
              { tag: 448, value: '%LEI%' },
              { tag: 447, value: 'N' },
              { tag: 452, value: '7' },
            ],
            [
              { tag: 448, value: 'Desk of %CLIENT_NAME%' },
              { tag: 447, value: 'D' },
              { tag: 452, value: '11' },
            ],
            [
              { tag: 448, value: '%COMP_ID%' },
              { tag: 447, value: 'D' },
              { tag: 452, value: '3' },
            ],
          ],
        },
      ],
    };
    const broker = { id: 1, company_name: 'FixDesk Brokers', lei: null, party_id: null };
    const { built, raw } = buildOrderMessage('outright', forms, {
      connector: { ...connector, execution_id_prefix: 'SGX' },
      clOrdId: 'SGX-3.1',
      now,
      clientDefaults,
      broker,
    });
    assert.deepEqual(field(raw, 1), ['SGX-SGX_CLIENT_1']);
    assert.deepEqual(field(raw, 38), ['10'], 'the form wins');
    assert.deepEqual(field(raw, 58), ['for FixDesk Brokers']);
    assert.deepEqual(field(raw, 453), ['3']);
    assert.deepEqual(field(raw, 448), ['549300STRAITS000SG15', 'Desk of Straits Shipping Capital', 'SGX_CLIENT_1']);
    assert.deepEqual(field(raw, 447), ['N', 'D', 'D']);
    assert.deepEqual(field(raw, 452), ['7', '11', '3']);
    assert.deepEqual(built.warnings, []);

    // The form's LEI and trader name still win over the defaults.
    const typed = buildOrderMessage(
      'outright',
      { ...forms, outright: { ...forms.outright, enteringFirmLEI: 'LEI-TYPED', traderName: 'Bob' } },
      { connector, clOrdId: 'SGX-3.1', now, clientDefaults },
    );
    assert.deepEqual(field(typed.raw, 448), ['LEI-TYPED', 'Bob', 'SGX_CLIENT_1']);
  });

  it('builds the quarter strip and a custom strategy balanced by the greatest common divisor', () => {
    const forms = defaultOrderForms(now, 'C5TC');
    const strip = buildOrderMessage('multileg', forms, { connector, clOrdId: 'SGX-4.1', now });
    assert.equal(strip.built.symbol, 'C5TC-Q2-26');
    assert.deepEqual(field(strip.raw, 555), ['3']);

    forms.custom.buyLegs[0] = { ...forms.custom.buyLegs[0]!, type: 'quarter', quarterYear: 'Q3-26' };
    forms.custom.sellLegs[0] = { ...forms.custom.sellLegs[0]!, type: 'cal', calYear: '2027' };
    const custom = strategyLegs('custom', forms);
    assert.equal(custom.symbol, 'C5TC-Q3-26/C5TC-CAL-27');
    // 3 months against 12: gcd 3, so buy legs ratio 4 and sell legs ratio 1.
    assert.deepEqual([...new Set(custom.legs.map((l) => `${l.side}:${l.ratio}`))], ['1:4', '2:1']);
    const msg = buildOrderMessage('custom', forms, { connector, clOrdId: 'SGX-5.1', now });
    assert.deepEqual(field(msg.raw, 555), ['15']);
  });

  it('checks before sending, in the spec order', () => {
    const forms = defaultOrderForms(now, 'C5TC');
    assert.equal(
      simulatorSendProblem('outright', forms, { connectorSelected: false, fixClientRunning: true }),
      'Please select a Client Connector first',
    );
    assert.equal(
      simulatorSendProblem('outright', forms, { connectorSelected: true, fixClientRunning: false }),
      'FIX Client not running. Start client first.',
    );
    assert.equal(
      simulatorSendProblem(
        'outright',
        { ...forms, outright: { ...forms.outright, price: '' } },
        { connectorSelected: true, fixClientRunning: true },
      ),
      'Please enter Limit Price for limit orders',
    );
    assert.equal(
      simulatorSendProblem(
        'outright',
        { ...forms, outright: { ...forms.outright, symbol: '' } },
        { connectorSelected: true, fixClientRunning: true },
      ),
      'Please fill in Symbol and Quantity first',
    );
    assert.equal(
      simulatorSendProblem(
        'custom',
        { ...forms, custom: { ...forms.custom, sellLegs: [] } },
        { connectorSelected: true, fixClientRunning: true },
      ),
      'No legs found - please add buy and sell legs first',
    );
    assert.equal(clientSendProblem('outright', forms, false), 'Please select a client connector first');
    assert.equal(clientSendProblem('outright', { ...forms, outright: { ...forms.outright, symbol: '' } }, true), 'Please select a symbol');
    assert.equal(
      clientSendProblem('multileg', { ...forms, multileg: { ...forms.multileg, stripSymbol: '' } }, true),
      'No legs generated for multileg order',
    );
    assert.equal(
      clientSendProblem('outright', { ...forms, outright: { ...forms.outright, price: 0 } }, true),
      'Limit orders require a valid price greater than zero',
    );
    assert.equal(clientSendProblem('outright', forms, true), null);
  });
});
