import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExecType, OrdStatus } from './codes';
import {
  connectionGuidelines,
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
import { describeFixSpecChange, diffFixSpecDocuments } from './fix-specification-diff';
import {
  DROP_COPY_REJECT_TEXT,
  dropCopyFieldRows,
  dropCopyFor,
  dropCopyRules,
  dropCopySummary,
  type FixSpecDropCopy,
} from './fix-specification-drop-copy';
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

  it('finds the active drop copy sessions covering a client, and the clients a drop copy session copies', () => {
    const connectors = [
      { compId: 'C1', sessionType: 'order_entry', dropCopyOf: [], active: true },
      { compId: 'C2', sessionType: 'order_entry', dropCopyOf: [], active: true },
      { compId: 'DC_ALL', sessionType: 'drop_copy', dropCopyOf: [], active: true },
      { compId: 'DC_C1', sessionType: 'drop_copy', dropCopyOf: ['C1'], active: true },
      { compId: 'DC_OFF', sessionType: 'drop_copy', dropCopyOf: ['C1', 'C2'], active: false },
      { compId: 'AB_C2', sessionType: 'drop_copy', dropCopyOf: ['C2'], active: true },
    ];
    assert.deepEqual(dropCopyFor('C1', connectors), { role: 'copiedClient', sessions: ['DC_ALL', 'DC_C1'] }, 'the inactive one left out');
    assert.deepEqual(dropCopyFor('C2', connectors), { role: 'copiedClient', sessions: ['AB_C2', 'DC_ALL'] }, 'by comp id');
    assert.deepEqual(dropCopyFor('DC_ALL', connectors), { role: 'dropCopySession', everyClient: true, clients: [] });
    assert.deepEqual(dropCopyFor('DC_OFF', connectors), { role: 'dropCopySession', everyClient: false, clients: ['C1', 'C2'] });
    assert.equal(dropCopyFor('NOPE', connectors), null);
    assert.equal(
      dropCopyFor('C1', [connectors[0]!, connectors[4]!, connectors[5]!]),
      null,
      'covered only by an inactive session or one naming others',
    );
  });

  it("states what a copy is: 797, the client's Parties entry, 35=9 by Account, PossResend, no application messages", () => {
    const session: FixSpecDropCopy = { role: 'dropCopySession', everyClient: false, clients: ['C1', 'C2'] };
    const text = dropCopyRules(session, 'DC').map((g) => `${g.title}: ${g.text}`);
    const all = text.join('\n');
    assert.match(dropCopySummary(session, 'DC'), /DC is a drop copy session: it receives copies of the reports we send C1 and C2/);
    assert.match(dropCopySummary({ ...session, everyClient: true, clients: [] }, 'DC'), /every client/);
    assert.match(all, /CopyMsgIndicator \(797\)=Y and the same ExecID \(17\), OrderID \(37\), ClOrdID \(11\)/);
    assert.match(
      all,
      /PartyID \(448\)=the client's SenderCompID, PartyIDSource \(447\)=D, PartyRole \(452\)=3 \(Client ID\), before the order's own parties/,
    );
    assert.match(all, /OrderCancelReject \(35=9\).*Account \(1\)=the client's SenderCompID/);
    assert.match(all, /PossResend \(97=Y\).*ResetSeqNumFlag \(141=Y\)/);
    assert.match(all, /ResendRequest \(35=2\)/);
    assert.match(all, /refusals at intake included \(.*OrderID \(37\)=NONE/);
    assert.ok(
      all.includes(
        `BusinessMessageReject (35=j) with BusinessRejectReason (380)=6 (Not authorized) and Text (58) "${DROP_COPY_REJECT_TEXT}"`,
      ),
    );
    assert.equal(DROP_COPY_REJECT_TEXT, 'Drop copy session: application messages are not accepted');

    const client: FixSpecDropCopy = { role: 'copiedClient', sessions: ['DC_A', 'DC_B'] };
    const forClient = dropCopyRules(client, 'C1')
      .map((g) => g.text)
      .join('\n');
    assert.match(dropCopySummary(client, 'C1'), /reports we send C1 also go to the drop copy sessions DC_A and DC_B/);
    assert.match(
      forClient,
      /Every ExecutionReport \(35=8\) and OrderCancelReject \(35=9\) we send you is copied, in the order they were made/,
    );
    assert.match(forClient, /PartyID \(448\)=C1, PartyIDSource \(447\)=D, PartyRole \(452\)=3/, "the client's own comp id");
    assert.match(forClient, /refusals at intake included .*Status answers \(ExecType I\) are not copied/);
    assert.doesNotMatch(forClient, /BusinessMessageReject/, "a trading client's session is not refused anything");
    assert.deepEqual(
      dropCopyFieldRows(client, 'C1').map((r) => `${r[0]} ${r[1]}=${r[3]}`),
      [
        '35=8 797=Y',
        "35=8 453=1 + the order's own parties",
        '35=8 448=C1',
        '35=8 447=D (Proprietary code)',
        '35=8 452=3 (Client ID)',
        '35=9 1=C1',
        'header 97=Y on copies that waited for a Logon',
      ],
    );
  });

  it('compares a stored document without drop copy (format 1) with one that has it', () => {
    const old = doc();
    delete old.dropCopy;
    assert.deepEqual(diffFixSpecDocuments(old, { ...doc(), dropCopy: null }), [], 'absent and none are the same');
    const covered = { ...doc(), dropCopy: { role: 'copiedClient' as const, sessions: ['DC_A'] } };
    const changes = diffFixSpecDocuments(old, covered);
    assert.deepEqual(changes, [{ kind: 'dropCopyChanged', where: 'dropCopy', item: 'copiedTo', before: null, after: 'DC_A' }]);
    assert.equal(describeFixSpecChange(changes[0]!), 'Drop copy: copied to (none) → DC_A');
    const two = { ...doc(), dropCopy: { role: 'copiedClient' as const, sessions: ['DC_A', 'DC_B'] } };
    assert.deepEqual(diffFixSpecDocuments(covered, two).map(describeFixSpecChange), ['Drop copy: copied to DC_A → DC_A, DC_B']);
    assert.deepEqual(diffFixSpecDocuments(two, old).map(describeFixSpecChange), ['Drop copy: copied to DC_A, DC_B → (none)']);
  });
});
