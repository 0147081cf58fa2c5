import { formatDecimal, formatMaturity, formatPercent } from '@fixdesk/domain';
import type { BlotterColumn } from '../../../components/grid/columns';
import type { CsvColumn } from '../../../components/export/csv';
import type { ChartOption } from '../echarts';

/**
 * What every Insights chart hands its panel: the drawing, the series its legend toggles, the same
 * figures as a table (which is also the CSV: columns declared once), and the totals shown above it.
 */
export type InsightColumn<R> = BlotterColumn<R> & Pick<CsvColumn<R>, 'csv'>;
export interface LegendEntry {
  name: string;
  colour: string;
}
export interface SummaryFigure {
  id: string;
  label: string;
  value: string;
  colour?: string;
}
export interface ChartView<R> {
  option: ChartOption;
  legend: LegendEntry[];
  columns: InsightColumn<R>[];
  rows: R[];
  /** Nothing in the range: the panel says so instead of drawing empty axes. */
  empty: boolean;
  summary: SummaryFigure[];
}

/** The desk's colours for the charts: the theme's navy and blue, and the status colours of the blotter. */
export const C = {
  received: '#5473ab',
  accepted: '#1656c5',
  filled: '#2b8a3e',
  rejected: '#c92a2a',
  refused: '#e8590c',
  grey: '#868e96',
  axis: '#adb5bd',
  split: '#eef0f3',
  text: '#495057',
} as const;
/** Series of one kind shown side by side (percentiles, clients): shades that stay apart. */
export const SHADES = ['#1656c5', '#74a0ea', '#0c1a2e', '#2b8a3e', '#e8590c', '#7048e8', '#c92a2a', '#0b7285', '#e67700', '#868e96'];
/** Reasons of refusals (warm) and of a broker's rejects (reds): each reason its own shade. */
export const REFUSED_SHADES = ['#e8590c', '#f59f00', '#fd7e14', '#ffa94d', '#d9480f', '#ffc078'];
export const REJECTED_SHADES = ['#c92a2a', '#e64980', '#a61e4d', '#f03e3e', '#862e9c', '#ff8787'];

export const FONT = "'Inter Variable', Inter, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
export const TEXT_STYLE = { fontFamily: FONT, fontSize: 11, color: C.text };

export const count = (n: number) => formatDecimal(n, 0);
/** Milliseconds as the desk reads an answer time: '850 ms', '12.4 s', '3m 05s', '2h 10m'. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${formatDecimal(ms, 0)} ms`;
  if (ms < 60_000) return `${formatDecimal(ms / 1000, 1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
/** An axis's durations: '0', '30 s', '1m 40s', '2 min', '1.5 h'. */
export function durationTick(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return ms % 60_000 === 0 ? `${ms / 60_000} min` : duration(ms);
  return `${+(ms / 3_600_000).toFixed(1)} h`;
}
export const ratio = (r: number | null | undefined) => (r === null || r === undefined ? '—' : formatPercent(r * 100, 1));
export const lots = (text: string) => formatDecimal(text, 0, 2);
export const money = (text: string) => formatDecimal(text, 0, 2);
/** 'C5TC Dec-26'; the symbol alone without a month. */
export const contractLabel = (symbol: string, month: string | null) => (month ? `${symbol} ${formatMaturity(month)}` : symbol);

/** A period's axis label: the hour ('14:00') by hour, the day ('29 Nov') by day. */
export function periodLabel(period: string): string {
  if (period.length > 10) return period.slice(11, 16);
  const [y, m, d] = period.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!)).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}
/** The period in full, for tooltips and tables: '2026-11-29 14:00–15:00', '2026-11-29'. */
export function periodText(period: string): string {
  if (period.length <= 10) return period;
  const hour = Number(period.slice(11, 13));
  return `${period.slice(0, 10)} ${period.slice(11, 16)}–${String((hour + 1) % 24).padStart(2, '0')}:00`;
}

/** An axis of categories (periods, clients, contracts) in the desk's quiet style. */
export function categoryAxis(data: string[], extra: Record<string, unknown> = {}) {
  return {
    type: 'category' as const,
    data,
    axisLine: { lineStyle: { color: C.axis } },
    axisTick: { alignWithLabel: true, lineStyle: { color: C.axis } },
    axisLabel: { color: C.text, fontSize: 10, hideOverlap: true },
    ...extra,
  };
}
/** A value axis: light split lines, small labels. */
export function valueAxis(extra: Record<string, unknown> = {}) {
  return {
    type: 'value' as const,
    minInterval: 1,
    splitLine: { lineStyle: { color: C.split } },
    axisLabel: { color: C.text, fontSize: 10 },
    ...extra,
  };
}
/** The tooltip every chart uses: exact values, one line per series, on a plain white card. */
export function tooltip(formatter: (params: TooltipItem[]) => string, trigger: 'axis' | 'item' = 'axis') {
  return {
    trigger,
    axisPointer: { type: 'shadow' as const },
    confine: true,
    backgroundColor: '#fff',
    borderColor: '#ced4da',
    borderWidth: 1,
    padding: [6, 8],
    textStyle: { fontFamily: FONT, fontSize: 11, color: '#212529' },
    extraCssText: 'box-shadow: 0 2px 6px rgba(0,0,0,.12); border-radius: 4px;',
    formatter: (p: unknown) => formatter((Array.isArray(p) ? p : [p]) as TooltipItem[]),
  };
}
export interface TooltipItem {
  seriesName?: string;
  seriesType?: string;
  /** The axis the tooltip follows (axis trigger): tells which of a chart's side-by-side grids. */
  axisIndex?: number;
  dataIndex: number;
  color?: unknown;
  axisValue?: string;
  name?: string;
  value?: unknown;
}
/** Text for the tooltip's HTML: values are ours, but names (clients, users, symbols) come from data. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
export function tipLine(colour: unknown, name: string, value: string): string {
  const dot = typeof colour === 'string' ? colour : C.grey;
  return `<div style="display:flex;gap:10px;justify-content:space-between"><span><span style="display:inline-block;width:8px;height:8px;border-radius:2px;margin-right:5px;background:${dot}"></span>${esc(name)}</span><b style="font-variant-numeric:tabular-nums">${esc(value)}</b></div>`;
}
export function tipTitle(text: string): string {
  return `<div style="font-weight:600;margin-bottom:3px">${esc(text)}</div>`;
}
/** A small title over one of a chart's side-by-side grids. */
export function gridTitle(text: string, left: string, top = 0) {
  return { text, left, top, textStyle: { fontFamily: FONT, fontSize: 11, fontWeight: 600 as const, color: '#343a40' } };
}
