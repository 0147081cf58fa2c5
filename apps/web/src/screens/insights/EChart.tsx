import { useEffect, useRef } from 'react';
import { init, type ChartOption, type ECharts } from './echarts';

/**
 * One chart drawn on a canvas at the height given (fixed: figures that change never move the page), its
 * width following its frame. `option` replaces the drawing whole; `hidden` names the series the legend
 * turned off, which stay off across updates. `onReady` hands out the instance (for the PNG download).
 */
export function EChart({
  option,
  hidden,
  height,
  label,
  onReady,
  testId,
}: {
  option: ChartOption;
  hidden: ReadonlySet<string>;
  height: number;
  /** What the chart shows, for screen readers (the table view has the figures). */
  label: string;
  onReady?: (chart: ECharts | null) => void;
  testId?: string;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);

  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const instance = init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    onReady?.(instance);
    // Resized once per frame, after the layout that changed the frame's size has settled; not when the
    // size is the one drawn (the observer's first call, on observing): a resize draws the chart again.
    let frameRequest = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frameRequest);
      frameRequest = requestAnimationFrame(() => {
        if (instance.isDisposed() || (el.clientWidth === instance.getWidth() && el.clientHeight === instance.getHeight())) return;
        instance.resize();
      });
    });
    observer.observe(el);
    return () => {
      cancelAnimationFrame(frameRequest);
      observer.disconnect();
      onReady?.(null);
      chart.current = null;
      instance.dispose();
    };
    // The instance lives as long as the frame; onReady is read once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    const names = new Set<string>();
    for (const s of Array.isArray(option.series) ? option.series : option.series ? [option.series] : [])
      if (s.name) names.add(String(s.name));
    const selected = Object.fromEntries([...names].map((n) => [n, !hidden.has(n)]));
    // The legend itself is drawn by the panel (buttons a keyboard reaches); the chart's own keeps the selection.
    // ARIA: the canvas is labelled with what the chart is and its totals (the library's generated
    // description of every value reads badly for category axes); the table view has every figure.
    const aria = { enabled: true, label: { description: label } };
    instance.setOption({ ...option, aria, legend: { show: false, selected } }, { notMerge: true, lazyUpdate: true });
  }, [option, hidden, label]);

  return <div ref={frame} role="img" aria-label={label} data-testid={testId} style={{ width: '100%', height }} />;
}
