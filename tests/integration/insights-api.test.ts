// Desk Insights (issue 31): each chart's call on both databases, against figures this test computes
// itself from the data it seeded (orders over several days and clients, their actions and reports,
// refusals, FIX sessions and session messages), for the whole range, by hour, in another time zone,
// filtered by client and by exchange, and for an empty range; bad filters; who may read. The data is
// rolled up (docs/adr/0019) before the calls, so they read the rollups; percentiles come from
// histograms, within HISTOGRAM_RELATIVE_ERROR of the exact ones (insights-rollup.test.ts compares the
// rollups with the raw rows, and reads a tail left unfolded).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HISTOGRAM_RELATIVE_ERROR, rollUpInsightsFully } from '@fixdesk/db';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import {
  ClientsAnswerSchema,
  ContractsAnswerSchema,
  FixSessionsAnswerSchema,
  OrderFlowAnswerSchema,
  TimeToAnswerAnswerSchema,
  type ClientsAnswer,
  type ContractsAnswer,
  type FixSessionsAnswer,
  type OrderFlowAnswer,
  type TimeToAnswerAnswer,
} from '@fixdesk/protocol';
import type { z } from 'zod';
import {
  A,
  B,
  DC,
  ORDERS,
  bucketOf,
  expectedClients,
  expectedContracts,
  expectedOrderFlow,
  expectedSessions,
  expectedTimes,
  loadSecurities,
  periodOf,
  seedInsights,
  type Filters,
} from '../support/insights-data';
import { startTestServer, type TestServer } from '../support/server';

// ── the calls ──

function query(f: Filters): string {
  const q = new URLSearchParams({ from: f.from, to: f.to });
  if (f.tz) q.set('tz', f.tz);
  if (f.clients) q.set('client', f.clients.join(','));
  if (f.exchange) q.set('exchange', f.exchange);
  if (f.bucket) q.set('bucket', f.bucket);
  return q.toString();
}

const close = (actual: number | null, expected: number | null, what: string) => {
  if (expected === null) return assert.equal(actual, null, what);
  assert.ok(
    actual !== null && Math.abs(actual - expected) < 1e-6 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} against ${expected}`,
  );
};

/** A percentile read from the rollups' histograms: within their stated relative error of the exact one. */
const nearPercentile = (actual: number | null, expected: number | null, what: string) => {
  if (expected === null) return assert.equal(actual, null, what);
  assert.ok(
    actual !== null && Math.abs(actual - expected) <= HISTOGRAM_RELATIVE_ERROR * Math.abs(expected) + 0.001,
    `${what}: ${actual} against ${expected} (allowed ${(HISTOGRAM_RELATIVE_ERROR * 100).toFixed(2)}%)`,
  );
};

const RANGE: Filters = { from: '2026-11-01T00:00:00Z', to: '2026-11-05T00:00:00Z' };
/** The 3rd in Singapore: 16:00 UTC on the 2nd to 16:00 UTC on the 3rd. */
const SGT_DAY: Filters = { from: '2026-11-02T16:00:00Z', to: '2026-11-03T16:00:00Z', tz: 'Asia/Singapore', bucket: 'day' };
const UTC_DAY_2: Filters = { from: '2026-11-02T00:00:00Z', to: '2026-11-03T00:00:00Z' };
const EMPTY: Filters = { from: '2025-01-01T00:00:00Z', to: '2025-01-31T00:00:00Z' };
const CASES: Record<string, Filters> = {
  'the whole range by day (UTC)': RANGE,
  'one UTC day by hour': UTC_DAY_2,
  'the whole range by day in Singapore': { ...RANGE, tz: 'Asia/Singapore' },
  'a Singapore day': SGT_DAY,
  'one client': { ...RANGE, clients: [B] },
  'both clients named, by comma': { ...RANGE, clients: [A, B] },
  'one exchange': { ...RANGE, exchange: 'SGX' },
  'a client and an exchange': { ...RANGE, clients: [A], exchange: 'EEX' },
  'an empty range': EMPTY,
};

const ANSWER_SCHEMAS: Record<string, z.ZodType> = {
  'order-flow': OrderFlowAnswerSchema,
  'time-to-answer': TimeToAnswerAnswerSchema,
  clients: ClientsAnswerSchema,
  contracts: ContractsAnswerSchema,
  'fix-sessions': FixSessionsAnswerSchema,
};

for (const kind of TEST_DB_KINDS) {
  describe(`desk insights API on ${kind}`, () => {
    let t: TestServer;
    let token: string;
    /** One chart's answer, checked against its schema (strictly: no field the schema does not declare). */
    const get = async <T>(chart: string, f: Filters, as = token) => {
      const res = await t.api(`/api/insights/${chart}?${query(f)}`, { token: as });
      const body = (await res.json()) as T;
      assert.equal(res.status, 200, `${chart}: ${JSON.stringify(body)}`);
      const schema = ANSWER_SCHEMAS[chart];
      assert.ok(schema, chart);
      assert.deepEqual(schema.parse(body), body, `${chart}: the answer is its schema's`);
      return body;
    };

    before(async () => {
      t = await startTestServer(kind);
      token = await t.login('viewer');
      await seedInsights(t.database.db);
      await loadSecurities(t.database.db);
      await rollUpInsightsFully(t.database.db, { lagMs: 0 });
    });
    after(async () => {
      await t?.stop();
    });

    for (const [name, f] of Object.entries(CASES)) {
      it(`order flow: ${name}`, async () => {
        const body = await get<OrderFlowAnswer>('order-flow', f);
        assert.equal(body.filters.bucket, bucketOf(f));
        assert.deepEqual(
          body.series.map(({ start: _s, ...p }) => p),
          expectedOrderFlow(f),
        );
        for (const p of body.series) assert.equal(periodOf(p.start, f.tz ?? 'UTC', bucketOf(f)), p.period, 'a period starts in itself');
      });

      it(`time to answer: ${name}`, async () => {
        const body = await get<TimeToAnswerAnswer>('time-to-answer', f);
        const expected = expectedTimes(f);
        for (const m of ['answer', 'firstFill'] as const) {
          const compare = (
            actual: { count: number; p50Ms: number | null; p90Ms: number | null; p99Ms: number | null },
            exp: typeof actual,
            what: string,
          ) => {
            assert.equal(actual.count, exp.count, `${what} count`);
            nearPercentile(actual.p50Ms, exp.p50Ms, `${what} p50`);
            nearPercentile(actual.p90Ms, exp.p90Ms, `${what} p90`);
            nearPercentile(actual.p99Ms, exp.p99Ms, `${what} p99`);
          };
          compare(body[m].overall, expected[m].overall, `${m} overall`);
          assert.equal(body[m].waiting, expected[m].waiting, `${m} waiting`);
          assert.deepEqual(
            body[m].byPeriod.map((p) => p.period),
            expected[m].byPeriod.map((p) => p.key),
          );
          body[m].byPeriod.forEach((p, i) => compare(p, expected[m].byPeriod[i]!, `${m} ${p.period}`));
          assert.deepEqual(
            body[m].byUser.map((p) => p.user),
            expected[m].byUser.map((p) => p.key),
          );
          body[m].byUser.forEach((p, i) => compare(p, expected[m].byUser[i]!, `${m} ${p.user}`));
        }
      });

      it(`clients: ${name}`, async () => {
        const body = await get<ClientsAnswer>('clients', f);
        const expected = expectedClients(f);
        close(Number(body.deskLots), expected.deskLots, 'desk lots');
        assert.deepEqual(
          body.clients.map((c) => c.client),
          expected.clients.map((c) => c.client),
        );
        body.clients.forEach((c, i) => {
          const e = expected.clients[i]!;
          assert.equal(c.orders, e.orders, `${c.client} orders`);
          assert.equal(c.refused, e.refused, `${c.client} refused`);
          assert.equal(c.rejected, e.rejected, `${c.client} rejected`);
          close(Number(c.orderedQty), e.ordered, `${c.client} ordered`);
          close(Number(c.filledQty), e.filled, `${c.client} filled`);
          close(c.fillRatio, e.fillRatio, `${c.client} fill ratio`);
          close(Number(c.lots), e.lots, `${c.client} lots`);
          close(c.volumeShare, e.volumeShare, `${c.client} share`);
          assert.deepEqual(
            c.reasons.map((r) => [`${r.source} ${r.reason}`, r.count]).sort(([a], [b]) => String(a).localeCompare(String(b))),
            e.reasons,
          );
        });
      });

      it(`contracts: ${name}`, async () => {
        const body = await get<ContractsAnswer>('contracts', f);
        const expected = expectedContracts(f);
        assert.deepEqual(
          body.contracts.map((c) => [c.symbol, c.maturityMonthYear, Number(c.lots), c.fills, c.currency]),
          expected.map((c) => [c.symbol, c.month, c.lots, c.fills, c.currency]),
        );
        body.contracts.forEach((c, i) => close(Number(c.notional), expected[i]!.notional, `${c.symbol} ${c.maturityMonthYear} notional`));
      });

      it(`FIX sessions: ${name}`, async () => {
        const body = await get<FixSessionsAnswer>('fix-sessions', f);
        assert.equal(body.filters.bucket, 'day');
        assert.deepEqual(
          body.series.map(({ start: _s, ...p }) => p),
          expectedSessions(f),
        );
      });
    }

    it('counts an order at 23:30 UTC on the next day in Singapore, and a Singapore day is not a UTC day', async () => {
      const o3 = ORDERS.find((o) => o.key === 'o3')!;
      const utc = await get<OrderFlowAnswer>('order-flow', { ...RANGE });
      const sgt = await get<OrderFlowAnswer>('order-flow', { ...RANGE, tz: 'Asia/Singapore' });
      const utcDay = (p: string) => utc.series.find((x) => x.period === p);
      const sgtDay = (p: string) => sgt.series.find((x) => x.period === p);
      // o3 arrives on the 2nd in UTC, on the 3rd in Singapore; so do its accept and fill.
      assert.equal(periodOf(o3.at, 'UTC', 'day'), '2026-11-02');
      assert.equal(periodOf(o3.at, 'Asia/Singapore', 'day'), '2026-11-03');
      assert.equal(utcDay('2026-11-02')!.filled, 2);
      assert.equal(sgtDay('2026-11-02')!.filled, 1);
      assert.equal(sgtDay('2026-11-03')!.start, '2026-11-02T16:00:00.000Z');
      assert.equal(utcDay('2026-11-03')!.start, '2026-11-03T00:00:00.000Z');
      // The same orders in total either way.
      const total = (s: OrderFlowAnswer) => s.series.reduce((n, p) => n + p.received, 0);
      assert.equal(total(utc), total(sgt));
      // The Singapore day asked for alone holds o3.
      const day = await get<OrderFlowAnswer>('order-flow', SGT_DAY);
      assert.deepEqual(
        day.series.map((p) => p.period),
        ['2026-11-03'],
      );
      assert.ok(day.series[0]!.received >= 1);
      const hours = await get<OrderFlowAnswer>('order-flow', { from: SGT_DAY.from, to: SGT_DAY.to, tz: 'Asia/Singapore' });
      assert.equal(hours.filters.bucket, 'hour');
      assert.equal(hours.series[0]!.period, '2026-11-03T07:00', 'o3 at 07:30 Singapore time');
      assert.equal(hours.series[0]!.start, '2026-11-02T23:00:00.000Z');
    });

    it('counts periods in a time zone whose clocks go back: two hours named 01:00, a day of 25 hours', async () => {
      const london: Filters = { from: '2026-10-24T23:00:00Z', to: '2026-10-26T00:00:00Z', tz: 'Europe/London' };
      const hours = await get<OrderFlowAnswer>('order-flow', london);
      assert.equal(hours.filters.bucket, 'hour', '25 hours are drawn by hour');
      assert.deepEqual(
        hours.series.map((p) => [p.period, p.start, p.received]),
        [
          ['2026-10-25T01:00', '2026-10-25T00:00:00.000Z', 1],
          ['2026-10-25T01:00', '2026-10-25T01:00:00.000Z', 1],
        ],
      );
      const day = await get<OrderFlowAnswer>('order-flow', { ...london, bucket: 'day' });
      assert.deepEqual(
        day.series.map((p) => [p.period, p.start, p.received]),
        [['2026-10-25', '2026-10-24T23:00:00.000Z', 2]],
      );
    });

    it('leaves the drop copy connector out and counts a multileg order once', async () => {
      // The clients named by repeating the parameter.
      const res = await t.api(`/api/insights/clients?${query(RANGE)}&client=${A}&client=${B}&client=${DC}`, { token });
      const clients = (await res.json()) as ClientsAnswer;
      assert.deepEqual(clients.filters.clients, [A, B, DC]);
      assert.deepEqual(clients.clients.map((c) => c.client).sort(), [A, B].sort());
      const flow = await get<OrderFlowAnswer>('order-flow', { from: '2026-11-03T00:00:00Z', to: '2026-11-04T00:00:00Z', bucket: 'day' });
      // The 3rd: o4, o5, o6 (a spread of two legs: one order) and two refusals; not the drop copy's order.
      assert.equal(flow.series[0]!.received, 5);
      const contracts = await get<ContractsAnswer>('contracts', { from: '2026-11-03T00:00:00Z', to: '2026-11-04T00:00:00Z' });
      // o6's legs on their own contracts; o5's outright.
      assert.deepEqual(contracts.contracts.map((c) => `${c.symbol} ${c.maturityMonthYear}`).sort(), [
        'C5TC 202612',
        'P4TC 202612',
        'TTF 202701',
      ]);
    });

    it('answers an empty range with empty series', async () => {
      assert.deepEqual((await get<OrderFlowAnswer>('order-flow', EMPTY)).series, []);
      assert.deepEqual((await get<FixSessionsAnswer>('fix-sessions', EMPTY)).series, []);
      assert.deepEqual((await get<ContractsAnswer>('contracts', EMPTY)).contracts, []);
      const clients = await get<ClientsAnswer>('clients', EMPTY);
      assert.deepEqual([clients.clients, clients.deskLots], [[], '0']);
      const times = await get<TimeToAnswerAnswer>('time-to-answer', EMPTY);
      assert.deepEqual(times.answer, {
        overall: { count: 0, p50Ms: null, p90Ms: null, p99Ms: null },
        waiting: 0,
        byPeriod: [],
        byUser: [],
      });
    });

    it('refuses bad filters with a 400 naming the field', async () => {
      const bad: [string, string][] = [
        ['to=2026-11-02T00:00:00Z', 'from'],
        ['from=2026-11-01T00:00:00Z', 'to'],
        ['from=2026-11-01&to=2026-11-02T00:00:00Z', 'from'],
        ['from=yesterday&to=2026-11-02T00:00:00Z', 'from'],
        ['from=2026-11-03T00:00:00Z&to=2026-11-02T00:00:00Z', 'to'],
        ['from=2024-01-01T00:00:00Z&to=2026-11-02T00:00:00Z', 'to'],
        ['from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&tz=Mars/Olympus', 'tz'],
        ['from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&tz=', 'tz'],
        ['from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&client=A%20B', 'client'],
        ['from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&exchange=', 'exchange'],
        ['from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&bucket=week', 'bucket'],
        ['from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&symbol=C5TC', 'symbol'],
      ];
      for (const chart of ['order-flow', 'time-to-answer', 'clients', 'contracts', 'fix-sessions']) {
        for (const [q, field] of bad) {
          const res = await t.api(`/api/insights/${chart}?${q}`, { token });
          const body = (await res.json()) as { field?: string; message: string };
          assert.equal(res.status, 400, `${chart}?${q}`);
          assert.match(String(body.field), new RegExp(`^${field}`), `${chart}?${q}: ${body.message}`);
        }
      }
      // Named in words.
      const tz = await t.api(`/api/insights/order-flow?${query(RANGE)}&tz=Mars/Olympus`, { token });
      assert.match(((await tz.json()) as { message: string }).message, /^Time zone must be an IANA time zone name/);
      const client = await t.api(`/api/insights/clients?${query(RANGE)}&client=${A},A%20B`, { token });
      assert.deepEqual(await client.json(), {
        success: false,
        message: 'Client must be comp IDs (up to 64 printable characters, no spaces), separated by commas',
        error: 'Client must be comp IDs (up to 64 printable characters, no spaces), separated by commas',
        field: 'client',
        issues: [{ path: 'client', message: 'must be comp IDs (up to 64 printable characters, no spaces), separated by commas' }],
      });
      const unknown = await t.api(`/api/insights/volume?${query(RANGE)}`, { token });
      assert.equal(unknown.status, 404);
    });

    it('lets every signed-in role read each chart, and no one without a session', async () => {
      const tokens = { viewer: token, broker: await t.login('broker'), admin: await t.login('admin') };
      for (const chart of ['order-flow', 'time-to-answer', 'clients', 'contracts', 'fix-sessions']) {
        const answers = new Set<string>();
        for (const as of Object.values(tokens)) answers.add(JSON.stringify(await get(chart, RANGE, as)));
        assert.equal(answers.size, 1, `${chart}: the same answer for every role`);
        const anonymous = await t.api(`/api/insights/${chart}?${query(RANGE)}`);
        assert.equal(anonymous.status, 401);
        const post = await t.api(`/api/insights/${chart}?${query(RANGE)}`, { method: 'POST', token: tokens.admin, json: {} });
        assert.equal(post.status, 404, 'read-only: nothing to post');
      }
    });
  });
}
