import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ORDER_FORM_DEFAULTS,
  PARTY_DEFAULTS_MISSING_TEXT,
  SOH,
  SimulatorText,
  buildCustomMultileg,
  buildNewOrderMultileg,
  buildNewOrderSingle,
  fixChecksum,
  fixForDisplay,
  serializeFixMessage,
  validateOrderSend,
  validateSimulatorSend,
  type BuildContext,
  type FixField,
  type OutrightOrderForm,
} from './fix-order-builder';

const now = new Date('2025-09-05T07:08:09.123Z');
const ctx: BuildContext = {
  client: {
    compId: 'ACME',
    targetCompId: 'BROKER',
    clientName: 'Acme Shipping',
    clientLei: '5493001KJTIIGC8Y1R12',
    clientContact: 'Jane Trader',
  },
  now,
  clOrdId: 'ACM-7.1',
};

const outright: OutrightOrderForm = {
  symbol: 'C5TC',
  contractMonth: 'Dec-25',
  side: '1',
  quantity: '10.9',
  orderType: '2',
  price: '27000.50',
  timeInForce: '',
  exchange: 'Any',
};

const tags = (fields: readonly FixField[]) => fields.map(([t]) => t);
const value = (fields: readonly FixField[], tag: number) => fields.find(([t]) => t === tag)?.[1];

describe('buildNewOrderSingle', () => {
  it('writes the outright order in order, with floored quantity, YYYYMM and default TIF', () => {
    const built = buildNewOrderSingle(outright, ctx);
    assert.equal(built.msgType, 'D');
    assert.equal(built.clOrdId, 'ACM-7.1');
    assert.deepEqual(built.fields, [
      [35, 'D'],
      [49, 'ACME'],
      [56, 'BROKER'],
      [52, '20250905-07:08:09'],
      [11, 'ACM-7.1'],
      [453, '2'],
      [448, '5493001KJTIIGC8Y1R12'],
      [447, 'D'],
      [452, '7'],
      [448, 'Jane Trader'],
      [447, 'D'],
      [452, '11'],
      [55, 'C5TC'],
      [167, 'FUT'],
      [200, '202512'],
      [54, '1'],
      [60, '20250905-07:08:09'],
      [38, '10'],
      [40, '2'],
      [44, '27000.5'],
      [59, '0'],
    ]);
    assert.deepEqual(built.warnings, []);
  });

  it('form values win over client data; market orders carry no price; exchange and text when given', () => {
    const built = buildNewOrderSingle(
      {
        ...outright,
        orderType: '1',
        enteringFirmLEI: 'LEI-FORM',
        traderName: 'Bob',
        exchange: 'SGX',
        timeInForce: '1',
        clOrdId: 'MINE-1',
        text: ' call me ',
      },
      ctx,
    );
    assert.equal(value(built.fields, 448), 'LEI-FORM');
    assert.equal(built.fields.filter(([t]) => t === 448)[1]![1], 'Bob');
    assert.equal(value(built.fields, 100), 'SGX');
    assert.equal(value(built.fields, 44), undefined);
    assert.equal(value(built.fields, 59), '1');
    assert.equal(value(built.fields, 11), 'MINE-1');
    assert.equal(built.clOrdId, 'MINE-1');
    assert.deepEqual(built.fields.at(-1), [58, 'call me']);
  });

  it('falls back to party defaults, then to Web Trader; warns when no entering firm is known', () => {
    const withDefaults = buildNewOrderSingle(outright, {
      ...ctx,
      client: { compId: 'ACME', targetCompId: 'BROKER' },
      parties: [
        { id: '%CLIENT_NAME%-desk', role: '11', source: 'D' },
        { id: 'LEI-DEFAULT', role: '7', source: 'N' },
      ],
    });
    const partyValues = withDefaults.fields.filter(([t]) => t === 448 || t === 447 || t === 452).map(([, v]) => v);
    assert.deepEqual(partyValues, ['LEI-DEFAULT', 'N', '7', '-desk', 'D', '11']);

    const bare = buildNewOrderSingle(outright, { ...ctx, client: { compId: 'ACME', targetCompId: 'BROKER' } });
    assert.equal(value(bare.fields, 453), '1');
    assert.equal(value(bare.fields, 448), ORDER_FORM_DEFAULTS.traderName);
    assert.deepEqual(bare.warnings, [PARTY_DEFAULTS_MISSING_TEXT]);
  });

  it('applies client defaults with %variables%, never over form fields, session tags or groups', () => {
    const built = buildNewOrderSingle(outright, {
      ...ctx,
      defaults: [
        { tag: 1, value: '%COMP_ID%-ACCT' },
        { tag: 15, value: 'USD' },
        { tag: 38, value: '999' },
        { tag: 49, value: 'EVIL' },
        { tag: 448, value: 'X' },
        { tag: 21, value: '%nope%' },
        { tag: 58, value: 'Sent by %client_name% at %timestamp%' },
      ],
    });
    assert.equal(value(built.fields, 1), 'ACME-ACCT');
    assert.equal(value(built.fields, 15), 'USD');
    assert.equal(value(built.fields, 38), '10');
    assert.equal(value(built.fields, 49), 'ACME');
    assert.equal(built.fields.filter(([t]) => t === 448).length, 2);
    assert.equal(value(built.fields, 21), '%nope%');
    assert.deepEqual(built.warnings, ['Unknown variable %nope% in default for tag 21']);
    assert.deepEqual(built.fields.at(-1), [58, 'Sent by Acme Shipping at 20250905-07:08:09']);
  });

  it('adds the groups the defaults configure and the form does not write; warns when a default resolves to nothing', () => {
    const built = buildNewOrderSingle(outright, {
      ...ctx,
      client: { compId: 'ACME', targetCompId: 'BROKER', clientContact: 'Jane Trader' },
      defaults: [{ tag: 1, value: '%CLIENT_NAME%' }],
      groups: [
        {
          countTag: 453,
          instances: [
            [
              { tag: 448, value: '%LEI%' },
              { tag: 447, value: 'N' },
              { tag: 452, value: '7' },
            ],
          ],
        },
        { countTag: 386, instances: [[{ tag: 336, value: 'DAY' }], [{ tag: 336, value: '%LEI%' }]] },
        { countTag: 555, instances: [[{ tag: 600, value: 'NOT-MINE' }]] },
      ],
    });
    // No LEI anywhere: no entering firm, the missing-party notice; the trader from the client's contact.
    assert.deepEqual(
      built.fields.filter(([t]) => t === 448).map(([, v]) => v),
      ['Jane Trader'],
    );
    assert.deepEqual(built.fields.slice(-2), [
      [386, '1'],
      [336, 'DAY'],
    ]);
    assert.equal(value(built.fields, 555), undefined, "legs are the form's only");
    assert.equal(value(built.fields, 1), undefined);
    assert.deepEqual(built.warnings, [
      PARTY_DEFAULTS_MISSING_TEXT,
      'The default for tag 1 is left out: %CLIENT_NAME% has no value for this client',
    ]);
  });

  it('missing mandatory fields only warn', () => {
    const built = buildNewOrderSingle({ ...outright, symbol: '', price: '' }, { ...ctx, mandatoryTags: [11, 55, 44, 34, 52, 9999] });
    assert.deepEqual(built.warnings, [
      'Mandatory field 55 (Symbol) is missing',
      'Mandatory field 44 (Price) is missing',
      'Mandatory field 9999 is missing',
    ]);
    assert.ok(!tags(built.fields).includes(55));
  });

  it('includes MsgSeqNum only when asked', () => {
    assert.ok(!tags(buildNewOrderSingle(outright, ctx).fields).includes(34));
    assert.equal(value(buildNewOrderSingle(outright, { ...ctx, msgSeqNum: 12 }).fields, 34), '12');
  });

  it('warns about an unreadable contract month', () => {
    const built = buildNewOrderSingle({ ...outright, contractMonth: 'Smarch-25' }, ctx);
    assert.ok(!tags(built.fields).includes(200));
    assert.deepEqual(built.warnings, ["Contract month 'Smarch-25' is not a month"]);
  });
});

describe('buildNewOrderMultileg', () => {
  it('writes NoLegs with 600/609/610/623/624 per leg and the composite symbol', () => {
    const built = buildNewOrderMultileg(
      { type: 'quarter', side: '2', stripSymbol: 'C5TC', quarterYear: 'Q1-26', quantity: 5, orderType: '2', price: '-100' },
      ctx,
    );
    assert.equal(built.msgType, 'AB');
    assert.equal(built.symbol, 'C5TC-Q1-26');
    const body = built.fields.filter(([t]) => ![35, 49, 56, 52, 453, 448, 447, 452].includes(t));
    assert.deepEqual(body, [
      [11, 'ACM-7.1'],
      [54, '2'],
      [55, 'C5TC-Q1-26'],
      [167, 'MLEG'],
      [555, '3'],
      [600, 'C5TC'],
      [609, 'FUT'],
      [610, '202601'],
      [623, '1'],
      [624, '2'],
      [600, 'C5TC'],
      [609, 'FUT'],
      [610, '202602'],
      [623, '1'],
      [624, '2'],
      [600, 'C5TC'],
      [609, 'FUT'],
      [610, '202603'],
      [623, '1'],
      [624, '2'],
      [60, '20250905-07:08:09'],
      [38, '5'],
      [40, '2'],
      [44, '-100'],
      [59, '0'],
    ]);
  });

  it('uses legs from the form when the screen already generated them', () => {
    const legs = [
      { symbol: 'C3', side: '1' as const, ratio: 2, maturity: 'Mar-26', contractMonth: 'Mar-26', securityType: 'FUT' as const },
    ];
    const built = buildNewOrderMultileg(
      { type: 'quarter', side: '1', stripSymbol: 'C3', quarterYear: 'Q1-26', quantity: 1, orderType: '1', legs },
      ctx,
    );
    assert.equal(value(built.fields, 555), '1');
    assert.equal(value(built.fields, 610), '202603');
    assert.equal(value(built.fields, 623), '2');
  });

  it('reports why no legs could be generated and leaves NoLegs out', () => {
    const built = buildNewOrderMultileg({ type: 'quarter', side: '1', stripSymbol: 'C5TC', quantity: 1, orderType: '1' }, ctx);
    assert.deepEqual(built.legs, []);
    assert.ok(!tags(built.fields).includes(555));
    assert.deepEqual(built.warnings, ['Please select a quarter']);
  });
});

describe('buildCustomMultileg', () => {
  it('balances ratios and labels buy>buy/sell', () => {
    const built = buildCustomMultileg(
      {
        side: '1',
        buyLegs: [{ type: 'single', symbol: 'C5TC', contractMonth: '202512' }],
        sellLegs: [{ type: 'quarter', symbol: 'C5TC', quarterYear: 'Q1-26' }],
        quantity: '2',
        orderType: '2',
        price: '0',
      },
      ctx,
    );
    assert.equal(built.symbol, 'C5TC-Dec-25/C5TC-Q1-26');
    assert.equal(value(built.fields, 555), '4');
    assert.deepEqual(
      built.fields.filter(([t]) => t === 623 || t === 624).map(([, v]) => v),
      ['3', '1', '1', '2', '1', '2', '1', '2'],
    );
    assert.equal(value(built.fields, 44), '0');
  });
  it('an incomplete custom form yields no legs and the reason', () => {
    const built = buildCustomMultileg({ side: '1', buyLegs: [], sellLegs: [], quantity: 1, orderType: '1' }, ctx);
    assert.deepEqual(built.legs, []);
    assert.deepEqual(built.warnings.slice(0, 1), ['Add at least one buy leg and one sell leg']);
  });
});

describe('send validations', () => {
  it('FIX Client screen: in the spec order, first failure only (spec 001 §5)', () => {
    const base = { kind: 'outright' as const, clientSelected: true, symbol: 'C5TC', orderType: '2', price: '100' };
    assert.equal(validateOrderSend(base), null);
    assert.equal(validateOrderSend({ ...base, clientSelected: false, symbol: '' }), 'Please select a client connector first');
    assert.equal(validateOrderSend({ ...base, symbol: ' ' }), 'Please select a symbol');
    assert.equal(validateOrderSend({ ...base, kind: 'multileg', legs: [] }), 'No legs generated for multileg order');
    assert.equal(validateOrderSend({ ...base, kind: 'custom' }), 'No legs generated for custom order');
    assert.equal(validateOrderSend({ ...base, orderType: '3' }), 'Invalid order type: 3. Must be 1 (Market) or 2 (Limit)');
    assert.equal(validateOrderSend({ ...base, orderType: undefined }), 'Invalid order type: . Must be 1 (Market) or 2 (Limit)');
    assert.equal(validateOrderSend({ ...base, price: '0' }), 'Limit orders require a valid price greater than zero');
    assert.equal(validateOrderSend({ ...base, price: '' }), 'Limit orders require a valid price greater than zero');
    assert.equal(validateOrderSend({ ...base, orderType: '1', price: '' }), null);
    assert.equal(validateOrderSend({ ...base, kind: 'multileg', legs: [{}], price: '-50' }), null);
    assert.equal(validateOrderSend({ ...base, kind: 'multileg', legs: [{}], price: '' }), 'Limit orders require a valid price');
  });

  it('FIX Client Simulator (spec 000 §5)', () => {
    const base = {
      kind: 'outright' as const,
      connectorSelected: true,
      fixClientRunning: true,
      symbol: 'C5TC',
      quantity: '10',
      orderType: '2',
      price: '27000',
    };
    assert.equal(validateSimulatorSend(base), null);
    assert.equal(validateSimulatorSend({ ...base, connectorSelected: false }), SimulatorText.selectConnector);
    assert.equal(SimulatorText.selectConnector, 'Please select a Client Connector first');
    assert.equal(validateSimulatorSend({ ...base, symbol: '' }), 'Please fill in Symbol and Quantity first');
    assert.equal(validateSimulatorSend({ ...base, quantity: '' }), 'Please fill in Symbol and Quantity first');
    assert.equal(validateSimulatorSend({ ...base, quantity: '1001' }), 'Quantity must be between 1 and 1000');
    assert.equal(validateSimulatorSend({ ...base, price: '' }), 'Please enter Limit Price for limit orders');
    assert.equal(validateSimulatorSend({ ...base, fixClientRunning: false }), 'FIX Client not running. Start client first.');
    const ml = { ...base, kind: 'multileg' as const, legs: [{}], price: '-10000' };
    assert.equal(validateSimulatorSend(ml), null);
    assert.equal(validateSimulatorSend({ ...ml, legs: [] }), 'No legs found - please select a multileg type first');
    assert.equal(validateSimulatorSend({ ...ml, quantity: '' }), 'No legs found - please select a multileg type first');
    assert.equal(validateSimulatorSend({ ...ml, price: '10010' }), 'Spread price must be between -10000 and 10000');
    const custom = { ...ml, kind: 'custom' as const, buyLegCount: 1, sellLegCount: 1 };
    assert.equal(validateSimulatorSend(custom), null);
    assert.equal(validateSimulatorSend({ ...custom, sellLegCount: 0 }), 'No legs found - please add buy and sell legs first');
  });
});

describe('serializeFixMessage', () => {
  it('frames with BodyLength and CheckSum computed over the bytes', () => {
    const raw = serializeFixMessage([
      [8, 'ignored'],
      [35, 'D'],
      [49, 'ACME'],
      [56, 'BROKER'],
      [11, 'X-1'],
      [10, '000'],
    ]);
    const body = `35=D${SOH}49=ACME${SOH}56=BROKER${SOH}11=X-1${SOH}`;
    assert.ok(raw.startsWith(`8=FIX.4.4${SOH}9=${body.length}${SOH}${body}`));
    const beforeChecksum = raw.slice(0, raw.lastIndexOf('10='));
    const sum = [...Buffer.from(beforeChecksum, 'utf8')].reduce((a, b) => a + b, 0) % 256;
    assert.ok(raw.endsWith(`10=${String(sum).padStart(3, '0')}${SOH}`));
    assert.equal(fixForDisplay(raw).split('|').length, 8);
  });

  it('checksum is three digits, modulo 256, over UTF-8 bytes', () => {
    assert.equal(fixChecksum(''), '000');
    assert.equal(fixChecksum('A'), '065');
    assert.equal(fixChecksum('\u00ff'.repeat(1)), String((0xc3 + 0xbf) % 256).padStart(3, '0'));
    assert.equal(fixChecksum('z'.repeat(3)), String((122 * 3) % 256).padStart(3, '0'));
  });

  it('body length counts bytes, not characters', () => {
    const raw = serializeFixMessage([[58, 'é']]);
    assert.ok(raw.includes(`9=6${SOH}`)); // "58=é" + SOH = 2 + 1 + 2 + 1 bytes
  });

  it('a built order serialises end to end', () => {
    const raw = serializeFixMessage(buildNewOrderSingle(outright, ctx).fields);
    const display = fixForDisplay(raw);
    assert.match(display, /^8=FIX\.4\.4\|9=\d+\|35=D\|49=ACME\|56=BROKER\|52=20250905-07:08:09\|11=ACM-7\.1\|/);
    assert.match(display, /\|10=\d{3}\|$/);
  });

  it('refuses what cannot be framed', () => {
    assert.throws(() => serializeFixMessage([[58, `a${SOH}b`]]), /SOH/);
    assert.throws(() => serializeFixMessage([[0, 'x']]), /Invalid FIX tag/);
    assert.throws(() => serializeFixMessage([[1.5, 'x']]), /Invalid FIX tag/);
    assert.throws(() => serializeFixMessage([[58, '']]), /no value/);
  });
});
