import type { ClientConnector } from '@fixdesk/protocol';
import { Alert, Badge, Group, Loader, Text } from '@mantine/core';
import { IconInfoCircle, IconLock, IconLockOpen } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { adminErrorText } from '../../components/admin/errors';
import { connectorsApi } from '../../services/client-onboarding/onboardingApi';

/** Spec 001 §5: certificates need a saved connector. */
export const SAVE_FIRST_TEXT = 'Please save the connector first before generating certificates';

/**
 * The TLS/SSL tab's body in this part of issue 15: a new connector is told to save first; a saved one
 * shows whether TLS is enabled (a certificate is present) as the server reports it. The certificate
 * panel of part B (./tls/TlsPanel) takes the same props and replaces it (see ConnectorDialog).
 */
export function ConnectorTlsStatus({ compId }: { compId: string | undefined }) {
  const [connector, setConnector] = useState<ClientConnector | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!compId) return;
    const controller = new AbortController();
    setConnector(null);
    setError(null);
    connectorsApi
      .get(compId, controller.signal)
      .then(setConnector)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setError(adminErrorText(err, 'Failed to fetch client connectors', (m) => `Error: ${m}`));
      });
    return () => controller.abort();
  }, [compId]);

  if (!compId) {
    return (
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
        {SAVE_FIRST_TEXT}
      </Alert>
    );
  }
  if (error) return <Alert color="red" variant="light">{error}</Alert>;
  if (!connector) return <Loader size="sm" aria-label="Loading TLS status" />;
  return (
    <Group gap="sm">
      {connector.tls_enabled ? <IconLock size={18} color="#2b8a3e" aria-hidden="true" /> : <IconLockOpen size={18} color="#868e96" aria-hidden="true" />}
      <Text fz="sm">TLS for {connector.comp_id}:</Text>
      <Badge color={connector.tls_enabled ? 'green' : 'gray'} variant="light">
        {connector.tls_enabled ? 'Enabled' : 'Disabled'}
      </Badge>
      <Text fz="xs" c="dimmed">
        {connector.tls_enabled ? 'A client certificate is stored for this connector.' : 'No certificate is stored for this connector.'}
      </Text>
    </Group>
  );
}
