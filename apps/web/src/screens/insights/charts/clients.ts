import { ordRejReasonLabel } from '@fixdesk/domain';
import type { ClientInsight, ClientsAnswer } from '@fixdesk/protocol';
import type { BarSeriesOption } from '../echarts';
import {
  C,
  categoryAxis,
  count,
  gridTitle,
  lots,
  ratio,
  REFUSED_SHADES,
  REJECTED_SHADES,
  TEXT_STYLE,
  tipLine,
  tipTitle,
  tooltip,
  valueAxis,
  type ChartView,
  type InsightColumn,
} from './chartParts';

const reasonName = (source: 'refused' | 'rejected', reason: number) =>
  `${source === 'refused' ? 'Refused' : 'Rejected'}: ${ordRejReasonLabel(reason)}`;
const reasonsText = (c: ClientInsight) => c.reasons.map((r) => `${reasonName(r.source, r.reason)} ${r.count}`).join('; ');
const clientLabel = (c: ClientInsight) => c.clientName ?? c.client;

const columns: InsightColumn<ClientInsight>[] = [
  { id: 'client', header: 'Client', value: (r) => r.client, width: 130 },
  { id: 'clientName', header: 'Name', value: (r) => r.clientName, width: 170, giveWay: 1 },
  { id: 'orders', header: 'Orders', value: (r) => r.orders, format: (r) => count(r.orders), width: 80, numeric: true },
  {
    id: 'orderedQty',
    header: 'Ordered',
    value: (r) => Number(r.orderedQty),
    format: (r) => lots(r.orderedQty),
    csv: (r) => r.orderedQty,
    width: 90,
    numeric: true,
  },
  {
    id: 'filledQty',
    header: 'Filled',
    value: (r) => Number(r.filledQty),
    format: (r) => lots(r.filledQty),
    csv: (r) => r.filledQty,
    width: 90,
    numeric: true,
  },
  {
    id: 'fillRatio',
    header: 'Fill ratio',
    value: (r) => r.fillRatio,
    format: (r) => ratio(r.fillRatio),
    csv: (r) => r.fillRatio,
    width: 90,
    numeric: true,
  },
  { id: 'refused', header: 'Refused', value: (r) => r.refused, format: (r) => count(r.refused), width: 85, numeric: true },
  { id: 'rejected', header: 'Rejected', value: (r) => r.rejected, format: (r) => count(r.rejected), width: 85, numeric: true },
  {
    id: 'lots',
    header: 'Lots traded',
    value: (r) => Number(r.lots),
    format: (r) => lots(r.lots),
    csv: (r) => r.lots,
    width: 100,
    numeric: true,
  },
  {
    id: 'volumeShare',
    header: 'Share of volume',
    value: (r) => r.volumeShare,
    format: (r) => ratio(r.volumeShare),
    csv: (r) => r.volumeShare,
    width: 120,
    numeric: true,
  },
  { id: 'reasons', header: 'Refusals and rejects by reason', value: reasonsText, width: 300, giveWay: 2 },
];

/**
 * Per client, side by side on one axis of clients: orders, fill ratio, refusals and rejects by reason
 * (stacked), and the client's share of the desk's lots.
 */
export function clientsView(answer: ClientsAnswer): ChartView<ClientInsight> {
  const clients = answer.clients;
  const names = clients.map(clientLabel);
  const reasons = [...new Map(clients.flatMap((c) => c.reasons).map((r) => [`${r.source}:${r.reason}`, r])).values()].sort(
    (a, b) => a.source.localeCompare(b.source) || a.reason - b.reason,
  );
  const shade = { refused: 0, rejected: 0 };
  const reasonSeries = reasons.map((r) => {
    const palette = r.source === 'refused' ? REFUSED_SHADES : REJECTED_SHADES;
    const colour = palette[shade[r.source]++ % palette.length]!;
    const name = reasonName(r.source, r.reason);
    return {
      name,
      colour,
      series: {
        type: 'bar',
        name,
        stack: 'reasons',
        xAxisIndex: 2,
        yAxisIndex: 2,
        data: clients.map((c) => c.reasons.find((x) => x.source === r.source && x.reason === r.reason)?.count ?? 0),
        itemStyle: { color: colour },
        barMaxWidth: 14,
      } satisfies BarSeriesOption,
    };
  });
  const bar = (name: string, colour: string, index: number, data: (number | null)[]): BarSeriesOption => ({
    type: 'bar',
    name,
    xAxisIndex: index,
    yAxisIndex: index,
    data,
    itemStyle: { color: colour, borderRadius: [0, 1, 1, 0] },
    barMaxWidth: 14,
  });
  const pct = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 100);
  const left = ['15%', '37%', '59%', '81%'];
  const width = '16%';
  const clientAxis = (i: number) =>
    categoryAxis(names, {
      gridIndex: i,
      inverse: true,
      axisLabel: i === 0 ? { color: C.text, fontSize: 10, width: 96, overflow: 'truncate' } : { show: false },
      axisTick: { show: false },
    });
  const percentAxis = (i: number) =>
    valueAxis({
      gridIndex: i,
      max: 100,
      minInterval: 0,
      splitNumber: 2,
      axisLabel: { color: C.text, fontSize: 10, formatter: '{value}%' },
    });
  return {
    option: {
      animation: false,
      textStyle: TEXT_STYLE,
      title: [
        gridTitle('Orders', left[0]!),
        gridTitle('Fill ratio', left[1]!),
        gridTitle('Refused · rejected', left[2]!),
        gridTitle('Share of volume', left[3]!),
      ],
      grid: left.map((l) => ({ left: l, width, top: 22, bottom: 22 })),
      xAxis: [valueAxis({ gridIndex: 0, splitNumber: 3 }), percentAxis(1), valueAxis({ gridIndex: 2, splitNumber: 3 }), percentAxis(3)],
      yAxis: [0, 1, 2, 3].map(clientAxis),
      tooltip: tooltip((items) => {
        const c = clients[items[0]?.dataIndex ?? 0];
        if (!c) return '';
        return (
          tipTitle(c.clientName ? `${c.clientName} (${c.client})` : c.client) +
          tipLine(C.received, 'Orders', count(c.orders)) +
          tipLine(C.filled, 'Fill ratio', `${ratio(c.fillRatio)} (${lots(c.filledQty)} of ${lots(c.orderedQty)})`) +
          c.reasons
            .map((r) =>
              tipLine(
                reasonSeries.find((s) => s.name === reasonName(r.source, r.reason))?.colour,
                reasonName(r.source, r.reason),
                count(r.count),
              ),
            )
            .join('') +
          tipLine(C.accepted, 'Share of volume', `${ratio(c.volumeShare)} (${lots(c.lots)} of ${lots(answer.deskLots)} lots)`)
        );
      }),
      series: [
        bar(
          'Orders',
          C.received,
          0,
          clients.map((c) => c.orders),
        ),
        bar(
          'Fill ratio',
          C.filled,
          1,
          clients.map((c) => pct(c.fillRatio)),
        ),
        ...reasonSeries.map((s) => s.series),
        bar(
          'Share of volume',
          C.accepted,
          3,
          clients.map((c) => pct(c.volumeShare)),
        ),
      ],
    },
    legend: [
      { name: 'Orders', colour: C.received },
      { name: 'Fill ratio', colour: C.filled },
      ...reasonSeries.map((s) => ({ name: s.name, colour: s.colour })),
      { name: 'Share of volume', colour: C.accepted },
    ],
    columns,
    rows: clients,
    empty: clients.every((c) => c.orders === 0 && Number(c.lots) === 0),
    summary: [
      { id: 'clients', label: 'Clients with orders', value: count(clients.filter((c) => c.orders > 0).length) },
      { id: 'orders', label: 'Orders', value: count(clients.reduce((s, c) => s + c.orders, 0)) },
      { id: 'refused-rejected', label: 'Refused and rejected', value: count(clients.reduce((s, c) => s + c.refused + c.rejected, 0)) },
      { id: 'desk-lots', label: 'Desk lots traded', value: lots(answer.deskLots) },
    ],
  };
}
