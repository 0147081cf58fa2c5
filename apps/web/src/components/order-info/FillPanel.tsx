import {
  formatAveragePrice,
  allowedEvents,
  isAwaitingAcceptance,
  canSubmitFill,
  checkFillPrice,
  checkFillQuantity,
  checkPriceSanity,
  Decimal,
  formatPrice,
  formatQuantity,
  isOrdStatusCode,
  normalizeSide,
  ordStatusLabel,
  OrdStatus,
  OrdType,
  rejectReasonProblem,
  Side,
  type LatestPrice,
  type OrdTypeCode,
  type PricedOrder,
} from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import { Alert, Box, Button, Group, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBan, IconCheck, IconCircleCheck, IconMoonStars, IconX } from '@tabler/icons-react';
import { useState, type Ref } from 'react';
import { brokerCancelConsequence, doneForDayConsequence, rejectConsequence } from '../../services/orders/consequences';
import { orderReferencePrice } from '../../services/orders/referencePrice';
import { useTradeBlock } from '../../services/orders/tradeAccess';
import { actionFailure, useInFlight, type OrderActions } from '../../services/orders/useOrderActions';
import { CheckLine } from './CheckLine';
import { PriceField, QuantityField } from '../orders/FillFields';
import { useConfirmAction } from '../orders/ConfirmAction';
import { WhyDisabled } from '../orders/WhyDisabled';

/** A failed action as the panel shows it: refused by the server, or the server not reached. */
type Failure = { title: string; message: string } | null;

/**
 * The id of the element Enter on an Orders row moves to (the first field the broker acts with). Exactly
 * one element of the Order Info panel carries it at a time.
 */
export const FILL_FOCUS_ID = 'fill-panel-first';

export function pricedOrder(order: Order): PricedOrder {
  return {
    side: normalizeSide(order.side) ?? Side.Buy,
    ordType: (order.ordtype === OrdType.Market ? OrdType.Market : OrdType.Limit) as OrdTypeCode,
    price: order.price,
    isStrategy: order.legs.length > 0,
  };
}

export function eventsFor(order: Order) {
  if (!isOrdStatusCode(order.ordstatus)) return [];
  const events = allowedEvents(order.ordstatus);
  // A client's request on an order the broker has not accepted yet: the request is decided first, no fills.
  return isAwaitingAcceptance(order) ? events.filter((e) => e !== 'fill') : events;
}

/** The limit label of the price field: the limit and whether it is a maximum (buy) or minimum (sell). */
export function priceLabel(order: Order): string {
  if (order.ordtype === OrdType.Market || order.price === null) return 'Fill price (market order: no limit)';
  return `Fill price (limit ${formatPrice(order.price)}, ${normalizeSide(order.side) === Side.Sell ? 'minimum' : 'maximum'})`;
}

function ServerAnswer({ error }: { error: Failure }) {
  if (!error) return null;
  return (
    <Alert color="red" p={8} mt={6} title={error.title} data-testid="server-error">
      <Text fz="xs">{error.message}</Text>
    </Alert>
  );
}

/** Pending (A): Accept with an optional message to the client, or Reject with a required reason. */
function AcceptRejectForm({ order, actions }: { order: Order; actions: OrderActions }) {
  const inFlight = useInFlight(order.id);
  const block = useTradeBlock();
  const { confirm, dialog } = useConfirmAction();
  const [notes, setNotes] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Failure>(null);
  const reasonMissing = rejectReasonProblem(reason) !== null;
  const askReject = () => {
    if (block !== null || reasonMissing || inFlight !== undefined) return;
    void confirm(rejectConsequence(order, reason)).then((ok) => {
      if (ok) void run(() => actions.reject(order.id, reason));
    });
  };

  const run = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      setNotes('');
      setReason('');
    } catch (e) {
      setError(actionFailure(e));
    }
  };

  return (
    <Stack gap={10} data-testid="accept-reject-panel">
      {dialog}
      <Box
        component="form"
        aria-label="Accept order"
        onSubmit={(e) => {
          e.preventDefault();
          if (!block && inFlight === undefined) void run(() => actions.accept(order.id, notes));
        }}
      >
        <TextInput
          id={FILL_FOCUS_ID}
          size="xs"
          label="Message to client (optional)"
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          maxLength={500}
        />
        <WhyDisabled reason={block}>
          <Button
            type="submit"
            mt={6}
            size="xs"
            fullWidth
            color={inFlight === 'accept' ? 'orange' : 'blue'}
            leftSection={<IconCheck size={14} />}
            disabled={block !== null || (inFlight !== undefined && inFlight !== 'accept')}
            loading={inFlight === 'accept'}
            data-shortcut="accept"
          >
            Accept
          </Button>
        </WhyDisabled>
      </Box>
      <Box>
        <Textarea
          size="xs"
          label="Reject"
          aria-label="Rejection reason"
          placeholder="Rejection reason (required)"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          // Enter rejects (after the confirmation), as Enter submits the other forms; Shift+Enter is a new line.
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              askReject();
            }
          }}
          data-shortcut="reject-reason"
          autosize
          minRows={2}
          maxRows={4}
          maxLength={500}
        />
        <WhyDisabled reason={block}>
          <Button
            mt={6}
            size="xs"
            fullWidth
            color="red"
            variant={reasonMissing ? 'light' : 'filled'}
            leftSection={<IconX size={14} />}
            disabled={block !== null || reasonMissing || (inFlight !== undefined && inFlight !== 'reject')}
            loading={inFlight === 'reject'}
            onClick={askReject}
          >
            Reject
          </Button>
        </WhyDisabled>
      </Box>
      <ServerAnswer error={error} />
    </Stack>
  );
}

/** Accepted or partially filled: quantity and price with every check of spec 000 §5, Submit Fill. */
function FillForm({
  order,
  actions,
  latestPrices,
  qtyRef,
}: {
  order: Order;
  actions: OrderActions;
  latestPrices: readonly LatestPrice[];
  qtyRef?: Ref<HTMLInputElement>;
}) {
  const inFlight = useInFlight(order.id);
  const block = useTradeBlock();
  const [qty, setQty] = useState('');
  const [px, setPx] = useState('');
  const [error, setError] = useState<Failure>(null);
  const priced = pricedOrder(order);
  const remaining = { leavesQty: order.leavesqty, orderQty: order.orderqty };
  const qtyCheck = qty.trim() === '' ? null : checkFillQuantity(qty, remaining);
  const reference = orderReferencePrice(latestPrices, order);
  const pxCheck = px.trim() === '' ? null : checkFillPrice(px, priced, reference?.price);
  const sanity = px.trim() === '' ? null : checkPriceSanity(px, reference);
  const checks = [qtyCheck, pxCheck].filter((c) => c !== null);
  const submittable = canSubmitFill(qty, px, checks) && inFlight === undefined && block === null;
  const canDoneForDay = eventsFor(order).includes('doneForDay');

  // Spec 000 §5 also names a submit-time alert for a price through the limit, but Submit Fill is disabled
  // while any check is an error, and the limit breach is one (shown under the price): that alert could
  // never show, so there is none. The server refuses such a fill in any case.
  const submit = async () => {
    if (!canSubmitFill(qty, px, checks) || block !== null) return;
    setError(null);
    try {
      const answer = await actions.fill(order.id, { fillQty: qty, fillPrice: px });
      notifications.show({
        color: 'green',
        title: answer.fullyFilled ? 'Order fully filled' : 'Fill booked',
        message: `${formatQuantity(qty)} @ ${formatPrice(px)} on ${order.brokerorderid}`,
        autoClose: 3000,
      });
      setQty('');
      setPx('');
    } catch (e) {
      setError(actionFailure(e));
    }
  };

  return (
    <Box
      component="form"
      aria-label="Fill order"
      data-testid="fill-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Group gap={8} align="flex-start" grow>
        <Box>
          <QuantityField
            {...(qtyRef ? { inputRef: qtyRef } : {})}
            id={FILL_FOCUS_ID}
            label={`Fill quantity (leaves ${formatQuantity(order.leavesqty)})`}
            ariaLabel="Fill quantity"
            value={qty}
            onChange={setQty}
            action={
              <Button
                variant="subtle"
                size="compact-xs"
                px={4}
                onClick={() => setQty(Decimal.from(order.leavesqty).toString())}
                tabIndex={-1}
                title="Fill the remaining quantity"
              >
                Max
              </Button>
            }
          />
          <CheckLine check={qtyCheck} testId="fill-qty-check" />
        </Box>
        <Box>
          <PriceField
            label={priceLabel(order)}
            ariaLabel="Fill price"
            value={px}
            onChange={setPx}
            action={
              order.price !== null ? (
                <Button
                  variant="subtle"
                  size="compact-xs"
                  px={4}
                  onClick={() => setPx(order.price!)}
                  tabIndex={-1}
                  title="Use the limit price"
                >
                  Limit
                </Button>
              ) : null
            }
          />
          <CheckLine check={pxCheck} testId="fill-price-check" />
          <CheckLine check={sanity} testId="fill-sanity-check" />
        </Box>
      </Group>
      <Group gap={8} mt={10} grow>
        <WhyDisabled reason={block}>
          <Button type="submit" size="xs" fullWidth disabled={!submittable} loading={inFlight === 'fill'}>
            Submit Fill
          </Button>
        </WhyDisabled>
        {canDoneForDay && <DoneForDayButton order={order} actions={actions} variant="default" onError={setError} />}
      </Group>
      <ServerAnswer error={error} />
      {eventsFor(order).includes('brokerCancel') && <BrokerCancel order={order} actions={actions} onError={setError} />}
    </Box>
  );
}

/**
 * A broker cancel (unsolicited): ends an accepted or partially filled order that will not be worked
 * further. A reason is required; it goes to the client as Text on the Canceled (150=4) report.
 */
function BrokerCancel({ order, actions, onError }: { order: Order; actions: OrderActions; onError: (e: Failure) => void }) {
  const inFlight = useInFlight(order.id);
  const block = useTradeBlock();
  const { confirm, dialog } = useConfirmAction();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  if (!open) {
    return (
      <WhyDisabled reason={block}>
        <Button
          mt={8}
          size="compact-xs"
          variant="subtle"
          color="red"
          leftSection={<IconBan size={13} />}
          disabled={block !== null}
          onClick={() => setOpen(true)}
        >
          Cancel order…
        </Button>
      </WhyDisabled>
    );
  }
  const cancel = async () => {
    if (!reason.trim() || !(await confirm(brokerCancelConsequence(order, reason)))) return;
    onError(null);
    try {
      await actions.cancel(order.id, reason);
      setReason('');
      setOpen(false);
    } catch (e) {
      onError(actionFailure(e));
    }
  };
  return (
    <Group gap={6} mt={8} align="flex-end" wrap="nowrap" data-testid="broker-cancel">
      {dialog}
      <TextInput
        size="xs"
        style={{ flex: 1 }}
        label="Cancel reason (sent to the client)"
        placeholder="Reason (required)"
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter here cancels (after the confirmation), not the fill form around it.
          if (e.key === 'Enter') {
            e.preventDefault();
            void cancel();
          }
        }}
        data-autofocus
        autoFocus
      />
      <WhyDisabled reason={block} inline>
        <Button
          size="xs"
          color="red"
          disabled={block !== null || !reason.trim() || (inFlight !== undefined && inFlight !== 'cancel')}
          loading={inFlight === 'cancel'}
          onClick={() => void cancel()}
        >
          Cancel Order
        </Button>
      </WhyDisabled>
      <Button size="xs" variant="default" onClick={() => setOpen(false)}>
        Keep
      </Button>
    </Group>
  );
}

function DoneForDayButton({
  order,
  actions,
  variant,
  onError,
}: {
  order: Order;
  actions: OrderActions;
  variant: 'filled' | 'default';
  onError: (e: Failure) => void;
}) {
  const inFlight = useInFlight(order.id);
  const block = useTradeBlock();
  const { confirm, dialog } = useConfirmAction();
  return (
    <WhyDisabled reason={block}>
      {dialog}
      <Button
        size="xs"
        fullWidth
        color="dark"
        variant={variant}
        leftSection={<IconMoonStars size={14} />}
        disabled={block !== null || (inFlight !== undefined && inFlight !== 'doneForDay')}
        loading={inFlight === 'doneForDay'}
        data-shortcut="done-for-day"
        onClick={() => {
          onError(null);
          void confirm(doneForDayConsequence(order)).then((ok) => {
            if (ok) actions.doneForDay(order.id).catch((e: unknown) => onError(actionFailure(e)));
          });
        }}
      >
        Done for Day
      </Button>
    </WhyDisabled>
  );
}

/** Why nothing can be done on the order now, and what the broker can do instead. */
function noActionText(order: Pick<Order, 'ordstatus'>): string {
  const label = ordStatusLabel(order.ordstatus);
  switch (order.ordstatus) {
    case OrdStatus.PendingReplace:
    case OrdStatus.PendingCancel:
      return `${label}: decide the client's request above (Confirm or Refuse, with a reason). The order can be worked again once it is decided.`;
    default:
      return `${label}: the order is closed. Its executions and history stay below.`;
  }
}

/**
 * The fill / accept / reject panel (spec 000 §2): what the broker can do with the order now. Every
 * check is the domain's; the server re-checks and its refusal is shown here with its own words.
 */
export function FillPanel({
  order,
  actions,
  latestPrices,
  qtyRef,
}: {
  order: Order;
  actions: OrderActions;
  latestPrices: readonly LatestPrice[];
  qtyRef?: Ref<HTMLInputElement>;
}) {
  const [error, setError] = useState<Failure>(null);
  const events = eventsFor(order);
  const leaves = Decimal.tryFrom(order.leavesqty) ?? Decimal.ZERO;

  let body;
  if (order.ordstatus === OrdStatus.PendingNew) {
    body = <AcceptRejectForm key={order.id} order={order} actions={actions} />;
  } else if (events.includes('fill') && leaves.isPositive()) {
    body = <FillForm key={order.id} order={order} actions={actions} latestPrices={latestPrices} qtyRef={qtyRef} />;
  } else if (leaves.isZero() && Decimal.from(order.cumqty).gte(order.orderqty)) {
    body = (
      <Stack gap={8}>
        {/* Nothing more can be filled: an information, not a warning. */}
        <Alert
          color="blue"
          variant="light"
          p={8}
          icon={<IconCircleCheck size={16} />}
          title="Order Fully Filled"
          data-testid="fully-filled"
          data-level="info"
        >
          <Text fz="xs">
            {formatQuantity(order.cumqty)} filled at an average of {formatAveragePrice(order.avgpx, order.price)}.
            {order.ordstatus === OrdStatus.Filled ? ' Mark it done for the day when the client has confirmed.' : ''}
          </Text>
        </Alert>
        {events.includes('doneForDay') && <DoneForDayButton order={order} actions={actions} variant="filled" onError={setError} />}
        <ServerAnswer error={error} />
      </Stack>
    );
  } else {
    body = (
      <Text fz="xs" c="dimmed" data-testid="no-action">
        {noActionText(order)}
      </Text>
    );
  }

  return (
    <Paper withBorder p={10} radius="sm" data-testid="fill-panel">
      {body}
    </Paper>
  );
}
