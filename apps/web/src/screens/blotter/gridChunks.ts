import { useEffect, useState } from 'react';

/**
 * The grid library is large, so the blotter's grids live in chunks of their own. The /orders route
 * requests them together with the blotter screen (app/screens.ts), so they download in parallel
 * with it instead of after it, and their start-up runs in tasks of their own while the live
 * connection and the orders are on the way.
 */
export const loadOrdersGrid = () => import('./OrdersGrid');
export const loadExecutionsGrid = () => import('./ExecutionsGrid');

export function preloadBlotterGrids(): void {
  // A failure here shows where the grid is used (useChunk); nothing to report twice.
  loadOrdersGrid().catch(() => undefined);
  loadExecutionsGrid().catch(() => undefined);
}

/**
 * True once a frame has been painted after `after` became true. A grid created in the same task as
 * the layout around it measures that whole new layout there and then (a forced layout in an already
 * long task); created after the paint, it measures only itself.
 */
export function usePaintedAfter(after: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!after || painted) return;
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [after, painted]);
  return painted;
}
