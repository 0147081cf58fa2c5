/**
 * Measurement hooks for the blotter benchmark (bench/blotter.ts). Off unless the page was opened with
 * localStorage 'fixdesk.blotterMetrics' = '1'; then it records when the grid came up and, for every
 * live order message, the time from its arrival to the first frame painted after the grid applied it.
 * When off, each hook is one branch.
 */
export interface BlotterMetricsSink {
  /** performance.now() when the Orders grid was created. */
  gridReadyAt: number | null;
  /** performance.now() of the first frame painted with the snapshot's rows. */
  firstRowsAt: number | null;
  /** Message received → row painted, ms, one entry per live order message. */
  latencies: number[];
  /** Messages received and not yet applied to the grid. */
  pending: number[];
}

declare global {
  interface Window {
    __blotterMetrics?: BlotterMetricsSink;
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
const sink: BlotterMetricsSink | null = on ? { gridReadyAt: null, firstRowsAt: null, latencies: [], pending: [] } : null;
if (sink) window.__blotterMetrics = sink;

let waitingForRows = false;

/** Runs after the next frame has been painted (a task queued from inside requestAnimationFrame runs after that paint). */
function afterNextPaint(fn: (now: number) => void): void {
  requestAnimationFrame(() => setTimeout(() => fn(performance.now()), 0));
}

export const blotterMetrics = {
  /** Times fn as a performance measure named `name` when metrics are on. */
  time<T>(name: string, fn: () => T): T {
    if (!sink) return fn();
    const start = performance.now();
    try {
      return fn();
    } finally {
      performance.measure(name, { start, end: performance.now() });
    }
  },
  gridReady(): void {
    if (sink && sink.gridReadyAt === null) sink.gridReadyAt = performance.now();
  },
  received(at: number): void {
    sink?.pending.push(at);
  },
  /**
   * The grid holds the snapshot rows now. The time taken is that of the first frame painted with
   * them on screen: `shown` (a row drawn and not hidden by a loading state) is asked at the start of
   * each frame, and the time read after that frame's paint.
   */
  snapshotApplied(shown: () => boolean): void {
    if (!sink || sink.firstRowsAt !== null || waitingForRows) return;
    waitingForRows = true;
    const frame = () => {
      if (!shown()) {
        requestAnimationFrame(frame);
        return;
      }
      setTimeout(() => {
        waitingForRows = false;
        sink.firstRowsAt ??= performance.now();
      }, 0);
    };
    requestAnimationFrame(frame);
  },
  /** Called when the grid has applied a transaction: every message received before now is in it. */
  updatesApplied(): void {
    if (!sink || sink.pending.length === 0) return;
    const batch = sink.pending;
    sink.pending = [];
    afterNextPaint((now) => {
      for (const t of batch) sink.latencies.push(now - t);
    });
  },
};
