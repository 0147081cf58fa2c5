// Pre-trade risk and the kill switch with a QuickFIX C++ client: its orders are decided on
// worst-case exposure (three sells from long 10: one acknowledged; three buys against a long limit:
// one acknowledged; 20 sells of 1 sent at once: exactly 10 acknowledged), a replace past the limit is
// refused with an OrderCancelReject, and the kill switch cancels its working orders (Canceled reports
// that QuickFIX validates against the dictionary), refuses its next order and is resumed.
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

const COMP = 'RISK_QF';

describe('QuickFIX client ↔ pre-trade risk and the kill switch', { skip }, () => {
  let build: QuickfixBuild;
  let t: TestServer;
  let broker: string;
  let admin: string;
  let qf: QuickfixPeer | undefined;
  let capId: number;
  const store = mkdtempSync(join(tmpdir(), 'qf-risk-'));

  before(async () => {
    build = buildQuickfix(['fixpeer']);
    t = await startTestServer('pglite');
    [broker, admin] = await Promise.all([t.login('broker'), t.login('admin')]);
    const { rows } = await t.server.ctx.db.query<{ id: number }>(
      `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, max_orders_per_second)
       VALUES ($1, 'RQF', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F,S,S', 1000) RETURNING id`,
      [COMP],
    );
    // The default capability: short selling barred.
    capId = (
      await t.server.ctx.db.query<{ id: number }>(
        `INSERT INTO client_capabilities (clientconnectors_id, asset_class, max_order_qty) VALUES ($1, 'FUTURES', 1000) RETURNING id`,
        [rows[0]!.id],
      )
    ).rows[0]!.id;
  });
  after(async () => {
    qf?.kill();
    await t?.stop();
    rmSync(store, { recursive: true, force: true });
  });

  const api = async (token: string, method: string, path: string, json: unknown = {}) => {
    const r = await t.api(path, { method, token, json });
    const text = await r.text();
    assert.equal(r.status, 200, `${path}: ${text}`);
    return JSON.parse(text) as { data: Record<string, unknown> };
  };
  /** What QuickFIX handed its application, with these fields. */
  const report = async (want: Record<number, string>) =>
    (await qf!.waitForLine((l) => l.startsWith('APP') && hasFields(l.slice(4), want), 10_000)).slice(4);
  const d = (clOrdID: string, side: string, qty: number, month: string) =>
    `send 35=D|11=${clOrdID}|453=1|448=JSMITH|447=D|452=11|55=C5TC|167=FUT|200=${month}|54=${side}|60=${formatUtcTimestamp(Date.now())}|38=${qty}|40=2|44=24500|59=0|100=SGX`;
  /** The first report on each order: its ExecType and Text. */
  const answers = async (ids: readonly string[]) => {
    const out: Array<[string | undefined, string | undefined]> = [];
    for (const id of ids) {
      const r = await report({ 35: '8', 11: id });
      out.push([field(r, 150), field(r, 58)]);
    }
    return out;
  };
  const longTen = async (id: string, month: string) => {
    qf!.script(d(id, '1', 10, month));
    const orderId = field(await report({ 35: '8', 11: id, 150: 'A' }), 37)!;
    await api(broker, 'POST', `/api/orders/${orderId}/accept`);
    await api(broker, 'POST', `/api/orders/${orderId}/fill`, { fillQty: 10, fillPrice: 24500 });
    await report({ 11: id, 150: 'F', 39: '2' });
    return orderId;
  };

  test('worst-case exposure, the replace past a limit, the kill switch', async () => {
    qf = new QuickfixPeer({
      binary: build.programs.fixpeer,
      mode: 'initiator',
      port: t.server.ctx.fix.port,
      senderCompID: COMP,
      targetCompID: 'FIXDESK',
      storeDir: store,
      dictionaryPath: build.dictionaryPath,
      heartBtIntSec: 5,
    });
    qf.script('start\nwait-logon');
    await qf.waitForLine((l) => l.startsWith('LOGON'));

    // Long 10, short selling barred: three sells of 10, one acknowledged.
    const m2 = maturity(2);
    await longTen('QR-L1', m2);
    qf.script(['QR-S1', 'QR-S2', 'QR-S3'].map((id) => d(id, '2', 10, m2)).join('\n'));
    const sells = await answers(['QR-S1', 'QR-S2', 'QR-S3']);
    assert.deepEqual(
      sells.map(([x]) => x),
      ['A', '8', '8'],
    );
    assert.match(
      sells[1]![1]!,
      /^Client is not permitted to sell C5TC \w{3}-\d{2} short: position 10, working sells 10, this order 10 would leave -10$/,
    );

    // A long limit of 15 from long 10: three buys of 5, one acknowledged.
    await api(admin, 'PUT', `/api/client-capabilities/${capId}`, { max_position_long: '15' });
    const m3 = maturity(3);
    await longTen('QR-L2', m3);
    qf.script(['QR-B1', 'QR-B2', 'QR-B3'].map((id) => d(id, '1', 5, m3)).join('\n'));
    const buys = await answers(['QR-B1', 'QR-B2', 'QR-B3']);
    assert.deepEqual(
      buys.map(([x]) => x),
      ['A', '8', '8'],
    );
    assert.match(
      buys[2]![1]!,
      /^Net long position in C5TC \w{3}-\d{2} could reach 20 \(position 10, working buys 5, this order 5\), above the limit of 15$/,
    );

    // 20 sells of 1 sent at once from long 10: exactly 10 acknowledged.
    const m4 = maturity(4);
    await longTen('QR-L3', m4);
    const many = Array.from({ length: 20 }, (_, i) => `QR-M${i}`);
    qf.script(many.map((id) => d(id, '2', 1, m4)).join('\n'));
    const manyAnswers = await answers(many);
    assert.equal(manyAnswers.filter(([x]) => x === 'A').length, 10);
    assert.deepEqual(
      manyAnswers.map(([x]) => x),
      [...Array(10).fill('A'), ...Array(10).fill('8')],
    );

    // A replace raising a working buy past the long limit: OrderCancelReject with the figures.
    const bId = field(await report({ 11: 'QR-B1', 150: 'A' }), 37)!;
    qf.script(
      `send 35=G|11=QR-B1-R|41=QR-B1|37=${bId}|55=C5TC|167=FUT|200=${m3}|54=1|60=${formatUtcTimestamp(Date.now())}|38=6|40=2|44=24500|59=0`,
    );
    const cxlRej = await report({ 35: '9', 11: 'QR-B1-R', 41: 'QR-B1' });
    assert.match(
      field(cxlRej, 58)!,
      /^Net long position in C5TC \w{3}-\d{2} could reach 16 \(position 10, working buys 0, this order 6\), above the limit of 15$/,
    );

    // The kill switch: the working orders canceled at the client, the next order refused, then resumed.
    const stop = await api(broker, 'POST', `/api/client-connectors/${COMP}/stop`, { reason: 'runaway algo' });
    assert.ok(Number(stop.data.canceled_orders) >= 11, JSON.stringify(stop.data));
    await report({ 11: 'QR-B1', 150: '4', 39: '4' });
    await report({ 11: 'QR-M0', 150: '4', 39: '4' });
    qf.script(d('QR-K1', '1', 1, m2));
    assert.deepEqual(await answers(['QR-K1']), [['8', 'Orders from this client are stopped by the desk (kill switch): runaway algo']]);
    await api(broker, 'POST', `/api/client-connectors/${COMP}/resume`, { reason: 'fixed' });
    qf.script(d('QR-K2', '1', 1, m2));
    assert.equal((await answers(['QR-K2']))[0]![0], 'A');
    // QuickFIX validated every message with its dictionary: no session Reject either way.
    assert.equal(qf.lines.filter((l) => /\|35=3\|/.test(l)).length, 0, qf.lines.filter((l) => /\|35=3\|/.test(l)).join('\n'));
  });
});
