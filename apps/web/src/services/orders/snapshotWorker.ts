/// <reference lib="webworker" />
/**
 * Fetches and parses the blotter's snapshot off the main thread: 50,000 orders are ~45 MB of JSON,
 * whose parse alone would freeze the page for a few hundred milliseconds. The orders come back in
 * chunks (newest first, as the server sends them), so the grid can show the top rows at once and each
 * chunk's hand-over to the page is a short task.
 */
import type { SnapshotRequest, SnapshotWorkerMessage } from './snapshotProtocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: SnapshotWorkerMessage) => scope.postMessage(message);

scope.onmessage = async (event: MessageEvent<SnapshotRequest>) => {
  const { url, token, chunkSize } = event.data;
  try {
    const response = await fetch(url, {
      headers: token ? { Accept: 'application/json', Authorization: `Bearer ${token}` } : { Accept: 'application/json' },
      credentials: 'include',
    });
    const text = await response.text();
    if (!response.ok) {
      post({ type: 'failed', status: response.status, body: text });
      return;
    }
    const orders: unknown = JSON.parse(text);
    if (!Array.isArray(orders)) {
      post({ type: 'failed', status: response.status, body: 'The server did not answer with a list of orders' });
      return;
    }
    for (let i = 0; i < orders.length; i += chunkSize)
      post({ type: 'chunk', orders: orders.slice(i, i + chunkSize), total: orders.length });
    post({ type: 'done', total: orders.length });
  } catch (error) {
    post({ type: 'failed', status: 0, body: error instanceof Error ? error.message : String(error) });
  }
};
