import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExecType, OrdStatus } from './codes';
import {
  connectionGuidelines,
  diffFixSpecDocuments,
  execTypesSent,
  EXECUTION_REPORT_VARIANTS,
  generateExportPassword,
  ORDER_FLOWS,
  PASSWORD_ALPHABET,
  SESSION_MESSAGES,
  sequenceDiagramSvg,
  truncateValidValues,
  type FixSpecDocument,
} from './fix-specification';
import { ORDER_TRANSITIONS } from './order-transitions';

function doc(): FixSpecDocument {
  return {
    formatVersion: 1,
    generatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
    client: {
      compId: 'C1',
      targetCompId: 'FIXDESK',
      clientName: 'Client',
      clientContact: 'Ann',
      clientEmail: null,
      companyName: null,
      lei: null,
    },
    broker: null,
    contracts: [],
    exchanges: [],
    messages: [
      {
        msgType: 'D',
        name: 'NewOrderSingle',
        execType: null,
        direction: 'in',
        fields: [
          { tag: 11, name: 'ClOrdID', type: 'STRING', required: true, description: '', validValues: '', clientDefault: null },
          {
            tag: 59,
            name: 'TimeInForce',
            type: 'CHAR',
            required: false,
            description: '',
            validValues: '0=Day, 1=Good Till Cancel',
            clientDefault: '0',
          },
        ],
      },
      { msgType: '8', name: 'ExecutionReport', execType: 'F', direction: 'out', fields: [] },
    ],
    examples: [],
    session: {
      fixVersion: 'FIX.4.4',
      heartBtInt: 30,
      host: 'desk',
      port: 9876,
      tlsPort: null,
      tlsRequired: false,
      senderCompId: 'C1',
      targetCompId: 'FIXDESK',
      schedule: { timeZone: 'Asia/Singapore', startTime: '09:00:00', endTime: '17:00:00', tradingDays: 'M,T,W,T,F' },
      resetPolicy: { resetOnLogon: false, resetFrequency: 'DAILY' },
      credentials: { username: null, passwordRequired: false },
      maxOrdersPerSecond: 100,
      header: [],
      trailer: [],
    },
    capabilities: [
      {
        symbol: 'C5TC',
        exchange: null,
        enabled: true,
        canBuy: true,
        canSell: true,
        canShort: false,
        minOrderQty: null,
        maxOrderQty: '100',
        maxPositionLong: null,
        maxPositionShort: null,
        marketIdentifier: null,
      },
    ],
  };
}

describe('FIX specification document', () => {
  it('generates 12-character passwords from the alphabet without look-alikes, every class present', () => {
    for (const c of '0Oo1lIiSZB2 58|\'"`') assert.ok(!PASSWORD_ALPHABET.includes(c), `look-alike ${c} in the alphabet`);
    assert.equal(new Set(PASSWORD_ALPHABET).size, PASSWORD_ALPHABET.length);
    let seed = 7;
    const lcg = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generateExportPassword(lcg);
      assert.equal(p.length, 12);
      for (const ch of p) assert.ok(PASSWORD_ALPHABET.includes(ch), ch);
      assert.match(p, /[A-Z]/);
      assert.match(p, /[a-z]/);
      assert.match(p, /[0-9]/);
      assert.match(p, /[^A-Za-z0-9]/);
      seen.add(p);
    }
    assert.ok(seen.size > 190, 'passwords differ');
    // A source that always picks the first character never satisfies the classes alone; one cycling does.
    let i = 0;
    const cycling = (n: number) => (i += 17) % n;
    assert.equal(generateExportPassword(cycling).length, 12);
  });

  it('truncates valid values at 100 characters', () => {
    assert.equal(truncateValidValues('1=Buy, 2=Sell'), '1=Buy, 2=Sell');
    const long = 'x'.repeat(150);
    assert.equal(truncateValidValues(long).length, 100);
    assert.ok(truncateValidValues(long).endsWith('…'));
    assert.equal(truncateValidValues('y'.repeat(100)), 'y'.repeat(100));
  });

  it('lists the 13 execution report variants of spec 001 §4 and knows which the desk sends', () => {
    assert.deepEqual(
      EXECUTION_REPORT_VARIANTS.map((v) => v.name),
      [
        'Pending New',
        'New',
        'Partial Fill',
        'Fill',
        'Done for Day',
        'Rejected',
        'Pending Cancel',
        'Canceled',
        'Pending Replace',
        'Replaced',
        'Restated',
        'Trade Correct',
        'Trade Cancel',
      ],
    );
    const sent = execTypesSent();
    for (const code of [
      ExecType.PendingNew,
      ExecType.New,
      ExecType.Trade,
      ExecType.DoneForDay,
      ExecType.Rejected,
      ExecType.PendingCancel,
      ExecType.Canceled,
      ExecType.PendingReplace,
      ExecType.Replaced,
    ])
      assert.ok(sent.has(code), code);
    for (const code of [ExecType.Restated, ExecType.TradeCorrect, ExecType.TradeCancel]) assert.ok(!sent.has(code), code);
  });

  it('draws only flows the transition table produces', () => {
    const produced = new Set(ORDER_TRANSITIONS.filter((t) => t.execType).map((t) => `${t.execType}`));
    produced.add(ExecType.PendingNew);
    produced.add(ExecType.Rejected);
    for (const flow of ORDER_FLOWS)
      for (const s of flow.steps) if (s.execType) assert.ok(produced.has(s.execType), `${flow.key}: ExecType ${s.execType}`);
    const fill = ORDER_FLOWS.find((f) => f.key === 'fill')!;
    assert.deepEqual(
      fill.steps.filter((s) => s.ordStatus).map((s) => s.ordStatus),
      [OrdStatus.PendingNew, OrdStatus.New, OrdStatus.PartiallyFilled, OrdStatus.Filled, OrdStatus.DoneForDay],
    );
    const svg = sequenceDiagramSvg({
      key: 'x',
      title: '<b>',
      description: '',
      steps: [{ from: 'client', msgType: 'D', label: 'a & <b>' }],
    });
    assert.ok(svg.startsWith('<svg') && svg.includes('a &amp; &lt;b&gt;') && !svg.includes('<b>'));
  });

  it('has the session messages A, 0, 1, 2, 3, 4, 5, j and guidelines following the session', () => {
    assert.deepEqual(
      SESSION_MESSAGES.map((m) => m.msgType),
      ['A', '0', '1', '2', '3', '4', '5', 'j'],
    );
    const d = doc();
    const g = connectionGuidelines({ ...d.session, tlsRequired: true, resetPolicy: { resetOnLogon: true, resetFrequency: 'WEEKLY' } });
    const text = g.map((x) => x.text).join(' ');
    assert.match(text, /TLS is required/);
    assert.match(text, /weekly/);
    assert.match(text, /data dictionary/);
    assert.match(text, /PossDupFlag/);
  });

  it('diffs two versions: fields added and removed, defaults, requirement, schedule, session and limits', () => {
    const a = doc();
    assert.deepEqual(diffFixSpecDocuments(a, doc()), []);
    const b = doc();
    const d = b.messages[0]!;
    d.fields = d.fields.filter((f) => f.tag !== 11);
    d.fields.push({ tag: 58, name: 'Text', type: 'STRING', required: false, description: '', validValues: '', clientDefault: null });
    d.fields[0]!.clientDefault = '1';
    d.fields[0]!.required = true;
    b.messages.pop();
    b.session.schedule.endTime = '18:00:00';
    b.session.port = 9999;
    b.capabilities![0]!.maxOrderQty = '50';
    b.capabilities!.push({ ...b.capabilities![0]!, symbol: 'P4TC' });
    const changes = diffFixSpecDocuments(a, b);
    const has = (kind: string, where: string, item: string, before: string | null, after: string | null) =>
      assert.ok(
        changes.some((c) => c.kind === kind && c.where === where && c.item === item && c.before === before && c.after === after),
        `${kind} ${where} ${item}: ${JSON.stringify(changes)}`,
      );
    has('fieldRemoved', 'D', '11 ClOrdID', 'required', null);
    has('fieldAdded', 'D', '58 Text', null, 'optional');
    has('defaultChanged', 'D', '59 TimeInForce', '0', '1');
    has('requiredChanged', 'D', '59 TimeInForce', 'optional', 'required');
    has('messageRemoved', '8/F', 'ExecutionReport', 'ExecutionReport', null);
    has('scheduleChanged', 'schedule', 'endTime', '17:00:00', '18:00:00');
    has('sessionChanged', 'session', 'port', '9876', '9999');
    has('limitChanged', 'C5TC', 'maxOrderQty', '100', '50');
    has('securityAdded', 'P4TC', 'P4TC', null, 'tradable');
    assert.equal(changes.length, 9);
  });
});
