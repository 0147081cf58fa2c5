import type { AnswerTimes, AnswerTimesMeasure, TimeToAnswerAnswer } from '@fixdesk/protocol';
import type { BarSeriesOption, LineSeriesOption } from '../echarts';
import {
  categoryAxis,
  count,
  duration,
  durationTick,
  gridTitle,
  periodLabel,
  periodText,
  TEXT_STYLE,
  tipLine,
  tipTitle,
  tooltip,
  valueAxis,
  type ChartView,
  type InsightColumn,
} from './chartParts';

/** One line of the table: a measure's percentiles overall, for one period, or for one broker user. */
export interface AnswerTimesRow extends AnswerTimes {
  measure: 'Answer' | 'First fill';
  by: 'Range' | 'Period' | 'Broker user';
  key: string;
}

const PERCENTILES = [
  { key: 'p50Ms', label: 'p50' },
  { key: 'p90Ms', label: 'p90' },
  { key: 'p99Ms', label: 'p99' },
] as const;
/** Answer in the desk's blues, first fill in greens; p50 darkest. */
const COLOURS: Record<AnswerTimesRow['measure'], readonly string[]> = {
  Answer: ['#0b4cb1', '#4c83e3', '#a5c2f2'],
  'First fill': ['#2b8a3e', '#51cf66', '#b2f2bb'],
};
const MEASURES: readonly { key: 'answer' | 'firstFill'; name: AnswerTimesRow['measure'] }[] = [
  { key: 'answer', name: 'Answer' },
  { key: 'firstFill', name: 'First fill' },
];
const seriesName = (m: AnswerTimesRow['measure'], p: string) => `${m} ${p}`;

const ms = (v: number | null) => (v === null ? null : Math.round(v));
const columns: InsightColumn<AnswerTimesRow>[] = [
  { id: 'measure', header: 'Measure', value: (r) => r.measure, width: 100 },
  { id: 'by', header: 'By', value: (r) => r.by, width: 110 },
  { id: 'key', header: 'Period or user', value: (r) => r.key, format: (r) => (r.by === 'Period' ? periodText(r.key) : r.key), width: 170 },
  { id: 'count', header: 'Orders', value: (r) => r.count, format: (r) => count(r.count), width: 80, numeric: true },
  ...PERCENTILES.map((p): InsightColumn<AnswerTimesRow> => ({
    id: p.key,
    header: `${p.label} (ms)`,
    value: (r) => ms(r[p.key]),
    format: (r) => duration(r[p.key]),
    csv: (r) => ms(r[p.key]),
    width: 100,
    numeric: true,
  })),
];

function rowsOf(name: AnswerTimesRow['measure'], m: AnswerTimesMeasure): AnswerTimesRow[] {
  return [
    { measure: name, by: 'Range', key: 'All', ...m.overall },
    ...m.byPeriod.map((p) => ({
      measure: name,
      by: 'Period' as const,
      key: p.period,
      count: p.count,
      p50Ms: p.p50Ms,
      p90Ms: p.p90Ms,
      p99Ms: p.p99Ms,
    })),
    ...m.byUser.map((u) => ({
      measure: name,
      by: 'Broker user' as const,
      key: u.user,
      count: u.count,
      p50Ms: u.p50Ms,
      p90Ms: u.p90Ms,
      p99Ms: u.p99Ms,
    })),
  ];
}

/**
 * The desk's service level: order received → a broker's accept or reject, and accepted → first fill,
 * p50/p90/p99 per period (lines, left) and per broker user (bars, right). Each percentile is one legend
 * entry for both sides.
 */
export function timeToAnswerView(answer: TimeToAnswerAnswer, periods: readonly string[]): ChartView<AnswerTimesRow> {
  const axis = [
    ...new Set([...periods, ...answer.answer.byPeriod.map((p) => p.period), ...answer.firstFill.byPeriod.map((p) => p.period)]),
  ].sort();
  const users = [...new Set([...answer.answer.byUser.map((u) => u.user), ...answer.firstFill.byUser.map((u) => u.user)])].sort();
  const series: (LineSeriesOption | BarSeriesOption)[] = [];
  const legend: ChartView<AnswerTimesRow>['legend'] = [];
  for (const m of MEASURES) {
    const measure = answer[m.key];
    const perPeriod = new Map(measure.byPeriod.map((p) => [p.period, p]));
    const perUser = new Map(measure.byUser.map((u) => [u.user, u]));
    PERCENTILES.forEach((p, i) => {
      const name = seriesName(m.name, p.label);
      const colour = COLOURS[m.name][i]!;
      legend.push({ name, colour });
      series.push({
        type: 'line',
        name,
        xAxisIndex: 0,
        yAxisIndex: 0,
        data: axis.map((period) => perPeriod.get(period)?.[p.key] ?? null),
        connectNulls: false,
        symbolSize: 5,
        lineStyle: { width: i === 0 ? 2 : 1.5, color: colour, type: m.key === 'firstFill' ? 'dashed' : 'solid' },
        itemStyle: { color: colour },
      });
      series.push({
        type: 'bar',
        name,
        xAxisIndex: 1,
        yAxisIndex: 1,
        data: users.map((u) => perUser.get(u)?.[p.key] ?? null),
        itemStyle: { color: colour },
        barMaxWidth: 8,
      });
    });
  }
  const rows = MEASURES.flatMap((m) => rowsOf(m.name, answer[m.key]));
  const secondsAxis = valueAxis({ minInterval: 0, axisLabel: { color: '#495057', fontSize: 10, formatter: durationTick } });
  const figures = (m: AnswerTimesMeasure) => `${duration(m.overall.p50Ms)} · ${duration(m.overall.p90Ms)} · ${duration(m.overall.p99Ms)}`;
  return {
    option: {
      animation: false,
      textStyle: TEXT_STYLE,
      title: [gridTitle('Per period', '0%'), gridTitle('Per broker user', '64%')],
      grid: [
        { left: 52, right: '38%', top: 22, bottom: 24 },
        { left: '72%', right: 8, top: 22, bottom: 24 },
      ],
      xAxis: [categoryAxis(axis.map(periodLabel), { gridIndex: 0 }), valueAxis({ ...secondsAxis, gridIndex: 1, splitNumber: 2 })],
      yAxis: [
        { ...secondsAxis, gridIndex: 0 },
        categoryAxis(users, {
          gridIndex: 1,
          inverse: true,
          axisLabel: { color: '#495057', fontSize: 10, width: 60, overflow: 'truncate' },
        }),
      ],
      tooltip: tooltip((items) => {
        const first = items[0];
        const onUsers = first?.seriesType === 'bar';
        const title = onUsers ? (first?.name ?? '') : periodText(axis[first?.dataIndex ?? 0] ?? '');
        return (
          tipTitle(title) +
          items
            .map((i) => tipLine(i.color, i.seriesName ?? '', i.value === null || i.value === undefined ? '—' : duration(Number(i.value))))
            .join('')
        );
      }),
      series,
    },
    legend,
    columns,
    rows,
    empty: answer.answer.overall.count === 0 && answer.firstFill.overall.count === 0,
    summary: [
      { id: 'answer', label: 'Answer p50 · p90 · p99', value: figures(answer.answer) },
      { id: 'answered', label: 'Answered · waiting', value: `${count(answer.answer.overall.count)} · ${count(answer.answer.waiting)}` },
      { id: 'first-fill', label: 'First fill p50 · p90 · p99', value: figures(answer.firstFill) },
      { id: 'filled', label: 'Filled · not yet', value: `${count(answer.firstFill.overall.count)} · ${count(answer.firstFill.waiting)}` },
    ],
  };
}
