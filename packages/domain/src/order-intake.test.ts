import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkParties,
  contactKey,
  decideNewOrder,
  selectCapability,
  validateNewOrderMultileg,
  validateNewOrderSingle,
  type ClientCapability,
  type IntakeContext,
  type NewOrderMultilegInput,
  type NewOrderSingleInput,
  type SecurityInfo,
} from './order-intake';
import { Decimal } from './decimal';

const SECURITIES: Record<string, SecurityInfo> = {
  C5TC: { symbol: 'C5TC', isActive: true, priceTickSize: '1', seriesMonths: 84 },
  C3: { symbol: 'C3', isActive: true, priceTickSize: '0.01', seriesMonths: 36 },
  OLD: { symbol: 'OLD', isActive: false },
};
const ctx: IntakeContext = { lookupSecurity: (s) => SECURITIES[s] };

const outright: NewOrderSingleInput = {
  clOrdId: 'ABC-1.1',
  side: '1',
  ordType: '2',
  orderQty: '10',
  price: '27000',
  symbol: 'C5TC',
  maturityMonthYear: '202612',
  timeInForce: '0',
};

function rejected(result: ReturnType<typeof validateNewOrderSingle>, code: string, text: string) {
  assert.deepEqual(result, { ok: false, ordRejReason: code, text });
}

describe('validateNewOrderSingle', () => {
  it('accepts a well-formed outright order', () => {
    assert.deepEqual(validateNewOrderSingle(outright, ctx), { ok: true });
    assert.deepEqual(validateNewOrderSingle({ ...outright, ordType: '1', price: null }, ctx), { ok: true });
    assert.deepEqual(validateNewOrderSingle({ ...outright, ordType: '1', price: '-5' }, ctx), { ok: true }); // a market order's price is ignored
    assert.deepEqual(validateNewOrderSingle({ ...outright, timeInForce: undefined }, ctx), { ok: true });
    assert.deepEqual(validateNewOrderSingle({ ...outright, orderQty: 5 }, ctx), { ok: true });
  });

  it('refuses each broken field with a stable code and text, in order', () => {
    const cases: [Partial<NewOrderSingleInput>, string, string][] = [
      [{ clOrdId: ' ' }, '99', 'ClOrdID (11) is required'],
      [{ side: '3' }, '11', "Invalid side '3': side must be '1' (Buy) or '2' (Sell)"],
      [{ side: null }, '11', "Invalid side '': side must be '1' (Buy) or '2' (Sell)"],
      [{ ordType: '3' }, '11', 'Invalid order type: 3. Must be 1 (Market) or 2 (Limit)'],
      [{ timeInForce: '6' }, '11', 'Invalid time in force: 6. Must be 0 (Day) or 1 (Good Till Cancel)'],
      [{ orderQty: '0' }, '13', 'Order quantity must be greater than 0'],
      [{ orderQty: 'ten' }, '13', 'Order quantity must be greater than 0'],
      [{ orderQty: '-1' }, '13', 'Order quantity must be greater than 0'],
      [{ orderQty: '1.5' }, '13', 'Order quantity 1.5 must be a whole number of lots'],
      [{ price: null }, '99', 'Limit orders require a valid price greater than zero'],
      [{ price: '0' }, '99', 'Limit orders require a valid price greater than zero'],
      [{ price: '-10' }, '99', 'Limit orders require a valid price greater than zero'],
      [{ price: 'abc' }, '99', 'Limit orders require a valid price greater than zero'],
      [{ symbol: '' }, '1', 'Symbol (55) is required'],
      [{ symbol: 'XYZ' }, '1', 'Unknown symbol XYZ'],
      [{ symbol: 'OLD' }, '1', 'Symbol OLD is not active'],
      [{ maturityMonthYear: undefined }, '1', "Maturity month-year '' is missing or not YYYYMM"],
      [{ maturityMonthYear: 'Dec-26' }, '1', "Maturity month-year 'Dec-26' is missing or not YYYYMM"],
      [{ maturityMonthYear: '202613' }, '1', "Maturity month-year '202613' is missing or not YYYYMM"],
      [{ price: '27000.5' }, '99', 'Price 27000.5 is not a multiple of the tick size 1 for C5TC'],
    ];
    for (const [change, code, text] of cases) rejected(validateNewOrderSingle({ ...outright, ...change }, ctx), code, text);
    // first failure wins
    rejected(
      validateNewOrderSingle({ ...outright, side: '9', orderQty: 0 }, ctx),
      '11',
      "Invalid side '9': side must be '1' (Buy) or '2' (Sell)",
    );
  });

  it('checks in the documented order: symbol, side, type and price, quantity, duplicate, capability', () => {
    const seen = { isDuplicateClOrdId: (id: string) => id === 'ABC-1.1' };
    const noBuy: ClientCapability[] = [{ securitySymbol: null, isEnabled: true, canBuy: false, canSell: true }];
    const all = { ...ctx, ...seen, capabilities: noBuy };
    const bad: Partial<NewOrderSingleInput> = { symbol: 'XYZ', side: '9', ordType: '7', orderQty: '0' };
    rejected(validateNewOrderSingle({ ...outright, ...bad }, all), '1', 'Unknown symbol XYZ');
    rejected(
      validateNewOrderSingle({ ...outright, ...bad, symbol: 'C5TC' }, all),
      '11',
      "Invalid side '9': side must be '1' (Buy) or '2' (Sell)",
    );
    rejected(
      validateNewOrderSingle({ ...outright, ...bad, symbol: 'C5TC', side: '1' }, all),
      '11',
      'Invalid order type: 7. Must be 1 (Market) or 2 (Limit)',
    );
    rejected(
      validateNewOrderSingle({ ...outright, orderQty: '0', price: '0' }, all),
      '99',
      'Limit orders require a valid price greater than zero',
    );
    rejected(validateNewOrderSingle({ ...outright, orderQty: '0' }, all), '13', 'Order quantity must be greater than 0');
    // A duplicate that the client may not buy either is a duplicate.
    rejected(validateNewOrderSingle(outright, all), '6', 'Duplicate ClOrdID ABC-1.1');
    rejected(validateNewOrderSingle({ ...outright, clOrdId: 'NEW-1' }, all), '0', 'Client is not permitted to buy C5TC');
  });

  it('accepts an 8-digit MonthYear and a price on a finer tick', () => {
    assert.deepEqual(validateNewOrderSingle({ ...outright, maturityMonthYear: '20261215' }, ctx), { ok: true });
    assert.deepEqual(validateNewOrderSingle({ ...outright, symbol: 'C3', price: '12.35' }, ctx), { ok: true });
    rejected(
      validateNewOrderSingle({ ...outright, symbol: 'C3', price: '12.355' }, ctx),
      '99',
      'Price 12.355 is not a multiple of the tick size 0.01 for C3',
    );
  });

  it('refuses a duplicate ClOrdID', () => {
    const seen = new Set(['ABC-1.1']);
    rejected(validateNewOrderSingle(outright, { ...ctx, isDuplicateClOrdId: (id) => seen.has(id) }), '6', 'Duplicate ClOrdID ABC-1.1');
  });

  it('with a clock, refuses expired and unlisted months', () => {
    const now = new Date('2025-09-15T00:00:00Z');
    rejected(
      validateNewOrderSingle({ ...outright, maturityMonthYear: '202508' }, { ...ctx, now }),
      '1',
      'Contract month Aug-25 (202508) has expired',
    );
    rejected(
      validateNewOrderSingle({ ...outright, maturityMonthYear: '203209' }, { ...ctx, now }),
      '1',
      'Contract month Sep-32 is beyond the 84-month series listed for C5TC',
    );
    assert.deepEqual(validateNewOrderSingle({ ...outright, maturityMonthYear: '202509' }, { ...ctx, now }), { ok: true });
  });

  describe('capabilities', () => {
    const all: ClientCapability = { securitySymbol: null, isEnabled: true, canBuy: true, canSell: true };
    it('an empty list means no permission; undefined skips the checks', () => {
      rejected(validateNewOrderSingle(outright, { ...ctx, capabilities: [] }), '0', 'No trading permission for C5TC');
      assert.deepEqual(validateNewOrderSingle(outright, { ...ctx, capabilities: [all] }), { ok: true });
    });
    it('enabled, side permissions, min and max quantity', () => {
      const cases: [ClientCapability, Partial<NewOrderSingleInput>, string, string][] = [
        [{ ...all, isEnabled: false }, {}, '0', 'Trading in C5TC is disabled for this client'],
        [{ ...all, canBuy: false }, {}, '0', 'Client is not permitted to buy C5TC'],
        [{ ...all, canSell: false }, { side: '2' }, '0', 'Client is not permitted to sell C5TC'],
        [{ ...all, maxOrderQty: '5' }, {}, '3', 'Order quantity 10 exceeds the maximum of 5 for C5TC'],
        [{ ...all, minOrderQty: '20' }, {}, '13', 'Order quantity 10 is below the minimum of 20 for C5TC'],
      ];
      for (const [cap, change, code, text] of cases)
        rejected(validateNewOrderSingle({ ...outright, ...change }, { ...ctx, capabilities: [cap] }), code, text);
      assert.deepEqual(
        validateNewOrderSingle(outright, { ...ctx, capabilities: [{ ...all, canSell: false, maxOrderQty: '10', minOrderQty: '10' }] }),
        { ok: true },
      );
    });
    it('a row for the security beats the All Securities row', () => {
      const caps = [all, { ...all, securitySymbol: 'c5tc', canBuy: false }];
      rejected(validateNewOrderSingle(outright, { ...ctx, capabilities: caps }), '0', 'Client is not permitted to buy C5TC');
      assert.deepEqual(validateNewOrderSingle({ ...outright, symbol: 'C3', price: '12' }, { ...ctx, capabilities: caps }), { ok: true });
    });
    it('selectCapability prefers security and exchange specific rows', () => {
      const caps: ClientCapability[] = [
        { ...all, exchange: 'EEX', maxOrderQty: 1 },
        { ...all, securitySymbol: 'C5TC', exchange: 'SGX', maxOrderQty: 2 },
        { ...all, securitySymbol: 'C5TC', maxOrderQty: 3 },
      ];
      assert.equal(selectCapability(caps, 'C5TC', 'SGX')?.maxOrderQty, 2);
      assert.equal(selectCapability(caps, 'C5TC', 'EEX')?.maxOrderQty, 3);
      assert.equal(selectCapability(caps, 'C3', 'EEX')?.maxOrderQty, 1);
      assert.equal(selectCapability(caps, 'C3', 'SGX'), undefined);
      assert.equal(selectCapability(caps, 'C3', null)?.maxOrderQty, 1);
    });
    it('short selling and position limits against the worst-case exposure in the contract', () => {
      const exp = (filled: string, workingBuy = '0', workingSell = '0') => ({
        filled: Decimal.from(filled),
        workingBuy: Decimal.from(workingBuy),
        workingSell: Decimal.from(workingSell),
      });
      const book: Record<string, ReturnType<typeof exp>> = {
        'C5TC|202612': exp('4', '0', '0'),
        'C5TC|202701': exp('-3'),
        'C5TC|202702': exp('10', '0', '6'),
      };
      const withPos = { ...ctx, exposure: (key: string) => book[key] };
      const sell = (qty: string, maturity = '202612') => ({ ...outright, side: '2', orderQty: qty, maturityMonthYear: maturity });
      const noShort: ClientCapability = { ...all, canShort: false };
      assert.deepEqual(validateNewOrderSingle(sell('4'), { ...withPos, capabilities: [noShort] }), { ok: true });
      rejected(
        validateNewOrderSingle(sell('5'), { ...withPos, capabilities: [noShort] }),
        '0',
        'Client is not permitted to sell C5TC Dec-26 short: position 4, working sells 0, this order 5 would leave -1',
      );
      rejected(
        validateNewOrderSingle(sell('1', '202701'), { ...withPos, capabilities: [noShort] }),
        '0',
        'Client is not permitted to sell C5TC Jan-27 short: position -3, working sells 0, this order 1 would leave -4',
      );
      // Working sells count as if filled: long 10 with 6 working to sell leaves room for 4.
      assert.deepEqual(validateNewOrderSingle(sell('4', '202702'), { ...withPos, capabilities: [noShort] }), { ok: true });
      rejected(
        validateNewOrderSingle(sell('5', '202702'), { ...withPos, capabilities: [noShort] }),
        '0',
        'Client is not permitted to sell C5TC Feb-27 short: position 10, working sells 6, this order 5 would leave -1',
      );
      // Without a position the sale is a short sale.
      rejected(
        validateNewOrderSingle(sell('1', '202703'), { ...ctx, capabilities: [noShort] }),
        '0',
        'Client is not permitted to sell C5TC Mar-27 short: position 0, working sells 0, this order 1 would leave -1',
      );
      assert.deepEqual(validateNewOrderSingle(sell('9'), { ...withPos, capabilities: [{ ...all, canShort: true }] }), { ok: true });
      const limited: ClientCapability = { ...all, canShort: true, maxPositionLong: '10', maxPositionShort: '5' };
      assert.deepEqual(validateNewOrderSingle({ ...outright, orderQty: '6' }, { ...withPos, capabilities: [limited] }), { ok: true });
      rejected(
        validateNewOrderSingle({ ...outright, orderQty: '7' }, { ...withPos, capabilities: [limited] }),
        '3',
        'Net long position in C5TC Dec-26 could reach 11 (position 4, working buys 0, this order 7), above the limit of 10',
      );
      assert.deepEqual(validateNewOrderSingle(sell('9'), { ...withPos, capabilities: [limited] }), { ok: true });
      rejected(
        validateNewOrderSingle(sell('10'), { ...withPos, capabilities: [limited] }),
        '3',
        'Net short position in C5TC Dec-26 could reach 6 (position 4, working sells 0, this order 10), above the limit of 5',
      );
    });
    it('a market identifier must be named in ExDestination', () => {
      const cap: ClientCapability = { ...all, marketIdentifier: 'XSES' };
      rejected(
        validateNewOrderSingle(outright, { ...ctx, capabilities: [cap] }),
        '0',
        'Client may trade C5TC only on market XSES (ExDestination 100)',
      );
      assert.deepEqual(validateNewOrderSingle({ ...outright, exDestination: 'xses' }, { ...ctx, capabilities: [cap] }), { ok: true });
    });
  });
});

describe('validateNewOrderMultileg', () => {
  const spread: NewOrderMultilegInput = {
    clOrdId: 'ABC-2.1',
    side: '1',
    ordType: '2',
    orderQty: '5',
    price: '-250',
    symbol: 'C5TC-Oct-26/Nov-26',
    legs: [
      { symbol: 'C5TC', side: '1', ratio: '1', maturityMonthYear: '202610' },
      { symbol: 'C5TC', side: '2', ratio: '1', maturityMonthYear: '202611' },
    ],
  };

  it('accepts spreads priced at zero or below', () => {
    assert.deepEqual(validateNewOrderMultileg(spread, ctx), { ok: true });
    assert.deepEqual(validateNewOrderMultileg({ ...spread, price: '0' }, ctx), { ok: true });
    assert.deepEqual(validateNewOrderMultileg({ ...spread, ordType: '1', price: null }, ctx), { ok: true });
    const noRatio = { ...spread, legs: spread.legs.map((l) => ({ ...l, ratio: undefined })) };
    assert.deepEqual(validateNewOrderMultileg(noRatio, ctx), { ok: true });
  });

  it('refuses broken orders and legs', () => {
    const legs = spread.legs;
    const cases: [Partial<NewOrderMultilegInput>, string, string][] = [
      [{ price: null }, '99', 'Limit orders require a valid price'],
      [{ price: 'x' }, '99', 'Limit orders require a valid price'],
      [{ legs: [] }, '11', 'Multileg order has no legs'],
      [{ legs: [legs[0]!, { ...legs[1]!, side: 'S' }] }, '11', "Leg 2: Invalid side 'S': side must be '1' (Buy) or '2' (Sell)"],
      [{ legs: [{ ...legs[0]!, ratio: '0' }, legs[1]!] }, '11', 'Leg 1: ratio must be a whole number greater than 0'],
      [{ legs: [{ ...legs[0]!, ratio: '1.5' }, legs[1]!] }, '11', 'Leg 1: ratio must be a whole number greater than 0'],
      [{ legs: [legs[0]!, { ...legs[1]!, symbol: 'ZZZ' }] }, '1', 'Leg 2: Unknown symbol ZZZ'],
      [{ legs: [legs[0]!, { ...legs[1]!, symbol: 'OLD' }] }, '1', 'Leg 2: Symbol OLD is not active'],
      [
        { legs: [legs[0]!, { ...legs[1]!, maturityMonthYear: 'Nov-26' }] },
        '1',
        "Leg 2: Maturity month-year 'Nov-26' is missing or not YYYYMM",
      ],
      [{ orderQty: 0 }, '13', 'Order quantity must be greater than 0'],
    ];
    for (const [change, code, text] of cases) rejected(validateNewOrderMultileg({ ...spread, ...change }, ctx), code, text);
  });

  it("checks the legs' symbols before the order's terms, and a duplicate before the capabilities", () => {
    const unknownLeg = { ...spread, side: '7', legs: [spread.legs[0]!, { ...spread.legs[1]!, symbol: 'ZZZ', side: 'S' }] };
    rejected(validateNewOrderMultileg(unknownLeg, ctx), '1', 'Leg 2: Unknown symbol ZZZ');
    rejected(
      validateNewOrderMultileg({ ...unknownLeg, legs: spread.legs }, ctx),
      '11',
      "Invalid side '7': side must be '1' (Buy) or '2' (Sell)",
    );
    const noSell: ClientCapability[] = [{ securitySymbol: null, isEnabled: true, canBuy: true, canSell: false }];
    rejected(
      validateNewOrderMultileg(spread, { ...ctx, capabilities: noSell, isDuplicateClOrdId: () => true }),
      '6',
      'Duplicate ClOrdID ABC-2.1',
    );
  });

  it('checks each leg against the capability at ratio × quantity', () => {
    const caps: ClientCapability[] = [{ securitySymbol: null, isEnabled: true, canBuy: true, canSell: false }];
    rejected(validateNewOrderMultileg(spread, { ...ctx, capabilities: caps }), '0', 'Leg 2: Client is not permitted to sell C5TC');
    const capped: ClientCapability[] = [{ securitySymbol: null, isEnabled: true, canBuy: true, canSell: true, maxOrderQty: 12 }];
    const ratio3 = { ...spread, legs: [{ ...spread.legs[0]!, ratio: 3 }, spread.legs[1]!] };
    rejected(
      validateNewOrderMultileg(ratio3, { ...ctx, capabilities: capped }),
      '3',
      'Leg 1: Order quantity 15 exceeds the maximum of 12 for C5TC',
    );
    assert.deepEqual(validateNewOrderMultileg(spread, { ...ctx, capabilities: capped }), { ok: true });
  });
});

describe('decideNewOrder', () => {
  const order = {
    msgType: 'D' as const,
    clOrdId: 'X-1',
    side: '2',
    ordType: '2',
    orderQty: '5',
    price: '27000',
    symbol: 'C5TC',
    maturityMonthYear: '202612',
    exDestination: 'SGX',
  };
  const cap: ClientCapability = { securitySymbol: null, isEnabled: true, canBuy: true, canSell: true, canShort: false };
  const base = {
    lookupSecurity: (s: string) => ({ C5TC: { symbol: 'C5TC', isActive: true, priceTickSize: '1' } })[s],
    capabilities: [cap],
  };
  it('decides in order: terms, then capability and exposure, then the rate', () => {
    let counted = 0;
    const overRate = () => ++counted > 0;
    assert.deepEqual(decideNewOrder({ ...order, orderQty: '0' }, { ...base, overRate }), {
      ok: false,
      ordRejReason: '13',
      text: 'Order quantity must be greater than 0',
      stage: 'terms',
    });
    const short = decideNewOrder(order, { ...base, overRate });
    assert.equal(short.ok ? '' : short.stage, 'permission');
    // Neither refusal counted the order against the rate.
    assert.equal(counted, 0);
    const exposure = () => ({ filled: Decimal.from(10), workingBuy: Decimal.ZERO, workingSell: Decimal.ZERO });
    assert.deepEqual(decideNewOrder(order, { ...base, exposure, overRate, maxOrdersPerSecond: 3 }), {
      ok: false,
      ordRejReason: '99',
      text: 'Order rate limit of 3 orders per second exceeded',
      stage: 'rate',
    });
    assert.deepEqual(decideNewOrder(order, { ...base, exposure }), { ok: true });
  });
});

describe('checkParties', () => {
  const OWN = '549300STRAITS000SG15';
  const OTHER = '529900NORDHAFEN00E87';
  const leis = new Map([
    [OWN, 'SGX'],
    [OTHER, 'EEX'],
  ]);
  const contacts = new Map([
    [contactKey('Mei Lin Tan'), 'SGX'],
    [contactKey('Jonas Berger'), 'EEX'],
    [contactKey('jonas.berger@nordhafen.example'), 'EEX'],
  ]);
  const desk = { leiOwner: (l: string) => leis.get(l), contactOwner: (c: string) => contacts.get(c) };
  const party = (partyRole: number, partyId: string, legIndex: number | null = null) => ({
    partyId,
    partyIdSource: 'D',
    partyRole,
    legIndex,
  });
  const textOf = (r: ReturnType<typeof checkParties>) => r?.text ?? null;

  it("refuses another firm's LEI as Entering Firm when the desk holds the client's own", () => {
    assert.equal(
      textOf(checkParties([party(7, OTHER)], { compId: 'SGX', lei: OWN }, desk)),
      `Entering Firm (PartyRole 7) ${OTHER} is another firm's LEI: this client's is ${OWN}`,
    );
    assert.equal(checkParties([party(7, OWN.toLowerCase())], { compId: 'SGX', lei: OWN }, desk), null);
    assert.equal(checkParties([party(7, 'STRAITS-DESK')], { compId: 'SGX', lei: OWN }, desk), null);
  });

  it("without the client's LEI, refuses the LEI of another client of the desk, without naming that client", () => {
    assert.equal(
      textOf(checkParties([party(7, OTHER)], { compId: 'SGX', lei: null }, desk)),
      `Entering Firm (PartyRole 7) ${OTHER} is the LEI of another client of this desk`,
    );
    assert.equal(checkParties([party(7, '5493000000UNKNOWN010')], { compId: 'SGX', lei: null }, desk), null);
  });

  it("refuses another client's contact, by name or e-mail in any case and spacing, as Order Origination Trader", () => {
    assert.equal(
      textOf(checkParties([party(11, ' jonas   BERGER ')], { compId: 'SGX', lei: OWN }, desk)),
      'Order Origination Trader (PartyRole 11) jonas   BERGER is the contact of another client of this desk',
    );
    assert.ok(checkParties([party(11, 'Jonas.Berger@nordhafen.example')], { compId: 'SGX', lei: OWN }, desk));
    // Its own contact, another of its traders, a leg's party and another role go through.
    assert.equal(
      checkParties(
        [party(11, 'Mei Lin Tan'), party(11, 'TRADER1'), party(11, 'Jonas Berger', 0), party(12, 'Jonas Berger')],
        { compId: 'SGX', lei: OWN },
        desk,
      ),
      null,
    );
    assert.equal(checkParties([party(11, 'Jonas Berger')], { compId: 'EEX', lei: OTHER }, desk), null);
  });
});
