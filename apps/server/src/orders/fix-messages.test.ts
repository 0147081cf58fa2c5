import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecReportRow, OrderLegRow, OrderRow } from '@fixdesk/db';
import { createSessionCodec, FixParser, outgoing } from '@fixdesk/fix';
import {
  buildCancelReject,
  buildDropCopy,
  buildExecutionReport,
  buildRefusalReport,
  refusalInputOf,
  type BuiltMessage,
} from './fix-messages';

/** The message as it leaves (header, body in QuickFIX order, checksum), read back and checked by our FIX 4.4 dictionary. */
function onTheWire(built: BuiltMessage) {
  const m = outgoing(built.msgType, built.body);
  const bytes = createSessionCodec().encode(
    'FIX.4.4',
    m.msgType,
    [
      [49, 'FIXDESK'],
      [56, 'MIDDLE_OFFICE_1'],
      [34, '7'],
      [52, '20260101-00:00:00.000'],
    ],
    m.body,
  );
  const parsed = new FixParser().parse(bytes);
  assert.equal(parsed.garbled, undefined);
  assert.equal(parsed.rejection, undefined, `rejected by the dictionary: ${JSON.stringify(parsed.rejection)}`);
  return { parsed, wire: bytes.toString('latin1').split('\x01') };
}

const ORDER = {
  id: 41,
  brokerorderid: 'BO-41',
  clordid: 'C-41',
  origclordid: null,
  client_connector_id: 3,
  sendercompid: 'SGX_CLIENT_1',
  targetcompid: 'FIXDESK',
  msg_type: 'AB',
  symbol: 'C5TC',
  security_type: 'MLEG',
  maturity_month_year: null,
  side: '1',
  ordtype: '2',
  price: '300',
  orderqty: '2',
  timeinforce: '0',
  exchange: 'SGX',
  currency: 'USD',
  account: 'ACC-9',
  text: null,
  ordstatus: '1',
  cumqty: '1',
  leavesqty: '1',
  avgpx: '310',
  lastqty: '1',
  lastpx: '310',
  accepted_by: 'broker',
  session_date: '2026-01-01',
  transacttime: new Date('2026-01-01T00:00:00Z'),
  created_at: new Date('2026-01-01T00:00:00Z'),
  updated_at: new Date('2026-01-01T00:00:00Z'),
} as unknown as OrderRow;

const LEGS: OrderLegRow[] = [0, 1].map((i) => ({
  id: i + 1,
  order_id: 41,
  leg_index: i,
  leg_symbol: 'C5TC',
  leg_security_type: 'FUT',
  leg_maturity_month_year: i === 0 ? '202702' : '202703',
  leg_side: i === 0 ? '1' : '2',
  leg_ratio_qty: '1',
  leg_price: null,
  leg_cumqty: '0',
  leg_avgpx: '0',
})) as unknown as OrderLegRow[];

/** A partial fill of the spread by a broker-type user: the report carries the executing trader (PartyRole 12). */
const FILL = {
  id: 900,
  order_id: 41,
  execid: 'SGX-E-900',
  clordid: 'C-41',
  origclordid: null,
  orderid: 'BO-41',
  exectype: 'F',
  ordstatus: '1',
  side: '1',
  symbol: 'C5TC',
  orderqty: '2',
  price: '300',
  lastqty: '1',
  lastpx: '310',
  cumqty: '1',
  avgpx: '310',
  leavesqty: '1',
  ordrejreason: null,
  text: null,
  leg_index: null,
  transacttime: new Date('2026-01-01T00:00:01Z'),
  created_at: new Date('2026-01-01T00:00:01Z'),
  sendercompid: 'SGX_CLIENT_1',
  sent_seq_num: null,
  sent_at: null,
  executing_trader_id: 'JDOE',
  executing_trader_source: 'D',
  executing_trader_name: 'Jane Doe',
} as unknown as ExecReportRow;

describe('outbound message building', () => {
  it('sends characters beyond Latin-1 as ? and reports the tag, so the message still encodes', () => {
    const built = buildCancelReject(
      {
        orderid: 'BO1',
        clordid: 'C-1',
        origclordid: 'C-0',
        ordstatus: '0',
        responseTo: '1',
        reason: 0,
        text: 'Zamówienie Łukasza €5',
        transacttime: new Date('2026-01-01T00:00:00Z'),
      },
      undefined,
    );
    assert.deepEqual(built.replaced, ['58']);
    assert.equal(new Map(built.body).get(58), 'Zamówienie ?ukasza ?5', 'Latin-1 (ó) is kept');
    const codec = createSessionCodec();
    const m = outgoing(built.msgType, built.body);
    assert.doesNotThrow(() =>
      codec.encode(
        'FIX.4.4',
        m.msgType,
        [
          [49, 'A'],
          [56, 'B'],
          [34, '1'],
          [52, '20260101-00:00:00.000'],
        ],
        m.body,
      ),
    );
  });
});

describe('drop copies (docs/adr/0017 point 4)', () => {
  it("copies an execution report as the client's, with CopyMsgIndicator=Y and the client first among the parties, valid FIX 4.4", () => {
    const client = buildExecutionReport(FILL, ORDER, LEGS, undefined);
    const copy = buildDropCopy({ kind: 'er', clientCompId: 'SGX_CLIENT_1', er: FILL, order: ORDER, legs: LEGS });
    assert.equal(copy.msgType, '8');
    assert.deepEqual([copy.dropped, copy.replaced, copy.missingMandatory], [[], [], []]);
    const { parsed, wire } = onTheWire(copy);
    assert.equal(parsed.get(797), 'Y');
    // The client's report, field for field, once 797 and the client's party entry are taken out.
    const at = copy.body.findIndex(([t]) => t === 453);
    const withoutCopyMarks = [...copy.body.slice(0, at), [453, '1'], ...copy.body.slice(at + 4)].filter(([t]) => t !== 797);
    assert.deepEqual(withoutCopyMarks, client.body);
    for (const [tag, value] of [
      [17, 'SGX-E-900'],
      [37, 'BO-41'],
      [11, 'C-41'],
      [150, 'F'],
      [39, '1'],
      [32, '1'],
      [31, '310'],
      [1, 'ACC-9'],
      [555, '2'],
    ] as const)
      assert.equal(parsed.get(tag), value, `tag ${tag}`);
    // Parties: the client (PartyRole 3) first, then the report's own (the executing trader, 12, with its sub-ID).
    const parties = wire.slice(wire.indexOf('453=2'));
    assert.deepEqual(parties.slice(0, 10), [
      '453=2',
      '448=SGX_CLIENT_1',
      '447=D',
      '452=3',
      '448=JDOE',
      '447=D',
      '452=12',
      '802=1',
      '523=Jane Doe',
      '803=9',
    ]);
  });

  it('names the client in a report with no parties of its own', () => {
    const accept = { ...FILL, exectype: '0', ordstatus: '0', lastqty: '0', lastpx: '0', executing_trader_id: null } as ExecReportRow;
    const { wire } = onTheWire(buildDropCopy({ kind: 'er', clientCompId: 'EEX_CLIENT_1', er: accept, order: ORDER, legs: [] }));
    const at = wire.indexOf('453=1');
    assert.ok(at > 0);
    assert.deepEqual(wire.slice(at, at + 4), ['453=1', '448=EEX_CLIENT_1', '447=D', '452=3']);
  });

  it('copies a cancel reject as 35=9 naming the client in Account (1), valid FIX 4.4', () => {
    const reject = {
      orderid: 'BO-41',
      clordid: 'C-42',
      origclordid: 'C-41',
      ordstatus: '2',
      responseTo: '1',
      reason: 0,
      text: 'Too late to cancel',
      transacttime: new Date('2026-01-01T00:00:02Z'),
    };
    const client = buildCancelReject(reject, undefined);
    assert.equal(new Map(client.body).get(1), undefined);
    const copy = buildDropCopy({ kind: 'cxlrej', clientCompId: 'SGX_CLIENT_1', reject });
    assert.equal(copy.msgType, '9');
    assert.deepEqual(copy.dropped, []);
    const { parsed } = onTheWire(copy);
    for (const [tag, value] of [
      [1, 'SGX_CLIENT_1'],
      [37, 'BO-41'],
      [11, 'C-42'],
      [41, 'C-41'],
      [39, '2'],
      [434, '1'],
      [102, '0'],
      [58, 'Too late to cancel'],
    ] as const)
      assert.equal(parsed.get(tag), value, `tag ${tag}`);
    // Neither CopyMsgIndicator nor Parties: FIX 4.4's OrderCancelReject has neither.
    assert.equal(parsed.get(797), undefined);
    assert.equal(parsed.get(453), undefined);
  });

  it('copies a refusal at intake from its stored facts: the refusal the client got, CopyMsgIndicator=Y and the client named, valid FIX 4.4', () => {
    const facts = {
      clOrdId: 'C-43',
      side: '2',
      symbol: 'NO_SUCH',
      orderQty: '10',
      ordType: '2',
      price: '27000.5',
      account: 'ACC-1',
      ordRejReason: '1',
      text: 'Unknown symbol NO_SUCH',
      execId: 'SGX-000000043',
      transactTime: '2026-01-01T00:00:03.000Z',
    };
    const refusal = refusalInputOf(facts);
    const client = buildRefusalReport(refusal, undefined);
    const copy = buildDropCopy({ kind: 'refusal', clientCompId: 'SGX_CLIENT_1', refusal });
    assert.deepEqual(copy.dropped, []);
    const { parsed, wire } = onTheWire(copy);
    // Every field of the client's message, as it had it.
    for (const [tag, value] of client.body) assert.equal(parsed.get(tag), value, `tag ${tag}`);
    assert.equal(parsed.get(60), '20260101-00:00:03.000');
    assert.equal(parsed.get(797), 'Y');
    const at = wire.indexOf('453=1');
    assert.ok(at > 0);
    assert.deepEqual(wire.slice(at, at + 4), ['453=1', '448=SGX_CLIENT_1', '447=D', '452=3']);
  });
});
