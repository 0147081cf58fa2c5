import type { FixSessionsAnswer, FixSessionsPoint } from '@fixdesk/protocol';
import type { BarSeriesOption } from '../echarts';
import {
  C,
  categoryAxis,
  count,
  gridTitle,
  periodLabel,
  SHADES,
  TEXT_STYLE,
  tipLine,
  tipTitle,
  tooltip,
  valueAxis,
  type ChartView,
  type InsightColumn,
} from './chartParts';

type Measure = 'logons' | 'refusedLogons' | 'disconnects' | 'sessionRejects' | 'resendRequests';
const MEASURES: readonly { key: Measure; name: string }[] = [
  { key: 'logons', name: 'Logons' },
  { key: 'refusedLogons', name: 'Refused logons' },
  { key: 'disconnects', name: 'Disconnects' },
  { key: 'sessionRejects', name: 'Session rejects' },
  { key: 'resendRequests', name: 'Resend requests' },
];

const columns: InsightColumn<FixSessionsPoint>[] = [
  { id: 'period', header: 'Day', value: (r) => r.period, width: 110 },
  { id: 'client', header: 'Client', value: (r) => r.client, width: 140 },
  ...MEASURES.map((m): InsightColumn<FixSessionsPoint> => ({
    id: m.key,
    header: m.name,
    value: (r) => r[m.key],
    format: (r) => count(r[m.key]),
    width: 120,
    numeric: true,
  })),
];

/**
 * Per client per day, one small chart per measure (logons, refused logons, disconnects, session rejects,
 * resend requests), the clients stacked in each: the legend names the clients.
 */
export function fixSessionsView(answer: FixSessionsAnswer, days: readonly string[]): ChartView<FixSessionsPoint> {
  const axis = [...new Set([...days, ...answer.series.map((p) => p.period)])].sort();
  const clients = [...new Set(answer.series.map((p) => p.client))].sort();
  const colourOf = (client: string) => SHADES[clients.indexOf(client) % SHADES.length]!;
  const at = new Map(answer.series.map((p) => [`${p.period}|${p.client}`, p]));
  const n = MEASURES.length;
  const gap = 2.5;
  const width = (100 - 3 - gap * (n - 1)) / n;
  const left = (i: number) => `${3 + i * (width + gap)}%`;
  const series: BarSeriesOption[] = MEASURES.flatMap((m, i) =>
    clients.map((client): BarSeriesOption => ({
      type: 'bar',
      name: client,
      stack: m.key,
      xAxisIndex: i,
      yAxisIndex: i,
      data: axis.map((d) => at.get(`${d}|${client}`)?.[m.key] ?? 0),
      itemStyle: { color: colourOf(client) },
      barMaxWidth: 14,
    })),
  );
  const total = (k: Measure) => answer.series.reduce((s, p) => s + p[k], 0);
  return {
    option: {
      animation: false,
      textStyle: TEXT_STYLE,
      title: MEASURES.map((m, i) => gridTitle(m.name, left(i))),
      grid: MEASURES.map((_, i) => ({ left: left(i), width: `${width}%`, top: 22, bottom: 22, containLabel: false })),
      xAxis: MEASURES.map((_, i) => categoryAxis(axis.map(periodLabel), { gridIndex: i })),
      yAxis: MEASURES.map((_, i) => valueAxis({ gridIndex: i, splitNumber: 3 })),
      tooltip: tooltip((items) => {
        const first = items[0];
        const day = axis[first?.dataIndex ?? 0] ?? '';
        const measure = MEASURES[first?.axisIndex ?? 0]?.name ?? '';
        return (
          tipTitle(`${measure} · ${day}`) + items.map((i) => tipLine(i.color, i.seriesName ?? '', count(Number(i.value ?? 0)))).join('')
        );
      }),
      series,
    },
    legend: clients.map((c) => ({ name: c, colour: colourOf(c) })),
    columns,
    rows: answer.series,
    empty: answer.series.length === 0,
    summary: MEASURES.map((m) => ({
      id: m.key,
      label: m.name,
      value: count(total(m.key)),
      colour: m.key === 'logons' ? C.accepted : undefined,
    })),
  };
}
