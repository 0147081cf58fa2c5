// Drop copy interop (docs/adr/0017): QuickFIX C++ (Debian's libquickfix) logs on as a drop copy
// session and validates every copy against QuickFIX's own FIX 4.4 data dictionary (UseDataDictionary=Y;
// the FIX44.xml beside this repository when it is there, else the one built from ours) while a client
// trades over FIX with our own initiator: an outright order filled in three fills, a calendar spread
// filled leg by leg, a cancel, a replace, a refused cancel request (an OrderCancelReject), a refusal at
// intake and a duplicate ClOrdID refused at the commit (150=8, no order row). Each report the client got
// reaches QuickFIX's application as one copy, in order, with no session Reject; the copies made while
// QuickFIX was logged out (a refusal among them) come at its next logon, flagged PossResend.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildQuickfix, quickfixUnavailable, type QuickfixBuild } from '../../bench/quickfix/build';
import { calendarSpread, newOrderSingle, TestFixClient, ts, type ReceivedMessage } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { field, fieldsOf, hasFields, QuickfixPeer } from './quickfix-peer';

const unavailable = quickfixUnavailable();
if (unavailable && process.env.CI) throw new Error(`QuickFIX interop cannot run in CI: ${unavailable}`);
const skip = unavailable ? `QuickFIX interop skipped: ${unavailable}` : false;

const CLIENT = 'SGX_CLIENT_1';
const DROP = 'QF_DROP_COPY';
/** QuickFIX's own FIX 4.4 dictionary, kept beside the repository with the shared FIX material. */
const STANDARD_FIX44 = join(import.meta.dirname, '..', '..', '..', 'shared', 'fix', 'FIX44.xml');

/** What identifies a report, the same in the client's message and its copy: [tag, value] pairs. */
const IDENTITY_TAGS = { '8': [35, 17, 150, 39, 11, 41, 37, 14, 151, 31, 32], '9': [35, 11, 41, 37, 39, 434] } as const;
const identityOfClient = (m: ReceivedMessage) =>
  IDENTITY_TAGS[m.msgType as '8' | '9'].map((t) => `${t}=${t === 35 ? m.msgType : (m.get(t) ?? '')}`).join('|');
const identityOfCopy = (text: string) => {
  const type = field(text, 35) as '8' | '9';
  return IDENTITY_TAGS[type].map((t) => `${t}=${field(text, t) ?? ''}`).join('|');
};

describe('QuickFIX as a drop copy session', { skip }, () => {
  let build: QuickfixBuild;
  let t: TestServer;
  let broker: string;
  let client: TestFixClient;
  let qf: QuickfixPeer | undefined;
  const store = mkdtempSync(join(tmpdir(), 'qf-drop-copy-'));

  before(async () => {
    build = buildQuickfix(['fixpeer']);
    t = await startTestServer('pglite');
    const admin = await t.login('admin');
    broker = await t.login('broker');
    const made = await t.api('/api/client-connectors', {
      method: 'POST',
      token: admin,
      json: {
        comp_id: DROP,
        execution_id_prefix: 'QFD',
        session_type: 'drop_copy',
        drop_copy_of: [CLIENT],
        timezone: 'UTC',
        trading_days: 'M,T,W,T,F,S,S',
        start_time: '00:00',
        end_time: '23:59:59',
      },
    });
    assert.equal(made.status, 200, await made.clone().text());
    client = new TestFixClient(CLIENT);
    await client.connect(t.server.ctx.fix.port);
  });
  after(async () => {
    qf?.kill();
    await client?.stop();
    await t?.stop();
    rmSync(store, { recursive: true, force: true });
  });

  const act = async (orderId: string, action: string, json: unknown = {}) => {
    const r = await t.api(`/api/orders/${orderId}/${action}`, { method: 'POST', token: broker, json });
    assert.equal(r.status, 200, `${action}: ${await r.clone().text()}`);
  };
  const report = (clOrdId: string, want: Record<number, string>) =>
    until(`${clOrdId} ${JSON.stringify(want)}`, () =>
      client.received.find((m) => m.get(11) === clOrdId && Object.entries(want).every(([tag, v]) => m.get(Number(tag)) === v)),
    );
  const accepted = async (clOrdId: string, body: Array<[number, string]>, msgType = 'D') => {
    await client.send(msgType, body);
    const id = (await report(clOrdId, { 150: 'A' })).get(37)!;
    await act(id, 'accept');
    await report(clOrdId, { 150: '0' });
    return id;
  };
  const request = (msgType: 'F' | 'G', clOrdId: string, orig: string, orderId: string, extra: Array<[number, string]> = []) =>
    client.send(msgType, [[11, clOrdId], [37, orderId], [41, orig], [54, '1'], [55, 'C5TC'], [60, ts()], ...extra]);
  const clientReports = () => client.received.filter((m) => m.msgType === '8' || m.msgType === '9');
  const copies = () => qf!.messages('APP').filter((m) => hasFields(m, { 35: '8' }) || hasFields(m, { 35: '9' }));

  test("receives one copy of each of a client's reports, validated by QuickFIX, in order, and what it missed at its next logon", async () => {
    const dictionaryPath = existsSync(STANDARD_FIX44) ? STANDARD_FIX44 : build.dictionaryPath;
    qf = new QuickfixPeer({
      binary: build.programs.fixpeer,
      mode: 'initiator',
      port: t.server.ctx.fix.port,
      senderCompID: DROP,
      targetCompID: 'FIXDESK',
      storeDir: store,
      dictionaryPath,
      heartBtIntSec: 5,
      killAfterMs: 60_000,
    });
    qf.script('start\nwait-logon');
    await qf.waitForLine((l) => l.startsWith('LOGON'));

    // An outright order: two partial fills and the fill.
    const o1 = await accepted('QFD-1', newOrderSingle('QFD-1'));
    await act(o1, 'fill', { fillQty: 3, fillPrice: 26990 });
    await act(o1, 'fill', { fillQty: 3, fillPrice: 27000 });
    await act(o1, 'fill', { fillQty: 4, fillPrice: 26995 });
    await report('QFD-1', { 39: '2' });
    // A calendar spread filled leg by leg.
    const o2 = await accepted('QFD-2', calendarSpread('QFD-2'), 'AB');
    await act(o2, 'fill', { fillQty: 2, fillPrice: 26000, legIndex: 0 });
    await act(o2, 'fill', { fillQty: 2, fillPrice: 25700, legIndex: 1 });
    await report('QFD-2', { 39: '2' });
    // A cancel.
    const o3 = await accepted('QFD-3', newOrderSingle('QFD-3'));
    await request('F', 'QFD-3-X', 'QFD-3', o3);
    await report('QFD-3-X', { 150: '6' });
    await act(o3, 'cancel-request/confirm');
    await report('QFD-3-X', { 150: '4' });
    // A replace.
    const o4 = await accepted('QFD-4', newOrderSingle('QFD-4'));
    await request('G', 'QFD-4-R', 'QFD-4', o4, [
      [38, '20'],
      [40, '2'],
      [44, '26900'],
      [59, '0'],
    ]);
    await report('QFD-4-R', { 150: 'E' });
    await act(o4, 'replace-request/confirm');
    await report('QFD-4-R', { 150: '5' });
    // A cancel request refused: an OrderCancelReject.
    const o5 = await accepted('QFD-5', newOrderSingle('QFD-5'));
    await request('F', 'QFD-5-X', 'QFD-5', o5);
    await report('QFD-5-X', { 150: '6' });
    await act(o5, 'cancel-request/refuse', { reason: 'Working the order' });
    await until('the cancel reject', () => client.received.find((m) => m.msgType === '9' && m.get(11) === 'QFD-5-X'));
    // Refusals: an unknown symbol at intake, and a ClOrdID already used, refused by the batch.
    await client.send('D', newOrderSingle('QFD-7', { symbol: 'NO_SUCH_SYMBOL' }));
    await report('QFD-7', { 150: '8' });
    await client.send('D', newOrderSingle('QFD-5', { qty: '3' }));
    await report('QFD-5', { 150: '8', 103: '6' });

    const live = clientReports();
    await until('a copy of every report at QuickFIX', () => copies().length >= live.length, 15_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(copies().map(identityOfCopy), live.map(identityOfClient));
    for (const copy of copies()) {
      if (field(copy, 35) === '8') {
        assert.equal(field(copy, 797), 'Y');
        const fields = fieldsOf(copy);
        const at = fields.findIndex(([tag]) => tag === 453);
        assert.deepEqual(fields.slice(at + 1, at + 4), [
          [448, CLIENT],
          [447, 'D'],
          [452, '3'],
        ]);
      } else assert.equal(field(copy, 1), CLIENT);
      assert.equal(field(copy, 97), undefined);
    }
    // The refusals' copies: no order behind them (OrderID NONE), the reason as the client got it.
    assert.ok(copies().some((c) => hasFields(c, { 11: 'QFD-7', 150: '8', 37: 'NONE' })));
    assert.ok(copies().some((c) => hasFields(c, { 11: 'QFD-5', 150: '8', 103: '6' })));
    // The spread's copies carry its legs.
    assert.ok(copies().some((c) => hasFields(c, { 11: 'QFD-2', 150: 'F', 442: '2', 555: '2' })));

    // Logged out, then reports made: they come at the next logon, PossResend.
    qf.script('logout\nwait-logout');
    await qf.waitForLine((l) => l.startsWith('LOGOUT'));
    const o6 = await accepted('QFD-6', newOrderSingle('QFD-6'));
    await act(o6, 'fill', { fillQty: 10, fillPrice: 27000 });
    await report('QFD-6', { 39: '2' });
    await client.send('D', newOrderSingle('QFD-8', { qty: '0' }));
    await report('QFD-8', { 150: '8' });
    qf.script('logon\nwait-logon');
    const all = clientReports();
    await until('the missed copies at QuickFIX', () => copies().length >= all.length, 15_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(copies().map(identityOfCopy), all.map(identityOfClient));
    assert.deepEqual(
      copies()
        .slice(live.length)
        .map((c) => [field(c, 11), field(c, 150), field(c, 97)]),
      [
        ['QFD-6', 'A', 'Y'],
        ['QFD-6', '0', 'Y'],
        ['QFD-6', 'F', 'Y'],
        ['QFD-8', '8', 'Y'],
      ],
    );

    // QuickFIX validated every copy against its data dictionary: nothing was rejected.
    assert.deepEqual(
      qf.messages('TX').filter((m) => hasFields(m, { 35: '3' }) || hasFields(m, { 35: 'j' })),
      [],
      'QuickFIX sent a Reject',
    );
    qf.script('logout\nwait-logout', true);
    await qf.finished();
  });
});
