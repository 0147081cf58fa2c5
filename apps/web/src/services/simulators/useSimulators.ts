import {
  isTradingClient,
  type ClientConnector,
  type TestClientStatus,
  type WsTestClientExecution,
  type WsTestClientOrder,
} from '@fixdesk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveConnection, useLiveMessages } from '../live/useLive';
import { applyTestClientMessage, EMPTY_BLOTTER, type ClientBlotterState } from './clientBlotterState';
import { simulatorApi } from './http';
import type { BrokerRef, ClientMessageDefaults, SecurityRef } from '@fixdesk/client';

export interface Loaded<T> {
  data: T;
  loading: boolean;
  error: string | null;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Active client connectors, with is_connected kept live from client_connection_status (spec 000 §4);
 * with `tradingOnly`, no drop copy session (a simulator trades as the client it picks).
 */
export function useConnectors({ tradingOnly = false } = {}): Loaded<ClientConnector[]> {
  const [state, setState] = useState<Loaded<ClientConnector[]>>({ data: [], loading: true, error: null });
  const { session } = useLiveConnection();
  useEffect(() => {
    const abort = new AbortController();
    simulatorApi
      .clientConnectors(abort.signal)
      .then((all) =>
        setState({ data: all.filter((c) => c.is_active && (!tradingOnly || isTradingClient(c))), loading: false, error: null }),
      )
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState((s) => ({ ...s, loading: false, error: errorMessage(error) }));
      });
    return () => abort.abort();
  }, [session, tradingOnly]);
  useLiveMessages('client_connection_status', (m) =>
    setState((s) => ({ ...s, data: s.data.map((c) => (c.comp_id === m.comp_id ? { ...c, is_connected: m.is_connected } : c)) })),
  );
  return state;
}

/** Active securities for the symbol pickers. */
export function useSecurities(): Loaded<SecurityRef[]> {
  const [state, setState] = useState<Loaded<SecurityRef[]>>({ data: [], loading: true, error: null });
  useEffect(() => {
    const abort = new AbortController();
    simulatorApi
      .securities(abort.signal)
      .then((data) => setState({ data, loading: false, error: null }))
      .catch((error: unknown) => {
        // 'Security Master API failed: {status}' (spec 000 §8), worded by the simulator API's reference load.
        if (!abort.signal.aborted) setState({ data: [], loading: false, error: errorMessage(error) });
      });
    return () => abort.abort();
  }, []);
  return state;
}

/** Mandatory tags of a message type's spec; empty until loaded (missing fields only warn). */
export function useMandatoryTags(msgType: string): number[] {
  const [tags, setTags] = useState<number[]>([]);
  useEffect(() => {
    let live = true;
    simulatorApi
      .mandatoryTags(msgType)
      .then((t) => live && setTags(t))
      .catch(() => live && setTags([]));
    return () => {
      live = false;
    };
  }, [msgType]);
  return tags;
}

/** The message types the order entry builds: outright (D) and strategies (AB). */
const ORDER_MSG_TYPES = ['D', 'AB'] as const;
type OrderMsgType = (typeof ORDER_MSG_TYPES)[number];

export interface ClientDefaultsState {
  /** By message type; absent until loaded (or when the load failed). */
  byMsgType: Partial<Record<OrderMsgType, ClientMessageDefaults>>;
  /** The executing broker of the connector, for the %BROKER_…% variables. */
  broker: BrokerRef | null;
  loading: boolean;
  error: string | null;
  /** The broker's load failed ('Broker Information API failed: 500'): its variables stay unresolved. */
  brokerError: string | null;
}

const NO_DEFAULTS: ClientDefaultsState = { byMsgType: {}, broker: null, loading: false, error: null, brokerError: null };

/**
 * The selected client's FIX defaults and group instances for the orders the screen builds (spec 001 §5),
 * read afresh whenever the client changes or the order entry opens, so an edit on the FIX Client Defaults
 * screen applies to the next order. A failed load is only a warning: the order is built without them.
 */
export function useClientDefaults(connectorId: number | null, brokerId: number | null): ClientDefaultsState {
  const [state, setState] = useState<ClientDefaultsState>(NO_DEFAULTS);
  useEffect(() => {
    if (connectorId === null) {
      setState(NO_DEFAULTS);
      return;
    }
    const abort = new AbortController();
    setState({ ...NO_DEFAULTS, loading: true });
    let brokerError: string | null = null;
    const broker =
      brokerId === null
        ? Promise.resolve(null)
        : simulatorApi.brokers(abort.signal).then(
            (all) => all.find((b) => b.id === brokerId) ?? null,
            (e: unknown) => {
              brokerError = errorMessage(e);
              return null;
            },
          );
    Promise.all([Promise.all(ORDER_MSG_TYPES.map((t) => simulatorApi.clientDefaults(connectorId, t, abort.signal))), broker])
      .then(([loaded, b]) => {
        if (abort.signal.aborted) return;
        const byMsgType: ClientDefaultsState['byMsgType'] = {};
        ORDER_MSG_TYPES.forEach((t, i) => (byMsgType[t] = loaded[i]));
        setState({ byMsgType, broker: b, loading: false, error: null, brokerError });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        console.warn('client FIX defaults could not be loaded', error);
        setState({ ...NO_DEFAULTS, error: errorMessage(error), brokerError });
      });
    return () => abort.abort();
  }, [connectorId, brokerId]);
  return state;
}

export interface TestClientControl {
  status: TestClientStatus | null;
  loading: boolean;
  error: string | null;
  /** Start or stop in flight. */
  busy: 'starting' | 'stopping' | null;
  start(): Promise<{ ok: boolean; message: string }>;
  stop(): Promise<{ ok: boolean; message: string }>;
  refresh(): void;
}

/** The simulated client of one connector: its status (live from test_client_status) and Start/Stop. */
export function useTestClient(compId: string | null): TestClientControl {
  const [status, setStatus] = useState<TestClientStatus | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<TestClientControl['busy']>(null);
  const [reloads, setReloads] = useState(0);
  const { session } = useLiveConnection();
  const statusOf = useRef<string | null>(null);
  /** Bumped by every live status message: an HTTP answer asked for before one of them is older and is dropped. */
  const newer = useRef(0);

  useEffect(() => {
    // A re-read for the same client (the live connection came back, a refresh) keeps what is shown
    // until the answer is in: a status blanked meanwhile would read as "not running" to the send check.
    if (statusOf.current !== compId) {
      setStatus(null);
      statusOf.current = compId;
    }
    setError(null);
    if (!compId) return;
    const abort = new AbortController();
    setLoading(true);
    const asked = newer.current;
    simulatorApi
      .testClientStatus(compId, abort.signal)
      .then((s) => {
        // A live message that came meanwhile is newer than this read.
        if (newer.current === asked) setStatus(s);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(e));
      })
      .finally(() => {
        if (!abort.signal.aborted) setLoading(false);
      });
    return () => abort.abort();
  }, [compId, session, reloads]);

  useLiveMessages('test_client_status', (m) => {
    if (m.comp_id !== compId) return;
    newer.current++;
    setStatus(m.data);
  });

  const start = useCallback(async () => {
    if (!compId) return { ok: false, message: 'Please select a Client Connector first' };
    setBusy('starting');
    try {
      const asked = newer.current;
      const r = await simulatorApi.startClient(compId);
      // The answer was taken when the request finished on the server; a live message that came since
      // (the logon, under load often before this answer) is newer.
      if (newer.current === asked) setStatus(r.status);
      setError(null);
      return { ok: r.success, message: r.success ? (r.message ?? 'FIX client started') : (r.error ?? 'FIX client not logged on') };
    } catch (e) {
      return { ok: false, message: errorMessage(e) };
    } finally {
      setBusy(null);
    }
  }, [compId]);

  const stop = useCallback(async () => {
    if (!compId) return { ok: false, message: 'Please select a Client Connector first' };
    setBusy('stopping');
    try {
      const asked = newer.current;
      const r = await simulatorApi.stopClient(compId);
      if (newer.current === asked) setStatus(r.status);
      return { ok: r.success, message: r.message ?? 'FIX client stopped' };
    } catch (e) {
      return { ok: false, message: errorMessage(e) };
    } finally {
      setBusy(null);
    }
  }, [compId]);

  const refresh = useCallback(() => setReloads((n) => n + 1), []);
  return { status, loading, error, busy, start, stop, refresh };
}

/**
 * The client's own blotter: the snapshot from the test-client service, then live orders and executions.
 * Messages that arrive while the snapshot loads are queued and replayed after it (spec 000 §4).
 */
export function useClientBlotter(compId: string | null): Loaded<ClientBlotterState> & { reload(): void } {
  const [state, setState] = useState<Loaded<ClientBlotterState>>({ data: EMPTY_BLOTTER, loading: false, error: null });
  const queue = useRef<Array<WsTestClientOrder | WsTestClientExecution> | null>(null);
  const [reloads, setReloads] = useState(0);
  const { session } = useLiveConnection();

  useEffect(() => {
    setState({ data: EMPTY_BLOTTER, loading: Boolean(compId), error: null });
    if (!compId) return;
    const abort = new AbortController();
    queue.current = [];
    simulatorApi
      .clientBlotter(compId, abort.signal)
      .then((snapshot) => {
        if (abort.signal.aborted) return;
        let data: ClientBlotterState = { orders: snapshot.orders, executions: snapshot.executions };
        for (const m of queue.current ?? []) data = applyTestClientMessage(data, compId, m);
        queue.current = null;
        setState({ data, loading: false, error: null });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        queue.current = null;
        setState({ data: EMPTY_BLOTTER, loading: false, error: errorMessage(error) });
      });
    return () => abort.abort();
  }, [compId, session, reloads]);

  const onMessage = (m: WsTestClientOrder | WsTestClientExecution) => {
    if (!compId || m.comp_id !== compId) return;
    if (queue.current) {
      queue.current.push(m);
      return;
    }
    setState((s) => ({ ...s, data: applyTestClientMessage(s.data, compId, m) }));
  };
  useLiveMessages('test_client_order', onMessage);
  useLiveMessages('test_client_execution', onMessage);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { ...state, reload };
}

/**
 * The selected connector, remembered in the browser under `storageKey` (the FIX Client keeps the
 * connector's id under a selected-client key, spec 001 §2). Falls back to the first active connector.
 */
export function useSelectedConnector(
  storageKey: string,
  connectors: readonly ClientConnector[],
  by: 'id' | 'comp_id',
): [ClientConnector | null, (compId: string | null) => void] {
  const [stored, setStored] = useState<string | null>(() => {
    try {
      return window.localStorage.getItem(storageKey);
    } catch {
      return null;
    }
  });
  const selected = connectors.find((c) => String(by === 'id' ? c.id : c.comp_id) === stored) ?? connectors[0] ?? null;
  const select = useCallback(
    (compId: string | null) => {
      const c = connectors.find((x) => x.comp_id === compId) ?? null;
      const value = c ? String(by === 'id' ? c.id : c.comp_id) : null;
      setStored(value);
      try {
        if (value === null) window.localStorage.removeItem(storageKey);
        else window.localStorage.setItem(storageKey, value);
      } catch {
        // Private mode: the choice lasts for this page only.
      }
    },
    [connectors, storageKey, by],
  );
  return [selected, select];
}
