/**
 * Measurement hooks for the blotter benchmark (bench/blotter.ts). Off unless the page was opened with
 * localStorage 'fixdesk.blotterMetrics' = '1'; then it records when the grid became ready and, for
 * every batch of live updates, the time from the first message's arrival to the next painted frame.
 * Costs one branch per batch when off.
 */
interface MetricsSink {
  gridReadyAt: number | null;
  firstRowsAt: number | null;
  latencies: number[];
}

declare global {
  interface Window {
    __blotterMetrics?: MetricsSink;
  }
}

function enabled(): boolean {
  try {
    return typeof window !== 'undefined' && window.localStorage.getItem('fixdesk.blotterMetrics') === '1';
  } catch {
    return false;
  }
}

const on = enabled();
if (on) window.__blotterMetrics = { gridReadyAt: null, firstRowsAt: null, latencies: [] };

export const blotterMetrics = {
  gridReady(): void {
    if (on && window.__blotterMetrics!.gridReadyAt === null) window.__blotterMetrics!.gridReadyAt = performance.now();
  },
  /** Rows from `receivedAt` are in the DOM; the paint follows on the next frame. */
  painted(receivedAt: number | null): void {
    if (!on) return;
    requestAnimationFrame(() => {
      // The frame after the DOM change: setTimeout 0 inside rAF runs after that frame has painted.
      setTimeout(() => {
        const sink = window.__blotterMetrics!;
        const now = performance.now();
        if (receivedAt === null) {
          sink.firstRowsAt ??= now;
          return;
        }
        sink.latencies.push(now - receivedAt);
      }, 0);
    });
  },
};
