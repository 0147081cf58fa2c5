import type { Order } from '@fixdesk/protocol';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveMessages } from '../live/useLive';
import type { LiveState } from '@fixdesk/client';
import { countWorkingOrders } from '../kill-switch/killSwitch';
import { blotterMetrics } from './blotterMetrics';
import { OrderBook, type OrderMessage, type SnapshotSource } from './orderBook';

/** Flushes on the next animation frame, or after 100 ms when the tab is hidden and frames stop. */
function nextFrame(flush: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    flush();
  };
  requestAnimationFrame(run);
  window.setTimeout(run, 100);
}

function createBrowserOrderBook(): OrderBook {
  return new OrderBook({
    schedule: nextFrame,
    now: () => performance.now(),
    warn: (message, detail) => console.warn(message, detail ?? ''),
    error: (message, detail) => console.error(message, detail ?? ''),
    // About 10 ms of grid work per frame while a big snapshot streams in.
    maxAddsPerFlush: 2000,
  });
}

/** One order book for the lifetime of the calling screen. */
export function useOrderBookInstance(): OrderBook {
  const [book] = useState(createBrowserOrderBook);
  return book;
}

/**
 * Feeds a book from the live connection and loads its snapshot: first once the socket is
 * authenticated (so no message falls between the snapshot and the first delta), again on every
 * reconnect (messages may have been missed), and once anyway when the connection is offline so the
 * broker still sees the orders (flagged stale by the offline notice).
 */
export function useOrderBookFeed(book: OrderBook, live: Pick<LiveState, 'session' | 'status'>, fetchSnapshot: SnapshotSource): void {
  const receive = (m: OrderMessage) => {
    const now = performance.now();
    blotterMetrics.received(now);
    book.receive(m, now);
  };
  useLiveMessages('new_order', receive);
  useLiveMessages('order_update', receive);
  useLiveMessages('order_data', receive);
  useLiveMessages('execution_report', receive);

  const fetchRef = useRef(fetchSnapshot);
  useEffect(() => {
    fetchRef.current = fetchSnapshot;
  });
  const loadedSession = useRef<number | null>(null);
  const { session, status } = live;
  // The live server is not there (yet): the orders are loaded over HTTP meanwhile.
  const unreachable = status === 'reconnecting' || status === 'refused';
  useEffect(() => {
    if (status === 'connected' && loadedSession.current !== session) {
      loadedSession.current = session;
      void book.load((push) => fetchRef.current(push));
    } else if (unreachable && loadedSession.current === null) {
      loadedSession.current = -1;
      void book.load((push) => fetchRef.current(push));
    }
  }, [book, session, status, unreachable]);
}

/** The whole view (count and version change on every flush: use it only where that is wanted). */
export function useBookView(book: OrderBook) {
  return useSyncExternalStore(book.onView, book.getView, book.getView);
}

/** Status, error and loadingMore only: a screen using this re-renders on state changes, not on every flush. */
export function useBookStatus(book: OrderBook) {
  const status = useSyncExternalStore(book.onView, () => book.getView().status);
  const error = useSyncExternalStore(book.onView, () => book.getView().error);
  const loadingMore = useSyncExternalStore(book.onView, () => book.getView().loadingMore);
  return { status, error, loadingMore };
}

export function useBookCount(book: OrderBook): number {
  return useSyncExternalStore(book.onView, () => book.getView().count);
}

export function useBookOrder(book: OrderBook, id: number | null | undefined): Order | undefined {
  const get = () => book.getOrder(id);
  return useSyncExternalStore(book.onView, get, get);
}

export function useBookExecutionReports(book: OrderBook, id: number | null | undefined) {
  const get = () => book.getExecutionReports(id);
  return useSyncExternalStore(book.onView, get, get);
}

/**
 * How many working orders of `compId` the book holds, live (null for no client, or while the book is
 * not whole yet: still loading, failed, or its snapshot still arriving). The kill switch's count.
 */
export function useWorkingOrderCount(book: OrderBook, compId: string | null): number | null {
  const get = () => {
    const view = book.getView();
    if (compId === null || view.status !== 'ready' || view.loadingMore) return null;
    return countWorkingOrders(book.getOrders(), compId);
  };
  return useSyncExternalStore(book.onView, get, get);
}
