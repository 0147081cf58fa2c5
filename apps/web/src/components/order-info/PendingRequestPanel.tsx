import { formatOrderPrice, formatQuantity, formatTimestamp, ORD_TYPE_LABELS, type OrdTypeCode } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowRight, IconMessageQuestion } from '@tabler/icons-react';
import { useState } from 'react';
import { useConfirmAction } from '../orders/ConfirmAction';
import { WhyDisabled } from '../orders/WhyDisabled';
import { refuseRequestConsequence } from '../../services/orders/consequences';
import { useTradeBlock } from '../../services/orders/tradeAccess';
import { actionErrorMessage, useInFlight, type OrderActions } from '../../services/orders/useOrderActions';

/**
 * A client's cancel (F) or cancel/replace (G) request waiting for the broker: what the client asks,
 * and Confirm / Refuse (a refusal needs a reason; it goes back to the client as OrderCancelReject).
 */
export function PendingRequestPanel({ order, actions }: { order: Order; actions: OrderActions }) {
  const request = order.pendingRequest;
  const inFlight = useInFlight(order.id);
  const block = useTradeBlock();
  const { confirm, dialog } = useConfirmAction();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!request || request.status !== 'PENDING') return null;
  const kind = request.request_type === 'F' ? 'cancel' : 'replace';
  const busy = inFlight !== undefined;

  const decide = async (decision: 'confirm' | 'refuse') => {
    // Refusing keeps the order as it is and tells the client why: confirmed first.
    if (decision === 'refuse' && !(await confirm(refuseRequestConsequence(order, kind, reason)))) return;
    setError(null);
    try {
      await actions.decide(order.id, kind, decision, reason);
      setReason('');
    } catch (e) {
      setError(actionErrorMessage(e));
    }
  };

  return (
    <Alert
      color="orange"
      variant="light"
      p={10}
      icon={<IconMessageQuestion size={18} />}
      title={kind === 'cancel' ? 'Client requests cancel' : 'Client requests replace'}
      data-testid="pending-request"
    >
      <Stack gap={6}>
        {dialog}
        {kind === 'replace' && (
          <Stack gap={2}>
            <Group gap={6} fz="xs" className="fd-num">
              <Text fz="xs" w={44} c="dimmed">
                Qty
              </Text>
              <Text fz="xs">{formatQuantity(order.orderqty)}</Text>
              <IconArrowRight size={12} />
              <Text fz="xs" fw={700}>
                {formatQuantity(request.new_orderqty ?? order.orderqty)}
              </Text>
            </Group>
            <Group gap={6} className="fd-num">
              <Text fz="xs" w={44} c="dimmed">
                Price
              </Text>
              <Text fz="xs">{formatOrderPrice(order.price)}</Text>
              <IconArrowRight size={12} />
              <Text fz="xs" fw={700}>
                {request.new_ordtype === '1' ? 'MKT' : formatOrderPrice(request.new_price ?? order.price)}
              </Text>
              {request.new_ordtype && request.new_ordtype !== order.ordtype && (
                <Text fz="xs" c="dimmed">
                  ({ORD_TYPE_LABELS[request.new_ordtype as OrdTypeCode] ?? request.new_ordtype})
                </Text>
              )}
            </Group>
          </Stack>
        )}
        <Text fz="xs" c="dimmed">
          {request.clordid} · received {formatTimestamp(request.created_at)} UTC{request.text ? ` · “${request.text}”` : ''}
        </Text>
        <TextInput
          size="xs"
          aria-label="Reason (required to refuse)"
          placeholder="Reason (required to refuse)"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={500}
        />
        <Group gap={6} grow>
          <WhyDisabled reason={block}>
            <Button
              size="xs"
              fullWidth
              color="orange"
              disabled={block !== null || (busy && inFlight !== `${kind}Confirm`)}
              loading={inFlight === `${kind}Confirm`}
              onClick={() => void decide('confirm')}
            >
              Confirm {kind === 'cancel' ? 'Cancel' : 'Replace'}
            </Button>
          </WhyDisabled>
          <WhyDisabled reason={block}>
            <Button
              size="xs"
              fullWidth
              variant="default"
              disabled={block !== null || reason.trim() === '' || (busy && inFlight !== `${kind}Refuse`)}
              loading={inFlight === `${kind}Refuse`}
              onClick={() => void decide('refuse')}
            >
              Refuse
            </Button>
          </WhyDisabled>
        </Group>
        {error && (
          <Text fz="xs" c="red.8" role="alert" data-testid="server-error">
            {error}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
