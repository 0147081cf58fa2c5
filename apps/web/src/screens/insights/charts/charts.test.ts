import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClientsAnswer, OrderFlowAnswer, TimeToAnswerAnswer } from '@fixdesk/protocol';
import { toCsvText } from '../../../components/export/csv';
import { duration, durationTick, periodLabel, periodText } from './chartParts';
import { clientsView } from './clients';
import { orderFlowView } from './orderFlow';
import { timeToAnswerView } from './timeToAnswer';

const filters = { from: '2026-10-25T00:00:00.000Z', to: '2026-10-26T00:00:00.000Z', tz: 'Europe/London', clients: null, exchange: null };
const point = (period: string, start: string, received: number, filled = 0) => ({
  period,
  start,
  received,
  accepted: 0,
  refused: 0,
  rejected: 0,
  filled,
});

test("order flow: every period of the range on the axis, the totals of the answer, the clock's repeated hour drawn once", () => {
  const answer: OrderFlowAnswer = {
    chart: 'order-flow',
    filters: { ...filters, bucket: 'hour' },
    series: [
      point('2026-10-25T01:00', '2026-10-25T00:00:00Z', 1),
      point('2026-10-25T01:00', '2026-10-25T01:00:00Z', 2, 1),
      point('2026-10-25T09:00', '2026-10-25T09:00:00Z', 4),
    ],
  };
  const view = orderFlowView(answer, ['2026-10-25T00:00', '2026-10-25T01:00', '2026-10-25T02:00', '2026-10-25T09:00']);
  const received = (view.option.series as { name: string; data: number[] }[]).find((s) => s.name === 'Received')!;
  assert.deepEqual(received.data, [0, 3, 0, 4]);
  assert.deepEqual(
    view.summary.map((f) => [f.id, f.value]),
    [
      ['received', '7'],
      ['accepted', '0'],
      ['filled', '1'],
      ['refused', '0'],
      ['rejected', '0'],
    ],
  );
  // The table and the CSV keep both hours as the server answered them.
  assert.equal(view.rows.length, 3);
  assert.equal(view.empty, false);
  assert.equal(orderFlowView({ ...answer, series: [] }, []).empty, true);
});

test('clients: the CSV is the table, and a name a spreadsheet would run is written as text', () => {
  const answer: ClientsAnswer = {
    chart: 'clients',
    filters: { ...filters, bucket: 'day' },
    deskLots: '10',
    clients: [
      {
        client: 'EVIL_1',
        clientName: '=HYPERLINK("http://x","y")',
        orders: 3,
        refused: 1,
        rejected: 1,
        orderedQty: '10',
        filledQty: '5',
        fillRatio: 0.5,
        reasons: [
          { source: 'refused', reason: 1, count: 1 },
          { source: 'rejected', reason: 3, count: 1 },
        ],
        lots: '5',
        volumeShare: 0.5,
      },
    ],
  };
  const view = clientsView(answer);
  assert.deepEqual(
    view.legend.map((l) => l.name),
    ['Orders', 'Fill ratio', 'Refused: Unknown symbol (1)', 'Rejected: Order exceeds limit (3)', 'Share of volume'],
  );
  const csv = toCsvText(view.columns, view.rows).split('\r\n');
  assert.equal(
    csv[0],
    'Client,Name,Orders,Ordered,Filled,Fill ratio,Refused,Rejected,Lots traded,Share of volume,Refusals and rejects by reason',
  );
  assert.ok(csv[1]!.startsWith(`EVIL_1,"'=HYPERLINK(""http://x"",""y"")",3,10,5,0.5,1,1,5,0.5,`), csv[1]);
});

test('time to answer: percentiles in the table in ms, on screen as the desk reads them', () => {
  const times = (count: number, p50: number | null) => ({ count, p50Ms: p50, p90Ms: p50, p99Ms: p50 });
  const answer: TimeToAnswerAnswer = {
    chart: 'time-to-answer',
    filters: { ...filters, bucket: 'day' },
    answer: {
      overall: times(2, 1500),
      waiting: 1,
      byPeriod: [{ period: '2026-10-25', start: '', ...times(2, 1500) }],
      byUser: [{ user: 'broker', ...times(2, 1500) }],
    },
    firstFill: { overall: times(0, null), waiting: 2, byPeriod: [], byUser: [] },
  };
  const view = timeToAnswerView(answer, ['2026-10-25']);
  assert.deepEqual(
    view.summary.map((f) => f.value),
    ['1.5 s · 1.5 s · 1.5 s', '2 · 1', '— · — · —', '0 · 2'],
  );
  assert.deepEqual(
    view.rows.map((r) => [r.measure, r.by, r.key]),
    [
      ['Answer', 'Range', 'All'],
      ['Answer', 'Period', '2026-10-25'],
      ['Answer', 'Broker user', 'broker'],
      ['First fill', 'Range', 'All'],
    ],
  );
  assert.match(toCsvText(view.columns, view.rows).split('\r\n')[1]!, /^Answer,Range,All,2,1500,1500,1500$/);
});

test('durations and periods in words', () => {
  assert.deepEqual([850, 12_400, 78_000, 7_800_000, null].map(duration), ['850 ms', '12.4 s', '1m 18s', '2h 10m', '—']);
  assert.deepEqual([0, 500, 20_000, 100_000, 120_000, 5_400_000].map(durationTick), ['0', '500 ms', '20 s', '1m 40s', '2 min', '1.5 h']);
  assert.equal(periodLabel('2026-11-29T14:00'), '14:00');
  assert.equal(periodLabel('2026-11-29'), '29 Nov');
  assert.equal(periodText('2026-11-29T23:00'), '2026-11-29 23:00–00:00');
});
