import { SEND_SUCCESS_TEXT, SendErrorText } from '@fixdesk/domain';
import type { ClientConnector, SendOrderResponse, TestClientStatus } from '@fixdesk/protocol';
import { Alert, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '@fixdesk/client';
import { simulatorApi } from '../../../services/simulators/http';
import { useRoleTradeBlock } from '../../../services/orders/tradeAccess';
import { WhyDisabled } from '../../../components/orders/WhyDisabled';
import {
  buildOrderMessage,
  clientSendProblem,
  defaultOrderForms,
  msgTypeOf,
  simulatorSendProblem,
  strategyLegs,
  type OrderFormValues,
  type OrderKind,
} from '../../../services/simulators/orderForms';
import type { SecurityRef } from '@fixdesk/client';
import { useClientDefaults, useMandatoryTags } from '../../../services/simulators/useSimulators';
import type { FormVariant } from './FormParts';
import { FixPreview } from './FixPreview';
import { CustomMultilegForm, MultilegForm, OutrightForm } from './OrderForms';

/** Spec 001 §9: a success banner clears after 3 s. */
export const SUCCESS_BANNER_MS = 3000;

const TAB_LABELS: Record<FormVariant, Record<OrderKind, string>> = {
  simulator: { outright: 'Outright', multileg: 'Multileg', custom: 'Custom Multileg' },
  client: { outright: 'Outright Orders', multileg: 'Multileg Orders', custom: 'Custom Multileg' },
};

/** The text for a failed send (spec 001 §8): the server's own words, else the network failure. */
function sendErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.message || SendErrorText.failed;
  return SendErrorText.network(error instanceof Error ? error.message : String(error));
}

export interface OrderEntryProps {
  variant: FormVariant;
  connector: ClientConnector | null;
  status: TestClientStatus | null;
  securities: readonly SecurityRef[];
  onSent?: (response: SendOrderResponse, kind: OrderKind) => void;
}

/**
 * Order entry with the three tabs, the FIX preview and sending, shared by the FIX Client Simulator and
 * the FIX Client's New Order modal. The message is built by the domain's builders, checked by the
 * screen's rules (spec 000 §5 or spec 001 §5), and sent through the selected client's test session.
 */
export function OrderEntry({ variant, connector, status, securities, onSent }: OrderEntryProps) {
  const [kind, setKind] = useState<OrderKind>('outright');
  const [forms, setForms] = useState<OrderFormValues>(() => defaultOrderForms(new Date(), securities[0]?.symbol ?? ''));
  const [sending, setSending] = useState(false);
  const roleBlock = useRoleTradeBlock();
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const bannerTimer = useRef<number | null>(null);
  const msgType = msgTypeOf(kind);
  const mandatory = useMandatoryTags(msgType);
  const clientDefaults = useClientDefaults(connector?.id ?? null, connector?.broker_id ?? null);
  const defaultsFor = clientDefaults.byMsgType[msgType];

  // The symbol pickers start on the first security once the list arrives.
  const firstSymbol = securities[0]?.symbol ?? '';
  useEffect(() => {
    if (!firstSymbol) return;
    setForms((f) => ({
      outright: f.outright.symbol ? f.outright : { ...f.outright, symbol: firstSymbol },
      multileg: f.multileg.stripSymbol ? f.multileg : { ...f.multileg, stripSymbol: firstSymbol },
      custom: {
        ...f.custom,
        buyLegs: f.custom.buyLegs.map((l) => (l.symbol ? l : { ...l, symbol: firstSymbol })),
        sellLegs: f.custom.sellLegs.map((l) => (l.symbol ? l : { ...l, symbol: firstSymbol })),
      },
    }));
  }, [firstSymbol]);

  useEffect(
    () => () => {
      if (bannerTimer.current !== null) window.clearTimeout(bannerTimer.current);
    },
    [],
  );

  const show = (b: { kind: 'success' | 'error'; text: string }) => {
    if (bannerTimer.current !== null) window.clearTimeout(bannerTimer.current);
    bannerTimer.current = null;
    setBanner(b);
    if (b.kind === 'success') bannerTimer.current = window.setTimeout(() => setBanner(null), SUCCESS_BANNER_MS);
  };

  const strategy = useMemo(() => (kind === 'outright' ? null : strategyLegs(kind, forms)), [kind, forms]);
  const multilegInfo = useMemo(() => strategyLegs('multileg', forms), [forms]);
  const customInfo = useMemo(() => strategyLegs('custom', forms), [forms]);
  const nextClOrdId = status?.nextClOrdId ?? '';

  const preview = useMemo(() => {
    if (!connector) return { raw: null, warnings: [] as string[], notice: 'Please select a client connector' };
    // Until the client's defaults arrive the message would be built without them: say so rather than show it.
    if (clientDefaults.loading) return { raw: null, warnings: [] as string[], notice: "Loading the client's FIX defaults…" };
    const loadProblem = [
      ...(clientDefaults.error
        ? [`Client FIX defaults could not be loaded (${clientDefaults.error}); the message is built without them`]
        : []),
      ...(clientDefaults.brokerError ? [clientDefaults.brokerError] : []),
    ];
    try {
      const { built, raw } = buildOrderMessage(kind, forms, {
        connector,
        clOrdId: nextClOrdId,
        now: new Date(),
        msgSeqNum: status?.nextSenderMsgSeqNum,
        mandatoryTags: mandatory,
        clientDefaults: defaultsFor,
        broker: clientDefaults.broker,
      });
      return { raw, warnings: [...loadProblem, ...built.warnings], notice: null };
    } catch (e) {
      return { raw: null, warnings: loadProblem, notice: `The message cannot be built yet: ${e instanceof Error ? e.message : String(e)}` };
    }
  }, [kind, forms, connector, nextClOrdId, status?.nextSenderMsgSeqNum, mandatory, clientDefaults, defaultsFor]);

  const patch =
    <K extends OrderKind>(k: K) =>
    (change: Partial<OrderFormValues[K]>) =>
      setForms((f) => ({ ...f, [k]: { ...f[k], ...change } }));

  const send = async () => {
    if (roleBlock) return;
    setBanner(null);
    const problem =
      variant === 'simulator'
        ? simulatorSendProblem(kind, forms, { connectorSelected: connector !== null, fixClientRunning: status?.fixConnected === true })
        : clientSendProblem(kind, forms, connector !== null);
    if (problem || !connector) {
      show({ kind: 'error', text: problem ?? 'Please select a client connector first' });
      return;
    }
    let raw: string;
    try {
      raw = buildOrderMessage(kind, forms, {
        connector,
        clOrdId: nextClOrdId,
        now: new Date(),
        msgSeqNum: status?.nextSenderMsgSeqNum,
        clientDefaults: defaultsFor,
        broker: clientDefaults.broker,
      }).raw;
    } catch (e) {
      show({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
      return;
    }
    setSending(true);
    try {
      const r = await simulatorApi.sendOrder(connector.comp_id, raw);
      if (!r.success) {
        show({ kind: 'error', text: r.error ?? SendErrorText.failed });
        return;
      }
      show({ kind: 'success', text: `${SEND_SUCCESS_TEXT[kind]} (ClOrdID ${r.clOrdId})` });
      // A typed ClOrdID is used once; the next order takes the rule's next id again.
      setForms((f) => ({ ...f, [kind]: { ...f[kind], clOrdId: '' } }));
      onSent?.(r, kind);
    } catch (e) {
      show({ kind: 'error', text: sendErrorText(e) });
    } finally {
      setSending(false);
    }
  };

  const labels = TAB_LABELS[variant];
  return (
    <Stack gap="sm">
      <Tabs value={kind} onChange={(v) => setKind((v ?? 'outright') as OrderKind)} keepMounted={false} variant="outline">
        <Tabs.List>
          {(['outright', 'multileg', 'custom'] as const).map((k) => (
            <Tabs.Tab key={k} value={k} fw={600}>
              {labels[k]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="outright" pt="sm">
          <OutrightForm
            values={forms.outright}
            onChange={patch('outright')}
            variant={variant}
            securities={securities}
            nextClOrdId={nextClOrdId}
          />
        </Tabs.Panel>
        <Tabs.Panel value="multileg" pt="sm">
          <MultilegForm
            values={forms.multileg}
            onChange={patch('multileg')}
            variant={variant}
            securities={securities}
            nextClOrdId={nextClOrdId}
            legs={multilegInfo.legs}
            legError={multilegInfo.error}
            symbol={multilegInfo.symbol}
          />
        </Tabs.Panel>
        <Tabs.Panel value="custom" pt="sm">
          <CustomMultilegForm
            values={forms.custom}
            onChange={patch('custom')}
            variant={variant}
            securities={securities}
            nextClOrdId={nextClOrdId}
            legs={customInfo.legs}
            legError={customInfo.error}
            symbol={customInfo.symbol}
          />
        </Tabs.Panel>
      </Tabs>

      <FixPreview raw={preview.raw} warnings={preview.warnings} notice={preview.notice} />

      {banner && (
        <Alert
          color={banner.kind === 'success' ? 'teal' : 'red'}
          variant="light"
          withCloseButton
          onClose={() => setBanner(null)}
          icon={banner.kind === 'success' ? <IconCircleCheck size={16} /> : <IconAlertCircle size={16} />}
          p={8}
          role={banner.kind === 'error' ? 'alert' : 'status'}
          data-testid={banner.kind === 'success' ? 'send-success' : 'send-error'}
        >
          <Text fz="sm">{banner.text}</Text>
        </Alert>
      )}

      <Group justify="space-between">
        <Text fz="xs" c="dimmed">
          {kind === 'outright'
            ? 'NewOrderSingle (35=D, 167=FUT)'
            : `NewOrderMultileg (35=AB, 167=MLEG)${strategy && strategy.legs.length ? `, ${strategy.legs.length} legs` : ''}`}
          {nextClOrdId ? ` · next ClOrdID ${nextClOrdId}` : ''}
        </Text>
        <WhyDisabled reason={roleBlock} inline>
          <Button
            leftSection={<IconSend size={15} />}
            onClick={() => void send()}
            loading={sending || clientDefaults.loading}
            disabled={roleBlock !== null}
            data-testid="send-order"
          >
            {kind === 'outright' ? 'Send Order' : kind === 'multileg' ? 'Send Multileg Order' : 'Send Custom Order'}
          </Button>
        </WhyDisabled>
      </Group>
    </Stack>
  );
}
