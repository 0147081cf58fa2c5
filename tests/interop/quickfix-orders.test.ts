// Order-level interop: a QuickFIX C++ client (Debian's libquickfix) logs on to our server as a client
// connector, sends orders, cancel, cancel/replace and status requests, and receives our execution
// reports as the broker acts through the HTTP API. It validates everything it receives against the
// FIX 4.4 data dictionary (UseDataDictionary=Y, as real clients run): every report shape we send
// (Pending New, New, fills, Done for Day, Rejected, Pending Cancel, Canceled, OrderCancelReject,
// Pending Replace, Replaced, status answer, BusinessMessageReject, multileg with legs and parties)
// must reach its application with no session Reject. And the onboarding of a new client:
// a connector and a capability made by an administrator, their limits enforced for the next order.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatUtcTimestamp } from '@fixdesk/fix';
import { buildQuickfix, quickfixUnavailable, type QuickfixBuild } from '../../bench/quickfix/build';
import { maturity } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { field, hasFields, QuickfixPeer } from './quickfix-peer';

const unavailable = quickfixUnavailable();
if (unavailable && process.env.CI) throw new Error(`QuickFIX interop cannot run in CI: ${unavailable}`);
const skip = unavailable ? `QuickFIX interop skipped: ${unavailable}` : false;

describe('QuickFIX client ↔ our order desk', { skip }, () => {
  let build: QuickfixBuild;
  let t: TestServer;
  let token: string;
  let qf: QuickfixPeer | undefined;
  const store = mkdtempSync(join(tmpdir(), 'qf-orders-'));

  before(async () => {
    build = buildQuickfix(['fixpeer']);
    t = await startTestServer('pglite');
    token = await t.login('broker');
  });
  after(async () => {
    qf?.kill();
    await t?.stop();
    rmSync(store, { recursive: true, force: true });
  });

  const api = async (path: string, json: unknown = {}) => {
    const r = await t.api(path, { method: 'POST', token, json });
    assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  };
  /** Waits until QuickFIX handed an application message with these fields to its application. */
  const report = async (want: Record<number, string>) => {
    const line = await qf!.waitForLine((l) => l.startsWith('APP') && hasFields(l.slice(4), want), 10_000);
    return line.slice(4);
  };

  test('logon, NewOrderSingle and NewOrderMultileg, reports as the broker acts, logout', async () => {
    qf = new QuickfixPeer({
      binary: build.programs.fixpeer,
      mode: 'initiator',
      port: t.server.ctx.fix.port,
      senderCompID: 'SGX_CLIENT_1',
      targetCompID: 'FIXDESK',
      storeDir: store,
      dictionaryPath: build.dictionaryPath,
      heartBtIntSec: 5,
    });
    qf.script('start\nwait-logon');
    await qf.waitForLine((l) => l.startsWith('LOGON'));

    // An outright order.
    qf.script(
      `send 35=D|11=QF-1|453=2|448=JSMITH|447=D|452=11|448=STRAITS|447=D|452=7|55=C5TC|167=FUT|200=${maturity(2)}|54=2|` +
        `60=${formatUtcTimestamp(Date.now())}|38=15|40=2|44=24500|59=0|100=SGX`,
    );
    const ack = await report({ 35: '8', 11: 'QF-1', 150: 'A', 39: 'A' });
    const id = field(ack, 37)!;
    // The broker's message to the client on Accept reaches it as Text (58) on the New report.
    await api(`/api/orders/${id}/accept`, { notes: 'Working it on the screen' });
    await report({ 11: 'QF-1', 150: '0', 39: '0', 58: 'Working it on the screen' });
    await api(`/api/orders/${id}/fill`, { fillQty: 5, fillPrice: 24550 });
    await report({ 11: 'QF-1', 150: 'F', 39: '1', 32: '5', 31: '24550', 14: '5', 151: '10' });
    await api(`/api/orders/${id}/fill`, { fillQty: 10, fillPrice: 24500 });
    const full = await report({ 11: 'QF-1', 150: 'F', 39: '2', 14: '15', 151: '0' });
    assert.equal(field(full, 6), '24516.66666667');
    await api(`/api/orders/${id}/done-for-day`);
    await report({ 11: 'QF-1', 150: '3', 39: '3' });

    // Rejected by the broker.
    const order = (clOrdID: string) =>
      `send 35=D|11=${clOrdID}|453=1|448=JSMITH|447=D|452=11|55=C5TC|167=FUT|200=${maturity(2)}|54=2|60=${formatUtcTimestamp(Date.now())}|38=10|40=2|44=24500|59=0|100=SGX`;
    const accepted = async (clOrdID: string) => {
      qf!.script(order(clOrdID));
      const id = field(await report({ 11: clOrdID, 150: 'A', 39: 'A' }), 37)!;
      await api(`/api/orders/${id}/accept`);
      await report({ 11: clOrdID, 150: '0', 39: '0' });
      return id;
    };
    qf.script(order('QF-2'));
    const rejId = field(await report({ 11: 'QF-2', 150: 'A' }), 37)!;
    await api(`/api/orders/${rejId}/reject`, { reason: 'Outside the client limits' });
    await report({ 11: 'QF-2', 150: '8', 39: '8', 58: 'Outside the client limits' });

    // A cancel request: Pending Cancel, then Canceled; another one refused: OrderCancelReject.
    const cxlId = await accepted('QF-3');
    // An accept with no message sends no Text.
    const plainNew = qf.messages('APP').filter((m) => hasFields(m, { 35: '8', 11: 'QF-3', 150: '0' }));
    assert.equal(plainNew.length, 1);
    assert.equal(field(plainNew[0]!, 58), undefined);
    qf.script(`send 35=F|11=QF-3-X|41=QF-3|37=${cxlId}|55=C5TC|167=FUT|200=${maturity(2)}|54=2|60=${formatUtcTimestamp(Date.now())}|38=10`);
    await report({ 11: 'QF-3-X', 41: 'QF-3', 150: '6', 39: '6' });
    await api(`/api/orders/${cxlId}/cancel-request/confirm`);
    await report({ 11: 'QF-3-X', 41: 'QF-3', 150: '4', 39: '4' });
    const keepId = await accepted('QF-4');
    qf.script(
      `send 35=F|11=QF-4-X|41=QF-4|37=${keepId}|55=C5TC|167=FUT|200=${maturity(2)}|54=2|60=${formatUtcTimestamp(Date.now())}|38=10`,
    );
    await report({ 11: 'QF-4-X', 150: '6' });
    await api(`/api/orders/${keepId}/cancel-request/refuse`, { reason: 'Already working on the exchange' });
    await report({ 35: '9', 11: 'QF-4-X', 41: 'QF-4', 434: '1' });

    // A cancel/replace: Pending Replace, then Replaced; then an OrderStatusRequest answered.
    const rplId = await accepted('QF-5');
    qf.script(
      `send 35=G|11=QF-5-R|41=QF-5|37=${rplId}|55=C5TC|167=FUT|200=${maturity(2)}|54=2|60=${formatUtcTimestamp(Date.now())}|38=20|40=2|44=24600|59=0`,
    );
    await report({ 11: 'QF-5-R', 41: 'QF-5', 150: 'E', 39: 'E' });
    await api(`/api/orders/${rplId}/replace-request/confirm`);
    await report({ 11: 'QF-5-R', 41: 'QF-5', 150: '5', 39: '0', 38: '20', 44: '24600' });
    qf.script(`send 35=H|11=QF-5-R|37=${rplId}|55=C5TC|167=FUT|200=${maturity(2)}|54=2`);
    await report({ 11: 'QF-5-R', 150: 'I', 39: '0' });

    // A message type the desk does not take: BusinessMessageReject, Unsupported Message Type.
    qf.script('send 35=R|131=QR-1|146=1|55=C5TC');
    await report({ 35: 'j', 372: 'R', 380: '3' });

    // A calendar spread as a NewOrderMultileg, with parties.
    qf.script(
      `send 35=AB|11=QF-ML|453=1|448=JSMITH|447=D|452=11|55=C5TC|167=MLEG|54=1|60=${formatUtcTimestamp(Date.now())}|38=3|40=2|44=250|59=0|` +
        `555=2|600=C5TC|609=FUT|610=${maturity(2)}|623=1|624=1|600=C5TC|609=FUT|610=${maturity(3)}|623=1|624=2`,
    );
    const mlAck = await report({ 11: 'QF-ML', 150: 'A' });
    const mlId = field(mlAck, 37)!;
    assert.equal(field(mlAck, 555), '2');
    await api(`/api/orders/${mlId}/accept`);
    await api(`/api/orders/${mlId}/fill`, { fillQty: 3, fillPrice: 26000, legIndex: 0 });
    await report({ 11: 'QF-ML', 150: 'F', 39: '0', 14: '0', 637: '26000' });
    await api(`/api/orders/${mlId}/fill`, { fillQty: 3, fillPrice: 25800, legIndex: 1 });
    const mlDone = await report({ 11: 'QF-ML', 150: 'F', 39: '2', 14: '3' });
    assert.equal(field(mlDone, 6), '200');

    // QuickFIX validated every report against its data dictionary: nothing was rejected.
    assert.deepEqual(
      qf.messages('TX').filter((m) => hasFields(m, { 35: '3' })),
      [],
      'QuickFIX sent a session Reject',
    );
    qf.script('logout\nwait-logout', true);
    await qf.finished();
  });

  test('onboarding: a new connector and its capability made by an administrator, enforced for a QuickFIX client', async () => {
    const admin = await t.login('admin');
    const adminCall = async (method: string, path: string, json: unknown) => {
      const r = await t.api(path, { method, token: admin, json });
      assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
      return ((await r.json()) as { data: { id: number } }).data;
    };
    const connector = await adminCall('POST', '/api/client-connectors', {
      comp_id: 'QF_ONBOARD',
      execution_id_prefix: 'QFO',
      client_name: 'QuickFIX Onboarding',
      start_time: '00:00:00',
      end_time: '23:59:59',
      trading_days: 'M,T,W,T,F,S,S',
      timezone: 'UTC',
    });
    const onboardStore = mkdtempSync(join(tmpdir(), 'qf-onboard-'));
    try {
      qf = new QuickfixPeer({
        binary: build.programs.fixpeer,
        mode: 'initiator',
        port: t.server.ctx.fix.port,
        senderCompID: 'QF_ONBOARD',
        targetCompID: 'FIXDESK',
        storeDir: onboardStore,
        dictionaryPath: build.dictionaryPath,
        heartBtIntSec: 5,
      });
      qf.script('start\nwait-logon');
      await qf.waitForLine((l) => l.startsWith('LOGON'));
      const order = (clOrdID: string, side: string, qty: number) =>
        `send 35=D|11=${clOrdID}|453=1|448=JSMITH|447=D|452=11|55=C5TC|167=FUT|200=${maturity(2)}|54=${side}|60=${formatUtcTimestamp(Date.now())}|38=${qty}|40=2|44=24500|59=0|100=SGX`;

      // No capability yet: refused with the reason.
      qf.script(order('QFO-1', '1', 10));
      await report({ 11: 'QFO-1', 150: '8', 39: '8', 58: 'No trading permission for C5TC' });

      // The capability: all securities, at most 20 lots an order, no short selling. In force at once.
      await adminCall('POST', '/api/client-capabilities', {
        clientconnectors_id: connector.id,
        asset_class: 'FUTURES',
        max_order_qty: '20',
      });
      qf.script(order('QFO-2', '1', 10));
      const id = field(await report({ 11: 'QFO-2', 150: 'A', 39: 'A' }), 37)!;
      await api(`/api/orders/${id}/accept`);
      await api(`/api/orders/${id}/fill`, { fillQty: 10, fillPrice: 24500 });
      await report({ 11: 'QFO-2', 150: 'F', 39: '2', 14: '10' });
      qf.script(order('QFO-3', '1', 25));
      await report({ 11: 'QFO-3', 150: '8', 58: 'Order quantity 25 exceeds the maximum of 20 for C5TC' });
      qf.script(order('QFO-4', '2', 15));
      const short = await report({ 11: 'QFO-4', 150: '8' });
      assert.match(
        field(short, 58)!,
        /^Client is not permitted to sell C5TC \w{3}-\d{2} short: position 10, working sells 0, this order 15 would leave -5$/,
      );
      qf.script(order('QFO-5', '2', 10));
      await report({ 11: 'QFO-5', 150: 'A' });

      assert.deepEqual(
        qf.messages('TX').filter((m) => hasFields(m, { 35: '3' })),
        [],
        'QuickFIX sent a session Reject',
      );
      qf.script('logout\nwait-logout', true);
      await qf.finished();
    } finally {
      rmSync(onboardStore, { recursive: true, force: true });
    }
  });
});
