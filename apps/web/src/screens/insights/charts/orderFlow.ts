import type { OrderFlowAnswer, OrderFlowPoint } from '@fixdesk/protocol';
import type { BarSeriesOption } from '../echarts';
import {
  C,
  categoryAxis,
  count,
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

type Measure = 'received' | 'accepted' | 'refused' | 'rejected' | 'filled';
export const ORDER_FLOW_SERIES: readonly { key: Measure; name: string; colour: string }[] = [
  { key: 'received', name: 'Received', colour: C.received },
  { key: 'accepted', name: 'Accepted', colour: C.accepted },
  { key: 'filled', name: 'Filled', colour: C.filled },
  { key: 'refused', name: 'Refused at intake', colour: C.refused },
  { key: 'rejected', name: 'Rejected by broker', colour: C.rejected },
];

const columns: InsightColumn<OrderFlowPoint>[] = [
  { id: 'period', header: 'Period', value: (r) => r.period, format: (r) => periodText(r.period), width: 170 },
  ...ORDER_FLOW_SERIES.map((s): InsightColumn<OrderFlowPoint> => ({
    id: s.key,
    header: s.name,
    value: (r) => r[s.key],
    format: (r) => count(r[s.key]),
    width: 110,
    numeric: true,
  })),
];

/**
 * Orders per period (by hour for a day, by day for longer): every period of the range on the axis, so
 * the bars keep their places as orders arrive.
 */
export function orderFlowView(answer: OrderFlowAnswer, periods: readonly string[]): ChartView<OrderFlowPoint> {
  // The hour a clock goes back comes twice under one name: one bar for both.
  const byPeriod = new Map<string, OrderFlowPoint>();
  for (const p of answer.series) {
    const seen = byPeriod.get(p.period);
    byPeriod.set(p.period, seen ? { ...seen, ...Object.fromEntries(ORDER_FLOW_SERIES.map((s) => [s.key, seen[s.key] + p[s.key]])) } : p);
  }
  const axis = [...new Set([...periods, ...byPeriod.keys()])].sort();
  const total = (k: Measure) => answer.series.reduce((s, p) => s + p[k], 0);
  const series: BarSeriesOption[] = ORDER_FLOW_SERIES.map((s) => ({
    type: 'bar',
    name: s.name,
    data: axis.map((p) => byPeriod.get(p)?.[s.key] ?? 0),
    itemStyle: { color: s.colour, borderRadius: [1, 1, 0, 0] },
    barMaxWidth: 12,
    barGap: '10%',
    emphasis: { focus: 'none' },
  }));
  return {
    option: {
      animation: false,
      textStyle: TEXT_STYLE,
      grid: { left: 40, right: 12, top: 12, bottom: 24 },
      xAxis: categoryAxis(axis.map(periodLabel)),
      yAxis: valueAxis(),
      tooltip: tooltip((items) => {
        const p = axis[items[0]?.dataIndex ?? 0] ?? '';
        return tipTitle(periodText(p)) + items.map((i) => tipLine(i.color, i.seriesName ?? '', count(Number(i.value)))).join('');
      }),
      series,
    },
    legend: ORDER_FLOW_SERIES.map((s) => ({ name: s.name, colour: s.colour })),
    columns,
    rows: answer.series,
    empty: answer.series.length === 0,
    summary: ORDER_FLOW_SERIES.map((s) => ({ id: s.key, label: s.name, value: count(total(s.key)), colour: s.colour })),
  };
}
