// The FIX Messages audit (spec 000 §2 "FIX Messages audit screen", §3 "FIX message record", §7 calls):
// GET /api/fix-messages with its filters and GET /api/fix-messages/export, against real sessions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

interface FixMessageRecord {
  id: number;
  timestamp: string;
  transacttime: string;
  direction: 'TX' | 'RX';
  msgtype: string;
  msgseqnum: number;
  sender_comp_id: string;
  target_comp_id: string;
  clordid: string | null;
  brokerorderid: string | null;
  poss_dup: boolean;
  raw_fix: string;
}

const RECORD_FIELDS = [
  'brokerorderid',
  'clordid',
  'direction',
  'id',
  'msgseqnum',
  'msgtype',
  'poss_dup',
  'raw_fix',
  'sender_comp_id',
  'target_comp_id',
  'timestamp',
  'transacttime',
];
const SESSION_TYPES = ['0', '1', '2', '3', '4', '5', 'A'];

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

for (const kind of TEST_DB_KINDS) {
  describe(`FIX message audit API on ${kind}`, () => {
    let t: TestServer;
    let viewer: string;
    let sgx: TestFixClient;
    let eex: TestFixClient;
    let dSeq = 0;
    let ackSeq = 0;
    let brokerOrderId = '';
    let beforeOrder = '';

    const list = async (query: string, path = '/api/fix-messages'): Promise<FixMessageRecord[]> => {
      const r = await t.api(`${path}?${query}`, { token: viewer });
      assert.equal(r.status, 200, `${path}?${query}: ${await r.clone().text()}`);
      const body = (await r.json()) as { success: boolean; messages: FixMessageRecord[]; data: FixMessageRecord[] };
      assert.equal(body.success, true);
      assert.deepEqual(body.data, body.messages);
      return body.messages;
    };

    before(async () => {
      t = await startTestServer(kind);
      viewer = await t.login('viewer');
      sgx = new TestFixClient('SGX_CLIENT_1');
      await sgx.connect(t.server.ctx.fix.port);
      // A session with a 1 s heartbeat, so the log holds heartbeats both ways (the connector must allow it).
      const admin = await t.login('admin');
      const allowed = await t.api('/api/client-connectors/EEX_CLIENT_1', { method: 'PUT', token: admin, json: { heartbeat_min_sec: 1 } });
      assert.equal(allowed.status, 200, await allowed.text());
      eex = new TestFixClient('EEX_CLIENT_1');
      await eex.connect(t.server.ctx.fix.port, { heartBtIntSec: 1 });
      await new Promise((r) => setTimeout(r, 10));
      beforeOrder = new Date().toISOString();
      await new Promise((r) => setTimeout(r, 10));
      dSeq = await sgx.send('D', newOrderSingle('AUD-1'));
      const ack = await sgx.waitForReport('AUD-1', (m) => m.get(150) === 'A');
      ackSeq = ack.seq;
      brokerOrderId = ack.get(37)!;
      await new Promise((r) => setTimeout(r, 2500));
      await eex.stop();
    });
    after(async () => {
      await sgx?.stop();
      await eex?.stop();
      await t?.stop();
    });

    it("records an order's D and its Pending New with direction, type, number, comp ids, ClOrdID and broker order id", async () => {
      const msgs = await list('clordid=AUD-1');
      assert.equal(msgs.length, 2);
      // Newest first by the time each crossed the wire: the Pending New, then the D it answers (whose
      // row is written once it was processed, after its answer's, but carries its arrival time).
      assert.deepEqual(
        msgs.map((m) => m.direction),
        ['TX', 'RX'],
      );
      const [pendingNew, d] = msgs as [(typeof msgs)[number], (typeof msgs)[number]];
      assert.ok(
        Date.parse(d.timestamp) <= Date.parse(pendingNew.timestamp),
        `D received ${d.timestamp}, Pending New sent ${pendingNew.timestamp}`,
      );
      assert.deepEqual(Object.keys(d).sort(), RECORD_FIELDS);
      assert.deepEqual(
        [d.direction, d.msgtype, d.msgseqnum, d.sender_comp_id, d.target_comp_id, d.clordid],
        ['RX', 'D', dSeq, 'SGX_CLIENT_1', 'FIXDESK', 'AUD-1'],
      );
      assert.deepEqual(
        [
          pendingNew.direction,
          pendingNew.msgtype,
          pendingNew.msgseqnum,
          pendingNew.sender_comp_id,
          pendingNew.target_comp_id,
          pendingNew.clordid,
          pendingNew.brokerorderid,
        ],
        ['TX', '8', ackSeq, 'FIXDESK', 'SGX_CLIENT_1', 'AUD-1', brokerOrderId],
      );
      assert.match(d.raw_fix, /^8=FIX\.4\.4\x019=\d+\x0135=D\x01/);
      assert.ok(d.raw_fix.includes(`\x0134=${dSeq}\x01`) && d.raw_fix.includes('\x0111=AUD-1\x01'));
      assert.ok(pendingNew.raw_fix.includes(`\x0137=${brokerOrderId}\x01`) && pendingNew.raw_fix.includes('\x01150=A\x01'));
      assert.ok(!Number.isNaN(Date.parse(d.timestamp)) && !Number.isNaN(Date.parse(d.transacttime)));
      // The client's D cannot carry the broker's id; its record names the order it created all the same.
      assert.equal(d.brokerorderid, brokerOrderId);
      const byBrokerId = await list(`brokerorderid=${brokerOrderId}`);
      assert.deepEqual(
        byBrokerId.map((m) => m.id).sort((a, b) => a - b),
        [d.id, pendingNew.id].sort((a, b) => a - b),
      );
    });

    it('hides heartbeats by default and shows them with ignoreHeartbeats=false', async () => {
      const byDefault = await list('compId=EEX_CLIENT_1');
      assert.ok(byDefault.length > 0);
      assert.ok(byDefault.every((m) => m.msgtype !== '0'));
      assert.ok(
        byDefault.some((m) => m.msgtype === 'A'),
        'session messages shown by default',
      );
      const withHeartbeats = await list('compId=EEX_CLIENT_1&ignoreHeartbeats=false');
      const hbs = withHeartbeats.filter((m) => m.msgtype === '0');
      assert.ok(hbs.some((m) => m.direction === 'TX') && hbs.some((m) => m.direction === 'RX'), 'heartbeats both ways');
      assert.equal(withHeartbeats.length, byDefault.length + hbs.length);
      const explicit = await list('compId=EEX_CLIENT_1&ignoreHeartbeats=true');
      assert.deepEqual(
        explicit.map((m) => m.id),
        byDefault.map((m) => m.id),
      );
    });

    it('hides every session-level message with ignoreSessionMessages=true', async () => {
      const all = await list('ignoreHeartbeats=false');
      assert.ok(all.some((m) => m.msgtype === 'A') && all.some((m) => m.msgtype === '5'));
      const app = await list('ignoreHeartbeats=false&ignoreSessionMessages=true');
      assert.ok(app.length > 0);
      assert.ok(
        app.every((m) => !SESSION_TYPES.includes(m.msgtype)),
        JSON.stringify(app.map((m) => m.msgtype)),
      );
      assert.deepEqual(
        app.map((m) => m.id),
        all.filter((m) => !SESSION_TYPES.includes(m.msgtype)).map((m) => m.id),
      );
      assert.deepEqual(
        (await list('ignoreSessionMessages=false')).map((m) => m.id),
        (await list('')).map((m) => m.id),
      );
    });

    it('filters by start and end (a bare end date includes its whole day) and refuses a bad date', async () => {
      const all = await list('');
      assert.deepEqual(
        (await list(`start=${day(0)}&end=${day(0)}`)).map((m) => m.id),
        all.map((m) => m.id),
      );
      // A day's first page is read through the time index and sorted: still the newest rows by id.
      assert.deepEqual(
        (await list(`start=${day(0)}&end=${day(0)}&limit=2`)).map((m) => m.id),
        (await list('limit=2')).map((m) => m.id),
      );
      assert.deepEqual(await list(`start=${day(1)}`), []);
      assert.deepEqual(await list(`end=${day(-1)}`), []);
      const since = await list(`start=${encodeURIComponent(beforeOrder)}`);
      assert.ok(since.some((m) => m.clordid === 'AUD-1'));
      assert.ok(!since.some((m) => m.msgtype === 'A' && m.sender_comp_id === 'SGX_CLIENT_1'), 'the earlier Logon is before start');
      const until = await list(`end=${encodeURIComponent(beforeOrder)}`);
      assert.ok(!until.some((m) => m.clordid === 'AUD-1'));
      assert.ok(until.some((m) => m.msgtype === 'A'));
      const bad = await t.api('/api/fix-messages?start=yesterday', { token: viewer });
      assert.equal(bad.status, 400);
      const body = (await bad.json()) as { field: string; message: string };
      assert.equal(body.field, 'start');
      assert.match(body.message, /must be a date \(YYYY-MM-DD\)/);
    });

    it('pages with beforeId through messages stored in the same microsecond, none skipped; refuses an id beyond range', async () => {
      // One flush writes many rows with one time: a page boundary inside them must lose none.
      await t.database.db.query(
        `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, store_epoch, direction, msg_seq_num, msg_type, poss_dup, sending_time, raw_fix, created_at)
         SELECT 'FIX.4.4', 'FIXDESK', 'PAGING', 1, 'TX', g, '8', false, now(), '8=FIX.4.4', now() FROM generate_series(1, 5) g`,
      );
      const all = await list('compId=PAGING');
      assert.equal(all.length, 5);
      assert.deepEqual(
        all.map((m) => m.msgseqnum),
        [5, 4, 3, 2, 1],
        'the same time: by id, newest first',
      );
      assert.deepEqual(
        (await list(`compId=PAGING&beforeId=${all[1]!.id}`)).map((m) => m.msgseqnum),
        [3, 2, 1],
      );
      // Pages follow each other without a gap or an overlap.
      const first = await list('limit=3');
      const next = await list(`limit=3&beforeId=${Math.min(...first.map((m) => m.id))}`);
      assert.ok(Math.max(...next.map((m) => m.id)) < Math.min(...first.map((m) => m.id)));
      assert.deepEqual(
        (await list(`compId=PAGING&limit=2&beforeId=${all[1]!.id}`)).map((m) => m.msgseqnum),
        [3, 2],
      );
      assert.equal((await t.api('/api/fix-messages?beforeId=9223372036854775808', { token: viewer })).status, 400);
    });

    it('filters by direction, message type, comp id and limit, newest first, and refuses unknown parameters', async () => {
      const rx = await list('direction=RX');
      assert.ok(rx.length > 0 && rx.every((m) => m.direction === 'RX'));
      const reports = await list('msgType=8');
      assert.ok(reports.length > 0 && reports.every((m) => m.msgtype === '8'));
      const eexOnly = await list('compId=EEX_CLIENT_1&ignoreHeartbeats=false');
      assert.ok(eexOnly.every((m) => m.sender_comp_id === 'EEX_CLIENT_1' || m.target_comp_id === 'EEX_CLIENT_1'));
      const all = await list('');
      // Newest first by time (the times are stored to the microsecond, shown to the millisecond).
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [all[i - 1]!, all[i]!];
        assert.ok(Date.parse(a.timestamp) >= Date.parse(b.timestamp), `${a.id} ${a.timestamp} before ${b.id} ${b.timestamp}`);
      }
      // A page is the newest rows by id, listed by time; beforeId continues below the given id.
      const ids = all.map((m) => m.id).sort((a, b) => b - a);
      assert.deepEqual(
        (await list('limit=2')).map((m) => m.id).sort((a, b) => b - a),
        ids.slice(0, 2),
      );
      const below = ids[1]!;
      assert.deepEqual(
        (await list(`beforeId=${below}`)).map((m) => m.id),
        all.filter((m) => m.id < below).map((m) => m.id),
      );
      assert.equal((await t.api('/api/fix-messages?colour=red', { token: viewer })).status, 400);
      assert.equal((await t.api('/api/fix-messages?direction=UP', { token: viewer })).status, 400);
      assert.equal((await t.api('/api/fix-messages')).status, 401);
    });

    it('exports with both dates required, as JSON, with the filters applied', async () => {
      for (const q of ['', `start=${day(0)}`, `end=${day(0)}`]) {
        const r = await t.api(`/api/fix-messages/export?${q}`, { token: viewer });
        assert.equal(r.status, 400, q);
        assert.match(((await r.json()) as { message: string }).message, /start and end dates are required/i);
      }
      const r = await t.api(`/api/fix-messages/export?start=${day(0)}&end=${day(0)}`, { token: viewer });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      const exported = ((await r.json()) as { messages: FixMessageRecord[] }).messages;
      assert.ok(exported.length > 0);
      for (const m of exported) assert.deepEqual(Object.keys(m).sort(), RECORD_FIELDS);
      // Heartbeats are left out of an export by default (spec 000 §9).
      assert.ok(exported.every((m) => m.msgtype !== '0'));
      assert.deepEqual(
        exported.map((m) => m.id),
        (await list('')).map((m) => m.id),
      );
      const withHb = await list(`start=${day(0)}&end=${day(0)}&ignoreHeartbeats=false`, '/api/fix-messages/export');
      assert.ok(withHb.some((m) => m.msgtype === '0'));
      const appOnly = await list(
        `start=${day(0)}&end=${day(0)}&ignoreHeartbeats=true&ignoreSessionMessages=true`,
        '/api/fix-messages/export',
      );
      assert.ok(appOnly.length > 0 && appOnly.every((m) => !SESSION_TYPES.includes(m.msgtype)));
      assert.deepEqual(await list(`start=${day(-3)}&end=${day(-1)}`, '/api/fix-messages/export'), []);
      assert.equal((await t.api(`/api/fix-messages/export?start=${day(0)}&end=${day(0)}`)).status, 401);
    });
  });
}
