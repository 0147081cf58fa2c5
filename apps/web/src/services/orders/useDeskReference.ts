import type { LatestPrice } from '@fixdesk/domain';
import { isTradingClient, type ClientConnector, type OrderAction } from '@fixdesk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { applyTradingStatus } from '../kill-switch/killSwitch';
import { useLiveMessages, useLiveSelect } from '../live/useLive';
import { ordersApi } from './http';

export interface Loadable<T> {
  data: T;
  loading: boolean;
  error: string | null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Active trading clients (no drop copy session) with their live FIX session state: loaded once, then each
 * client_connection_status message flips is_connected of the client with that comp_id (spec 000 §4),
 * and each client_trading_status sets or clears its kill-switch stop. Read again after every
 * re-authentication of the live connection: a change made while it was down is not missed.
 */
export function useClientConnectors(): Loadable<ClientConnector[]> {
  const [state, setState] = useState<Loadable<ClientConnector[]>>({ data: [], loading: true, error: null });
  const session = useLiveSelect((s) => s.session);
  useEffect(() => {
    const abort = new AbortController();
    ordersApi
      .clientConnectors(abort.signal)
      .then((all) => setState({ data: all.filter((c) => c.is_active && isTradingClient(c)), loading: false, error: null }))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState((s) => ({ ...s, loading: false, error: message(error) }));
      });
    return () => abort.abort();
  }, [session]);
  useLiveMessages('client_connection_status', (m) =>
    setState((s) => ({ ...s, data: s.data.map((c) => (c.comp_id === m.comp_id ? { ...c, is_connected: m.is_connected } : c)) })),
  );
  useLiveMessages('client_trading_status', (m) =>
    setState((s) => {
      const data = applyTradingStatus(s.data, m);
      return data === s.data ? s : { ...s, data: [...data] };
    }),
  );
  return state;
}

/**
 * The latest trade per symbol, type and contract, for the price-sanity check. Reloaded after each
 * trade on the desk (an execution report of type F), at most once a second.
 */
export function useLatestPrices(): Loadable<LatestPrice[]> {
  const [state, setState] = useState<Loadable<LatestPrice[]>>({ data: [], loading: true, error: null });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    ordersApi
      .latestPrices(abort.signal)
      .then((data) => setState({ data, loading: false, error: null }))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState((s) => ({ ...s, loading: false, error: message(error) }));
      });
    return () => abort.abort();
  }, [generation]);
  const timer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  useLiveMessages('execution_report', (m) => {
    if (m.data?.exectype !== 'F' || timer.current !== null) return;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      setGeneration((g) => g + 1);
    }, 1000);
  });
  return state;
}

/** The order-action log of one order (accept, fills, decisions), newest first; follows live order_action messages. */
export function useOrderHistory(brokerOrderId: string | null | undefined): Loadable<OrderAction[]> & { reload: () => void } {
  const [state, setState] = useState<Loadable<OrderAction[]>>({ data: [], loading: false, error: null });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!brokerOrderId) {
      setState({ data: [], loading: false, error: null });
      return;
    }
    const abort = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    ordersApi
      .actions(brokerOrderId, abort.signal)
      .then((data) => setState({ data, loading: false, error: null }))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState({ data: [], loading: false, error: message(error) });
      });
    return () => abort.abort();
  }, [brokerOrderId, generation]);
  useLiveMessages('order_action', (m) => {
    if (!brokerOrderId || m.data?.brokerorderid !== brokerOrderId) return;
    setState((s) => (s.data.some((a) => a.id === m.data.id) ? s : { ...s, data: [m.data, ...s.data] }));
  });
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
