import type { Order } from '@fixdesk/protocol';
import { sessionStore } from '../api/http';
import { blotterMetrics } from './blotterMetrics';
import { ordersApi } from './http';
import type { SnapshotRequest, SnapshotWorkerMessage } from './snapshotProtocol';

/** Orders per hand-over from the worker: a few milliseconds of structured-clone work each. */
const SNAPSHOT_CHUNK = 2000;
/**
 * The newest orders, fetched first on their own: the server answers a short list at once, while the
 * whole list (tens of thousands of orders) takes it seconds to assemble. The broker works with the
 * top of the blotter while the rest arrives.
 */
const SNAPSHOT_HEAD = 500;

/** Resolves after the next frame has been painted, or after 100 ms where frames do not run (a hidden tab). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve();
    };
    requestAnimationFrame(() => setTimeout(finish, 0));
    setTimeout(finish, 100);
  });
}

/**
 * The blotter's snapshot (GET /api/orders, today's and every open order), delivered in chunks.
 * Fetched and parsed in a worker; where workers are unavailable, or the worker's request fails in a
 * way the app must handle itself (a 401 ends the session), the ordinary API client fetches it.
 */
export async function fetchOrderSnapshot(onChunk: (orders: readonly Order[]) => void): Promise<void> {
  const head = await ordersApi.list({ limit: SNAPSHOT_HEAD });
  onChunk(head);
  if (head.length < SNAPSHOT_HEAD) return;
  // The rest is asked for once the head is on screen (drawn, then revealed: two frames): the
  // worker's parse of tens of thousands of orders would otherwise take cores from drawing the first
  // rows (and so would the server's assembling them, where it shares the machine).
  await afterNextPaint();
  await afterNextPaint();
  if (typeof Worker === 'undefined') {
    onChunk(await ordersApi.list());
    return;
  }
  const base = import.meta.env.VITE_API_BASE_URL ?? '';
  const url = new URL(`${base}/api/orders?includeExecReports=false`, window.location.href).toString();
  let delivered = 0;
  const outcome = await new Promise<{ ok: true } | { ok: false; status: number; body: string }>((resolve) => {
    const worker = new Worker(new URL('./snapshotWorker.ts', import.meta.url), { type: 'module', name: 'orders-snapshot' });
    worker.onmessage = (event: MessageEvent<SnapshotWorkerMessage>) => {
      const m = event.data;
      if (m.type === 'chunk') {
        delivered += m.orders.length;
        blotterMetrics.time('book:chunk', () => onChunk(m.orders));
      } else {
        worker.terminate();
        resolve(m.type === 'done' ? { ok: true } : { ok: false, status: m.status, body: m.body });
      }
    };
    worker.onerror = (event) => {
      worker.terminate();
      resolve({ ok: false, status: 0, body: event.message || 'The snapshot worker failed' });
    };
    const request: SnapshotRequest = { url, token: sessionStore.token(), chunkSize: SNAPSHOT_CHUNK };
    worker.postMessage(request);
  });
  if (outcome.ok) return;
  if (delivered > 0) throw new Error(`The order list stopped half way: ${outcome.body}`);
  // Let the API client answer: it turns a 401 into "session ended" and other failures into the server's message.
  onChunk(await ordersApi.list());
}
