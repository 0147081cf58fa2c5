import type { FixSpecDocument } from '@fixdesk/domain';
import type { ClientConnector } from '@fixdesk/protocol';
import type { SecurityRef } from '@fixdesk/client';
import { Alert, Grid, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import {
  buildOrderMessage,
  defaultOrderForms,
  msgTypeOf,
  strategyLegs,
  type OrderFormValues,
  type OrderKind,
} from '../../services/simulators/orderForms';
import { useClientDefaults, useMandatoryTags } from '../../services/simulators/useSimulators';
import { FixPreview } from '../simulators/shared/FixPreview';
import { CustomMultilegForm, MultilegForm, OutrightForm } from '../simulators/shared/OrderForms';
import { FieldTable } from './FieldTable';

type TableChoice = 'new' | 'cancel' | 'replace';

const SUB_TABS: { value: OrderKind; label: string }[] = [
  { value: 'outright', label: 'Outright 35=D' },
  { value: 'multileg', label: 'MultiLeg 35=AB' },
  { value: 'custom', label: 'Custom MultiLeg 35=AB' },
];

/**
 * Tab 2: the order-entry forms and builders of the FIX Client Simulator (one implementation), the message
 * they build for the selected client with its defaults, and the field specification of the message,
 * switching among New Order, Cancel Request F and Cancel/Replace G (AC is not accepted: a multileg order
 * is replaced with G too).
 */
export function OrderGenerationTab({
  doc,
  connector,
  brokerId,
  securities,
}: {
  doc: FixSpecDocument;
  connector: ClientConnector | null;
  brokerId: number | null;
  securities: readonly SecurityRef[];
}) {
  const [kind, setKind] = useState<OrderKind>('outright');
  const [table, setTable] = useState<TableChoice>('new');
  const [forms, setForms] = useState<OrderFormValues>(() => defaultOrderForms(new Date(), securities[0]?.symbol ?? ''));
  const msgType = msgTypeOf(kind);
  const mandatory = useMandatoryTags(msgType);
  const clientDefaults = useClientDefaults(connector?.id ?? null, brokerId ?? connector?.broker_id ?? null);

  const firstSymbol = securities[0]?.symbol ?? '';
  useEffect(() => {
    if (firstSymbol) setForms((f) => (f.outright.symbol ? f : defaultOrderForms(new Date(), firstSymbol)));
  }, [firstSymbol]);

  const multilegInfo = useMemo(() => strategyLegs('multileg', forms), [forms]);
  const customInfo = useMemo(() => strategyLegs('custom', forms), [forms]);
  const clOrdId = `${connector?.execution_id_prefix ?? 'EX'}-EXAMPLE-1`;

  const preview = useMemo(() => {
    if (!connector) return { raw: null, warnings: [] as string[], notice: 'Please select a client connector' };
    if (clientDefaults.loading) return { raw: null, warnings: [] as string[], notice: "Loading the client's FIX defaults…" };
    try {
      const { built, raw } = buildOrderMessage(kind, forms, {
        connector,
        clOrdId,
        now: new Date(),
        msgSeqNum: 2,
        mandatoryTags: mandatory,
        clientDefaults: clientDefaults.byMsgType[msgType],
        broker: clientDefaults.broker,
      });
      return { raw, warnings: built.warnings, notice: null };
    } catch (e) {
      return {
        raw: null,
        warnings: [] as string[],
        notice: `The message cannot be built yet: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
  }, [kind, forms, connector, clOrdId, mandatory, clientDefaults, msgType]);

  const patch =
    <K extends OrderKind>(k: K) =>
    (change: Partial<OrderFormValues[K]>) =>
      setForms((f) => ({ ...f, [k]: { ...f[k], ...change } }));
  const specOf = (t: string) => doc.messages.find((m) => m.msgType === t && m.execType === null);
  const shown = table === 'new' ? specOf(msgType) : table === 'cancel' ? specOf('F') : specOf('G');
  const replaceLabel = kind === 'outright' ? 'Cancel/Replace G' : 'Cancel/Replace G (not AC)';

  return (
    <Stack gap="md">
      <Tabs value={kind} onChange={(v) => setKind((v ?? 'outright') as OrderKind)} variant="pills" keepMounted={false}>
        <Tabs.List>
          {SUB_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value} fw={600}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          {kind === 'outright' && (
            <OutrightForm
              values={forms.outright}
              onChange={patch('outright')}
              variant="simulator"
              securities={securities}
              nextClOrdId={clOrdId}
            />
          )}
          {kind === 'multileg' && (
            <MultilegForm
              values={forms.multileg}
              onChange={patch('multileg')}
              variant="simulator"
              securities={securities}
              nextClOrdId={clOrdId}
              legs={multilegInfo.legs}
              legError={multilegInfo.error}
              symbol={multilegInfo.symbol}
            />
          )}
          {kind === 'custom' && (
            <CustomMultilegForm
              values={forms.custom}
              onChange={patch('custom')}
              variant="simulator"
              securities={securities}
              nextClOrdId={clOrdId}
              legs={customInfo.legs}
              legError={customInfo.error}
              symbol={customInfo.symbol}
            />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack gap="xs">
            <FixPreview raw={preview.raw} warnings={preview.warnings} notice={preview.notice} />
            <Text fz="xs" c="dimmed">
              Built for {doc.client.compId} by the same builders as the FIX Client Simulator, with this client&apos;s FIX defaults and
              Parties. The session assigns MsgSeqNum and SendingTime.
            </Text>
          </Stack>
        </Grid.Col>
      </Grid>
      <Stack gap={6}>
        <Title order={3} fz="h4">
          Field specification
        </Title>
        <SegmentedControl
          w="fit-content"
          value={table}
          onChange={(v) => setTable(v as TableChoice)}
          data={[
            { value: 'new', label: kind === 'outright' ? 'New Order 35=D' : 'New Order 35=AB' },
            { value: 'cancel', label: 'Cancel Request F' },
            { value: 'replace', label: replaceLabel },
          ]}
          data-testid="field-table-switch"
        />
        {table === 'replace' && kind !== 'outright' && (
          <Alert color="blue" variant="light" p={8}>
            <Text fz="xs">
              A multileg order is replaced with OrderCancelReplaceRequest (35=G) naming it by OrigClOrdID: 35=AC is not accepted and gets a
              BusinessMessageReject (35=j).
            </Text>
          </Alert>
        )}
        <FieldTable fields={shown?.fields ?? []} testId="order-field-table" />
      </Stack>
    </Stack>
  );
}
