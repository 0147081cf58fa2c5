import type { ContractInsight, ContractsAnswer } from '@fixdesk/protocol';
import { formatMaturity } from '@fixdesk/domain';
import {
  C,
  categoryAxis,
  contractLabel,
  count,
  gridTitle,
  lots,
  money,
  TEXT_STYLE,
  tipLine,
  tipTitle,
  tooltip,
  valueAxis,
  type ChartView,
  type InsightColumn,
} from './chartParts';

const label = (c: ContractInsight) => contractLabel(c.symbol, c.maturityMonthYear);
const notionalText = (c: ContractInsight) => `${money(c.notional)}${c.currency ? ` ${c.currency}` : ''}`;

const columns: InsightColumn<ContractInsight>[] = [
  { id: 'contract', header: 'Contract', value: label, width: 140 },
  { id: 'symbol', header: 'Symbol', value: (r) => r.symbol, width: 90, giveWay: 1 },
  {
    id: 'month',
    header: 'Month',
    value: (r) => r.maturityMonthYear,
    format: (r) => formatMaturity(r.maturityMonthYear),
    width: 80,
    giveWay: 2,
  },
  { id: 'lots', header: 'Lots', value: (r) => Number(r.lots), format: (r) => lots(r.lots), csv: (r) => r.lots, width: 90, numeric: true },
  {
    id: 'notional',
    header: 'Notional',
    value: (r) => Number(r.notional),
    format: (r) => money(r.notional),
    csv: (r) => r.notional,
    width: 140,
    numeric: true,
  },
  { id: 'currency', header: 'Currency', value: (r) => r.currency, width: 80 },
  { id: 'fills', header: 'Fills', value: (r) => r.fills, format: (r) => count(r.fills), width: 70, numeric: true },
];

/** The top 15 contracts by lots filled, spreads on their legs' contracts: lots (left) and notional (right). */
export function contractsView(answer: ContractsAnswer): ChartView<ContractInsight> {
  const rows = answer.contracts;
  const names = rows.map(label);
  const axis = (i: number) =>
    categoryAxis(names, {
      gridIndex: i,
      inverse: true,
      axisLabel: i === 0 ? { color: C.text, fontSize: 10, width: 86, overflow: 'truncate' } : { show: false },
      axisTick: { show: false },
    });
  const totalLots = rows.reduce((s, r) => s + Number(r.lots), 0);
  const currencies = [...new Set(rows.map((r) => r.currency ?? ''))].filter(Boolean);
  return {
    option: {
      animation: false,
      textStyle: TEXT_STYLE,
      title: [gridTitle('Lots', '18%'), gridTitle(`Notional${currencies.length === 1 ? ` (${currencies[0]})` : ''}`, '60%')],
      grid: [
        { left: '18%', width: '38%', top: 22, bottom: 22 },
        { left: '60%', right: 16, top: 22, bottom: 22 },
      ],
      xAxis: [
        valueAxis({ gridIndex: 0, splitNumber: 3 }),
        valueAxis({ gridIndex: 1, splitNumber: 3, minInterval: 0, axisLabel: { color: C.text, fontSize: 10, formatter: compact } }),
      ],
      yAxis: [axis(0), axis(1)],
      tooltip: tooltip((items) => {
        const r = rows[items[0]?.dataIndex ?? 0];
        if (!r) return '';
        return (
          tipTitle(label(r)) +
          tipLine(C.accepted, 'Lots', lots(r.lots)) +
          tipLine(C.received, 'Notional', notionalText(r)) +
          tipLine(C.grey, 'Fills', count(r.fills))
        );
      }),
      series: [
        {
          type: 'bar',
          name: 'Lots',
          xAxisIndex: 0,
          yAxisIndex: 0,
          data: rows.map((r) => Number(r.lots)),
          itemStyle: { color: C.accepted },
          barMaxWidth: 12,
        },
        {
          type: 'bar',
          name: 'Notional',
          xAxisIndex: 1,
          yAxisIndex: 1,
          data: rows.map((r) => Number(r.notional)),
          itemStyle: { color: C.received },
          barMaxWidth: 12,
        },
      ],
    },
    legend: [
      { name: 'Lots', colour: C.accepted },
      { name: 'Notional', colour: C.received },
    ],
    columns,
    rows,
    empty: rows.length === 0,
    summary: [
      { id: 'contracts', label: 'Contracts traded (top 15 shown)', value: count(rows.length) },
      { id: 'lots', label: 'Lots', value: lots(String(totalLots)) },
      { id: 'fills', label: 'Fills', value: count(rows.reduce((s, r) => s + r.fills, 0)) },
    ],
  };
}

/** Axis figures: 1.2M, 350k. */
function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${+(v / 1e9).toFixed(1)}B`;
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(v);
}
