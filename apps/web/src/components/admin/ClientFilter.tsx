import { isTradingClient, type ClientConnector } from '@fixdesk/protocol';
import { Select } from '@mantine/core';
import { useEffect, useState } from 'react';
import { connectorsApi } from '../../services/client-onboarding/onboardingApi';
import { adminErrorText } from './errors';

/** "Straits Shipping Capital (SGX_CLIENT_1)", or the comp id alone. */
export const connectorLabel = (c: Pick<ClientConnector, 'client_name' | 'comp_id'>) =>
  c.client_name ? `${c.client_name} (${c.comp_id})` : c.comp_id;

/**
 * The client connectors for a screen's selectors (spec 001 §8: 'Failed to fetch client connectors');
 * with `tradingOnly`, no drop copy session (capabilities are for clients that trade).
 */
export function useClientConnectors(showError: (text: string) => void, { tradingOnly = false } = {}): ClientConnector[] {
  const [connectors, setConnectors] = useState<ClientConnector[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    connectorsApi
      .list(controller.signal)
      .then((all) => setConnectors(tradingOnly ? all.filter(isTradingClient) : all))
      .catch((err: unknown) => {
        if (!controller.signal.aborted)
          showError(adminErrorText(err, 'Failed to fetch client connectors', (m) => `Failed to fetch client connectors: ${m}`));
      });
    return () => controller.abort();
  }, [showError, tradingOnly]);
  return connectors;
}

/** A table "filterable by client" (spec 001 §2): the chosen comp id, or null for all clients. */
export function ClientFilter({
  connectors,
  value,
  onChange,
}: {
  connectors: readonly ClientConnector[];
  value: string | null;
  onChange: (compId: string | null) => void;
}) {
  return (
    <Select
      aria-label="Filter by client"
      placeholder="All clients"
      data={connectors.map((c) => ({ value: c.comp_id, label: connectorLabel(c) }))}
      value={value}
      onChange={onChange}
      clearable
      searchable
      w={260}
    />
  );
}
