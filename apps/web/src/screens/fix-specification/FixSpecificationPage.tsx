import {
  dropCopySessionNotes,
  FIX_SPEC_DEFAULT_CONNECTOR,
  FIX_SPEC_TABS,
  isDropCopySession,
  type FixSpecDocument,
  type FixSpecTabKey,
} from '@fixdesk/domain';
import type { BrokerRef } from '@fixdesk/client';
import { Alert, Box, Button, Container, Group, Loader, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconFileCode, IconLock } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useAuth } from '../../services/auth/AuthProvider';
import { roleOf } from '../../services/auth/roles';
import { fixSpecApi } from '../../services/fix-specification/fixSpecApi';
import { simulatorApi } from '../../services/simulators/http';
import { errorMessage, useConnectors, useSecurities } from '../../services/simulators/useSimulators';
import { AboutTab } from './AboutTab';
import { DropCopyNote } from './DropCopySection';
import { FixSpecExportDialog } from './FixSpecExportDialog';
import { OrderGenerationTab } from './OrderGenerationTab';
import { SessionInfoTab } from './SessionInfoTab';
import { TradeLifecycleTab } from './TradeLifecycleTab';
import { useOrchestraDownload } from './useOrchestraDownload';
import { ReferenceLoadNotice } from '../../components/reference/ReferenceLoadNotice';
import { useReferenceErrors } from '../../components/reference/useReferenceErrors';

/**
 * The FIX specification and examples page (spec 001 §2): four numbered tabs for one client,
 * rendered from the document model the server builds from the configuration the engine enforces (the
 * same model the client's password-protected document is made of). The header's colour and title
 * follow the active tab.
 */
export default function FixSpecificationPage() {
  const isAdmin = roleOf(useAuth().user) === 'admin';
  const [tab, setTab] = useState<FixSpecTabKey>('aboutFFA');
  const [compId, setCompId] = useState(FIX_SPEC_DEFAULT_CONNECTOR);
  const [brokerId, setBrokerId] = useState<number | null>(null);
  const [doc, setDoc] = useState<{ data: FixSpecDocument | null; loading: boolean; error: string | null }>({
    data: null,
    loading: true,
    error: null,
  });
  const [brokers, setBrokers] = useState<BrokerRef[]>([]);
  const { errors: referenceErrors, failed: referenceFailed } = useReferenceErrors();
  const [exportOpen, setExportOpen] = useState(false);
  const connectors = useConnectors();
  const securities = useSecurities();
  const orchestra = useOrchestraDownload(compId);

  useEffect(() => {
    const abort = new AbortController();
    setDoc((d) => ({ ...d, loading: true, error: null }));
    fixSpecApi
      .document(compId, brokerId, abort.signal)
      .then((data) => setDoc({ data, loading: false, error: null }))
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setDoc({ data: null, loading: false, error: errorMessage(e) });
      });
    return () => abort.abort();
  }, [compId, brokerId]);

  useEffect(() => {
    const abort = new AbortController();
    simulatorApi.brokers(abort.signal).then(setBrokers, (e: unknown) => {
      setBrokers([]);
      if (!abort.signal.aborted) referenceFailed('brokers', e);
    });
    return () => abort.abort();
  }, [referenceFailed]);

  const active = FIX_SPEC_TABS.find((t) => t.key === tab)!;
  const connector = connectors.data.find((c) => c.comp_id === compId) ?? null;
  const connectorChoices = useMemo(() => {
    const list = connectors.data.map((c) => ({ value: c.comp_id, label: `${c.comp_id} → ${c.target_comp_id}` }));
    return list.some((c) => c.value === compId) ? list : [{ value: compId, label: compId }, ...list];
  }, [connectors.data, compId]);
  const brokerChoices = brokers.map((b) => ({ value: String(b.id), label: b.company_name ?? `Broker ${b.id}` }));

  const d = doc.data;
  return (
    <Container size="xl" py="lg" w="100%">
      <Stack gap="md">
        <ReferenceLoadNotice errors={referenceErrors} />
        <Paper
          radius="md"
          p="md"
          style={{ background: active.colour, transition: 'background 200ms' }}
          data-testid="spec-header"
          data-colour={active.colour}
        >
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Box>
              <Title order={1} fz="h2" c="white" data-testid="spec-title">
                {active.number}. {active.title}
              </Title>
              <Text c="white" opacity={0.9} fz="sm">
                FIX 4.4 specification and examples{d ? ` for ${d.client.clientName} (${d.client.compId} → ${d.client.targetCompId})` : ''}
              </Text>
            </Box>
            {isAdmin && (
              <Group gap="xs">
                <Button
                  variant="white"
                  color="dark"
                  size="xs"
                  leftSection={<IconFileCode size={14} />}
                  onClick={() => void orchestra.download()}
                  disabled={!d}
                >
                  FIX Orchestra XML
                </Button>
                <Button
                  variant="white"
                  size="xs"
                  leftSection={<IconLock size={14} />}
                  onClick={() => setExportOpen(true)}
                  disabled={!connector}
                  data-testid="open-export"
                >
                  Export client document
                </Button>
              </Group>
            )}
          </Group>
        </Paper>
        {orchestra.error && (
          <Alert color="red" variant="light" withCloseButton onClose={orchestra.clearError} icon={<IconAlertCircle size={16} />}>
            {orchestra.error}
          </Alert>
        )}
        <Tabs value={tab} onChange={(v) => setTab((v ?? 'aboutFFA') as FixSpecTabKey)} keepMounted={false}>
          <Tabs.List>
            {FIX_SPEC_TABS.map((t) => (
              <Tabs.Tab key={t.key} value={t.key} fw={600} style={t.key === tab ? { color: t.colour, borderColor: t.colour } : undefined}>
                {t.number}. {t.title}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Box pt="md">
            {doc.error ? (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} role="alert">
                The FIX specification could not be loaded: {doc.error}
              </Alert>
            ) : !d ? (
              <Loader size="sm" aria-label="Loading the FIX specification" />
            ) : (
              <>
                <Tabs.Panel value="aboutFFA">
                  <AboutTab doc={d} />
                </Tabs.Panel>
                <Tabs.Panel value="orderGeneration">
                  {isDropCopySession(d) ? (
                    <DropCopyNote testId="order-generation-drop-copy">{dropCopySessionNotes(d.client.compId).orderGeneration}</DropCopyNote>
                  ) : (
                    <OrderGenerationTab doc={d} connector={connector} brokerId={brokerId} securities={securities.data} />
                  )}
                </Tabs.Panel>
                <Tabs.Panel value="tradeLifecycle">
                  <TradeLifecycleTab doc={d} />
                </Tabs.Panel>
                <Tabs.Panel value="sessionInfo">
                  <SessionInfoTab
                    doc={d}
                    connectors={connectorChoices}
                    compId={compId}
                    onCompId={setCompId}
                    brokers={brokerChoices}
                    brokerId={brokerId === null ? null : String(brokerId)}
                    onBrokerId={(v) => setBrokerId(v ? Number(v) : null)}
                  />
                </Tabs.Panel>
              </>
            )}
          </Box>
        </Tabs>
        {isAdmin && (
          <FixSpecExportDialog connector={connector} brokerId={brokerId} opened={exportOpen} onClose={() => setExportOpen(false)} />
        )}
      </Stack>
    </Container>
  );
}
