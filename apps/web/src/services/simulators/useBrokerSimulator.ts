import type { LatestPrice } from '@fixdesk/domain';
import { orderOfMessage, type WsNewOrder, type WsOrderData, type WsOrderUpdate } from '@fixdesk/protocol';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveConnection, useLiveMessages } from '../live/useLive';
import { BROKER_SIM_DEFAULTS, BrokerSimulator, type BrokerSimSettings, type BrokerSimState } from '@fixdesk/client';
import { simulatorApi } from './http';
import { errorMessage } from './useSimulators';

const SETTINGS_KEY = 'fixdesk.brokerSimulator.settings';

function loadSettings(): Omit<BrokerSimSettings, 'auto'> {
  try {
    const raw = JSON.parse(window.localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<BrokerSimSettings>;
    const ok = (n: unknown) => typeof n === 'number' && n >= 1 && n <= 10;
    return {
      acceptDelaySec: ok(raw.acceptDelaySec) ? raw.acceptDelaySec! : BROKER_SIM_DEFAULTS.acceptDelaySec,
      fillDelaySec: ok(raw.fillDelaySec) ? raw.fillDelaySec! : BROKER_SIM_DEFAULTS.fillDelaySec,
    };
  } catch {
    return { ...BROKER_SIM_DEFAULTS };
  }
}

export interface BrokerSimulatorHandle {
  state: BrokerSimState;
  /** Loading the desk's orders failed. */
  error: string | null;
  /** A reference load failed ('Latest Prices API failed: 503'): the simulator fills without a reference price. */
  referenceError: string | null;
  loading: boolean;
  setSettings(change: Partial<BrokerSimSettings>): void;
}

/**
 * The Broker Simulator in the browser: one engine while the screen is open, fed with the order
 * snapshot (reloaded after every reconnect) and the live new_order / order_update messages. Auto mode
 * starts off each time the screen opens; the delays are remembered.
 */
export function useBrokerSimulator(): BrokerSimulatorHandle {
  const prices = useRef<LatestPrice[]>([]);
  const ticks = useRef(new Map<string, string>());
  const [engine] = useState(
    () =>
      new BrokerSimulator(
        {
          api: simulatorApi,
          setTimeout: (fn, ms) => window.setTimeout(fn, ms),
          clearTimeout: (h) => window.clearTimeout(h as number),
          random: Math.random,
          now: Date.now,
          tickSize: (symbol) => ticks.current.get(symbol) ?? null,
          latestPrices: () => prices.current,
        },
        { auto: false, ...loadSettings() },
      ),
  );
  useEffect(() => {
    engine.start();
    return () => engine.stop();
  }, [engine]);
  const state = useSyncExternalStore((l) => engine.subscribe(l), engine.getState, engine.getState);
  const [error, setError] = useState<string | null>(null);
  const [referenceError, setReferenceError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const { session } = useLiveConnection();

  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    const latestPrices = simulatorApi.latestPrices(abort.signal).then(
      (latest) => {
        setReferenceError(null);
        return latest;
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setReferenceError(errorMessage(e));
        return [];
      },
    );
    Promise.all([simulatorApi.orders(abort.signal), simulatorApi.securities(abort.signal), latestPrices])
      .then(([orders, securities, latest]) => {
        ticks.current = new Map(securities.filter((s) => s.price_tick_size).map((s) => [s.symbol, s.price_tick_size!]));
        prices.current = latest;
        engine.loadOrders(orders);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(e));
      })
      .finally(() => {
        if (!abort.signal.aborted) setLoading(false);
      });
    return () => abort.abort();
  }, [engine, session]);

  // Spec 000 §4: the order may sit in orderData, data or the message itself; order info marks it UPDATED.
  const onOrderMessage = (m: WsNewOrder | WsOrderUpdate | WsOrderData) => {
    const order = orderOfMessage(m);
    if (order) engine.onOrder(order, m.type === 'order_data' ? m.orderInfo : null);
  };
  useLiveMessages('new_order', onOrderMessage);
  useLiveMessages('order_update', onOrderMessage);
  useLiveMessages('order_data', onOrderMessage);

  return {
    state,
    error,
    referenceError,
    loading,
    setSettings: (change) => {
      engine.setSettings(change);
      const { acceptDelaySec, fillDelaySec } = engine.getState().settings;
      try {
        window.localStorage.setItem(SETTINGS_KEY, JSON.stringify({ acceptDelaySec, fillDelaySec }));
      } catch {
        // not remembered in private mode
      }
    },
  };
}
