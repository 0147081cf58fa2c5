import type { ClientConnector } from '@fixdesk/protocol';
import { Alert, Container, Group, Loader, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconTerminal2 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { adminErrorText } from '../../../components/admin/errors';
import { api } from '../../../services/api/http';
import { TlsPanel } from '../tls/TlsPanel';
import { SessionConsole } from './SessionConsole';

/**
 * A temporary admin page (issue 15 part B) that mounts the session console and the TLS/SSL tab body
 * for one connector until the Client Connectors screen's dialog and table carry them.
 */
export default function ConnectorToolsPage() {
  const [connectors, setConnectors] = useState<ClientConnector[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [compId, setCompId] = useState<string | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    api
      .get<{ data: ClientConnector[] }>('/api/client-connectors', { signal: ctrl.signal })
      .then((r) => {
        setConnectors(r.data);
        setCompId((v) => v ?? r.data[0]?.comp_id ?? null);
      })
      .catch((err: unknown) => {
        if (!ctrl.signal.aborted) setError(adminErrorText(err, 'Failed to fetch client connectors', (m) => `Failed to fetch client connectors: ${m}`));
      });
    return () => ctrl.abort();
  }, []);

  return (
    <Container size="xl" py="lg" w="100%">
      <AdminPageHeader icon={IconTerminal2} title="Session Console" description="A client's live FIX session and its certificates" count={connectors?.length}>
        <Select
          aria-label="Client connector"
          placeholder="Client connector"
          data={(connectors ?? []).map((c) => ({ value: c.comp_id, label: c.client_name ? `${c.comp_id} · ${c.client_name}` : c.comp_id }))}
          value={compId}
          onChange={setCompId}
          searchable
          w={280}
        />
      </AdminPageHeader>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {!connectors && !error && (
        <Group gap="xs">
          <Loader size="sm" />
          <Text fz="sm" c="dimmed">
            Loading client connectors…
          </Text>
        </Group>
      )}
      {connectors && connectors.length === 0 && <Text c="dimmed">No client connectors yet.</Text>}
      {compId && (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <SessionConsole compId={compId} />
          <Stack gap="xs">
            <TlsPanel compId={compId} />
          </Stack>
        </SimpleGrid>
      )}
    </Container>
  );
}
