import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSDOM } from 'jsdom';
import type { FixSpecDocument } from '@fixdesk/domain';
import { loadDictionaryData } from '../dictionary';
import { ORCHESTRA_NAMESPACE, renderOrchestraXml } from './orchestra';
import { renderFixSpecHtml } from './render-html';

const MARKUP = '<img src=x onerror="alert(1)">';

function doc(): FixSpecDocument {
  const field = (tag: number, name: string, required: boolean, validValues = '', clientDefault: string | null = null) => ({
    tag,
    name,
    type: 'STRING',
    required,
    description: '',
    validValues,
    clientDefault,
  });
  return {
    formatVersion: 1,
    generatedAt: '2026-11-26T06:00:00.000Z',
    version: 3,
    client: {
      compId: 'SGX_CLIENT_1',
      targetCompId: 'FIXDESK',
      clientName: `Straits ${MARKUP}`,
      clientContact: 'Mei',
      clientEmail: null,
      companyName: null,
      lei: null,
    },
    broker: null,
    contracts: [
      {
        symbol: 'C5TC',
        instrumentName: 'Capesize 5TC',
        description: MARKUP,
        contractSize: '1',
        contractUnit: 'day',
        priceTick: '1',
        qtyTick: '1',
        seriesMonths: 84,
        currency: 'USD',
        exchanges: ['SGX', 'EEX'],
        active: true,
      },
    ],
    exchanges: [],
    messages: [
      {
        msgType: 'D',
        name: 'NewOrderSingle',
        execType: null,
        direction: 'in',
        fields: [
          field(11, 'ClOrdID', true),
          field(54, 'Side', true, '1=Buy, 2=Sell'),
          field(59, 'TimeInForce', false, '0=Day, 1=Good Till Cancel', '0'),
        ],
      },
      {
        msgType: '8',
        name: 'ExecutionReport',
        execType: 'F',
        direction: 'out',
        fields: [field(150, 'ExecType', true, 'F=Trade'), field(1, 'Account', false, '', 'SGX "CLIENT" 1')],
      },
    ],
    examples: [{ kind: 'outright', title: 'Outright', msgType: 'D', fix: '8=FIX.4.4|35=D|10=000|' }],
    session: {
      fixVersion: 'FIX.4.4',
      heartBtInt: 30,
      host: 'desk',
      port: 9876,
      tlsPort: 9877,
      tlsRequired: true,
      senderCompId: 'SGX_CLIENT_1',
      targetCompId: 'FIXDESK',
      schedule: { timeZone: 'Asia/Singapore', startTime: '09:00:00', endTime: '17:00:00', tradingDays: 'M,T,W,T,F' },
      resetPolicy: { resetOnLogon: false, resetFrequency: 'DAILY' },
      credentials: { username: null, passwordRequired: false },
      maxOrdersPerSecond: 100,
      header: [],
      trailer: [],
    },
    capabilities: [],
  };
}

describe('client FIX specification renderings', () => {
  it('renders the four tabs with every configured value escaped', () => {
    const html = renderFixSpecHtml(doc());
    assert.ok(!html.includes('<img'), 'markup in configuration stays text');
    assert.ok(html.includes('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'));
    const body = new JSDOM(`<body>${html}</body>`).window.document;
    assert.deepEqual(
      [...body.querySelectorAll('section[data-tab]')].map((s) => s.getAttribute('data-tab')),
      ['aboutFFA', 'orderGeneration', 'tradeLifecycle', 'sessionInfo'],
    );
    assert.equal(body.querySelectorAll('section[data-tab]:not([hidden])').length, 1, 'one tab shown at a time');
    assert.equal(body.querySelectorAll('[data-tab-target]').length, 4);
    assert.equal(body.querySelectorAll('section[data-tab="tradeLifecycle"] svg').length, 5, 'five flow diagrams');
    assert.match(body.querySelector('section[data-tab="sessionInfo"]')!.textContent!, /TLS required/);
    assert.equal(body.querySelector('[data-section="drop-copy"]'), null, 'a document of format 1 (no dropCopy) has no Drop copy section');
    assert.equal(body.querySelectorAll('section[data-tab="orderGeneration"] pre').length, 1, 'its order example');
  });

  it("adds a Drop copy section to a covered client's Session Information, the rest unchanged", () => {
    const plain = new JSDOM(`<body>${renderFixSpecHtml(doc())}</body>`).window.document;
    const d = { ...doc(), formatVersion: 2, dropCopy: { role: 'copiedClient' as const, sessions: ['BACKOFFICE_DC', 'MIDDLE_DC'] } };
    const body = new JSDOM(`<body>${renderFixSpecHtml(d)}</body>`).window.document;
    const section = body.querySelector('section[data-tab="sessionInfo"] [data-section="drop-copy"]')!;
    assert.ok(section, 'inside the Session Information tab');
    const text = section.textContent!;
    assert.match(text, /Copies of the reports we send SGX_CLIENT_1 also go to the drop copy sessions BACKOFFICE_DC and MIDDLE_DC/);
    assert.match(text, /CopyMsgIndicator \(797\)=Y/);
    assert.match(text, /PartyID \(448\)=SGX_CLIENT_1, PartyIDSource \(447\)=D, PartyRole \(452\)=3/);
    const rows = [...section.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent).join(' '));
    assert.ok(rows.includes('35=8 448 PartyID (first entry) SGX_CLIENT_1'), rows.join('; '));
    assert.ok(rows.includes('35=9 1 Account SGX_CLIENT_1'), rows.join('; '));
    for (const tab of ['aboutFFA', 'orderGeneration', 'tradeLifecycle'])
      assert.equal(
        body.querySelector(`section[data-tab="${tab}"]`)!.innerHTML,
        plain.querySelector(`section[data-tab="${tab}"]`)!.innerHTML,
        `${tab} as for any client`,
      );
    assert.equal(body.querySelectorAll('.note').length, 0);
  });

  it("renders a drop copy session's document: no orders or capabilities, the copies described", () => {
    const base = doc();
    const d: FixSpecDocument = {
      ...base,
      formatVersion: 2,
      client: { ...base.client, compId: 'BACKOFFICE_DC', clientName: 'Back office' },
      session: { ...base.session, senderCompId: 'BACKOFFICE_DC' },
      messages: base.messages.filter((m) => m.direction === 'out'),
      examples: [],
      capabilities: null,
      dropCopy: { role: 'dropCopySession', everyClient: true, clients: [] },
    };
    const body = new JSDOM(`<body>${renderFixSpecHtml(d)}</body>`).window.document;
    const tab = (key: string) => body.querySelector(`section[data-tab="${key}"]`)!;
    assert.match(tab('aboutFFA').textContent!, /BACKOFFICE_DC is a drop copy session: it trades nothing/);
    assert.equal(tab('aboutFFA').querySelectorAll('table').length, 1, 'the contracts, no capability table');
    const orders = tab('orderGeneration');
    assert.equal(orders.querySelectorAll('pre, table, button').length, 0, 'no example it could not send, no message it may not send');
    assert.match(
      orders.textContent!,
      /sends no orders.*BusinessRejectReason \(380\)=6, Text \(58\) "Drop copy session: application messages are not accepted"/,
    );
    assert.match(tab('tradeLifecycle').textContent!, /BACKOFFICE_DC sends none of the client's messages/);
    assert.match(tab('tradeLifecycle').textContent!, /Messages we send \(copies\)/);
    assert.ok(
      !tab('tradeLifecycle').innerHTML.includes('>BACKOFFICE_DC</text>'),
      'the flows are drawn for a client, not the drop copy session',
    );
    const section = tab('sessionInfo').querySelector('[data-section="drop-copy"]')!;
    const text = section.textContent!;
    assert.match(text, /receives copies of the reports we send every client and sends no orders/);
    assert.match(text, /PossResend \(97=Y\)/);
    assert.match(text, /ResetSeqNumFlag \(141=Y\)/);
    assert.match(text, /ResendRequest \(35=2\)/);
    assert.match(text, /PartyID \(448\)=the client's SenderCompID/);

    const xml = new new JSDOM('').window.DOMParser().parseFromString(renderOrchestraXml(d, loadDictionaryData()), 'application/xml');
    const docs = [...xml.getElementsByTagNameNS(ORCHESTRA_NAMESPACE, 'message')].map(
      (m) => m.getElementsByTagNameNS(ORCHESTRA_NAMESPACE, 'documentation')[0]!.textContent,
    );
    assert.deepEqual(docs, ["Sent by the desk: a drop copy of a client's message"]);
  });

  it('writes a well-formed Orchestra repository: messages, presence, assignments, code sets', () => {
    const xml = new new JSDOM('').window.DOMParser().parseFromString(renderOrchestraXml(doc(), loadDictionaryData()), 'application/xml');
    assert.equal(xml.getElementsByTagName('parsererror').length, 0);
    assert.equal(xml.documentElement.localName, 'repository');
    assert.equal(xml.documentElement.namespaceURI, ORCHESTRA_NAMESPACE);
    const ns = ORCHESTRA_NAMESPACE;
    const messages = [...xml.getElementsByTagNameNS(ns, 'message')];
    assert.deepEqual(
      messages.map((m) => [m.getAttribute('msgType'), m.getAttribute('scenario')]),
      [
        ['D', 'base'],
        ['8', 'ExecTypeF'],
      ],
    );
    const refs = (m: Element) => [...m.getElementsByTagNameNS(ns, 'fieldRef')];
    assert.deepEqual(
      refs(messages[0]!).map((f) => [f.getAttribute('id'), f.getAttribute('presence')]),
      [
        ['11', 'required'],
        ['54', 'required'],
        ['59', 'optional'],
      ],
    );
    const account = refs(messages[1]!).find((f) => f.getAttribute('id') === '1')!;
    assert.equal(
      account.getElementsByTagNameNS(ns, 'assign')[0]!.textContent,
      '"SGX \\"CLIENT\\" 1"',
      'the client value as a Score string',
    );
    const side = [...xml.getElementsByTagNameNS(ns, 'codeSet')].find((c) => c.getAttribute('id') === '54')!;
    assert.deepEqual(
      [...side.getElementsByTagNameNS(ns, 'code')].map((c) => [c.getAttribute('value'), c.getAttribute('name')]),
      [
        ['1', 'Buy'],
        ['2', 'Sell'],
      ],
    );
    const fields = [...xml.getElementsByTagNameNS(ns, 'field')];
    assert.equal(fields.find((f) => f.getAttribute('id') === '54')!.getAttribute('type'), 'SideCodeSet');
    assert.equal(fields.find((f) => f.getAttribute('id') === '11')!.getAttribute('type'), 'STRING');
  });
});
