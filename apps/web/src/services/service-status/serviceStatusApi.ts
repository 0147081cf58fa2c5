import type { ServiceStatusEntry, ServiceStatusResponse, WsClientTradingStatus } from '@fixdesk/protocol';
import { SERVICE_STATUS_POLL_MS } from '@fixdesk/domain';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/http';
import { sameStop } from '../kill-switch/killSwitch';
import { useLiveMessages } from '../live/useLive';

/** GET /api/service-status (spec 001 §7). */
export const serviceStatusApi = {
  list: async (signal?: AbortSignal) => (await api.get<ServiceStatusResponse>('/api/service-status', { signal })).data,
};

/** The spec's error text (§8). */
function serviceStatusErrorText(err: unknown): string {
  return `Failed to fetch service status: ${err instanceof Error ? err.message : String(err)}`;
}

/** A pushed entry replaces the listed one of the same name (a new service is added, in name order after the known ones). */
function mergeService(services: readonly ServiceStatusEntry[], pushed: ServiceStatusEntry): ServiceStatusEntry[] {
  const i = services.findIndex((s) => s.name === pushed.name);
  if (i < 0) return [...services, pushed];
  const next = services.slice();
  next[i] = pushed;
  return next;
}

/** The kill switch's live message applied to the client's session entry (the same list when nothing changes). */
function applyServiceTradingStatus(
  services: readonly ServiceStatusEntry[],
  m: Pick<WsClientTradingStatus, 'comp_id' | 'trading_stop'>,
): ServiceStatusEntry[] {
  const i = services.findIndex((s) => s.name === `fix-session:${m.comp_id}`);
  if (i < 0 || sameStop(services[i]!.trading_stop, m.trading_stop)) return services as ServiceStatusEntry[];
  const next = services.slice();
  next[i] = { ...services[i]!, trading_stop: m.trading_stop };
  return next;
}

export interface ServiceStatusState {
  services: ServiceStatusEntry[] | null;
  lastUpdated: string | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** The list: loaded, polled every 30 s (spec 001 §9), and updated live from `service_status` pushes. */
export function useServiceStatus(): ServiceStatusState {
  const [services, setServices] = useState<ServiceStatusEntry[] | null>(null);
  const [lastUpdated, setLastUpdated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    const load = () => {
      setLoading(true);
      serviceStatusApi
        .list(abort.signal)
        .then((data) => {
          setServices(data.services);
          setLastUpdated(data.lastUpdated);
          setError(null);
        })
        .catch((err: unknown) => {
          if (!abort.signal.aborted) setError(serviceStatusErrorText(err));
        })
        .finally(() => {
          if (!abort.signal.aborted) setLoading(false);
        });
    };
    load();
    const timer = window.setInterval(load, SERVICE_STATUS_POLL_MS);
    return () => {
      abort.abort();
      window.clearInterval(timer);
    };
  }, [generation]);

  useLiveMessages('service_status', (m) => {
    setServices((list) => (list ? mergeService(list, m.data.service) : list));
    setLastUpdated(m.data.timestamp);
  });

  // A client stopped or resumed by the kill switch: its session row says so at once.
  useLiveMessages('client_trading_status', (m) => setServices((list) => (list ? applyServiceTradingStatus(list, m) : list)));

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { services, lastUpdated, error, loading, reload };
}
