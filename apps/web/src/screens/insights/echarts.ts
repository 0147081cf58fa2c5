// The one place the charting library is imported (docs/adr/0018): only the parts the Insights charts use,
// so the bundle carries bars, lines, grids, titles, tooltips, the legend's selection and ARIA, and the
// canvas renderer; nothing else. This module is reached only from the Insights screen's lazy chunk.
import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  type AriaComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type TitleComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { init, use as register, type ComposeOption, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

register([BarChart, LineChart, GridComponent, TitleComponent, TooltipComponent, LegendComponent, AriaComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | TitleComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | AriaComponentOption
>;
export type { BarSeriesOption, LineSeriesOption, ECharts };
export { init };
