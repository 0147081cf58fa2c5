import {
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
import { IconAlertTriangle, IconCheck, IconMoonStars, IconX } from '@tabler/icons-react';
import { useState, type Ref } from 'react';
import { orderReferencePrice } from '../../../services/orders/referencePrice';
import { actionErrorMessage, useInFlight, type OrderActions } from '../../../services/orders/useOrderActions';
import { CheckLine } from './CheckLine';
import { PriceField, QuantityField } from '../../../components/orders/FillFields';

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

function ServerAnswer({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <Alert color="red" p={8} mt={6} title="The server refused" data-testid="server-error">
      <Text fz="xs">{error}</Text>
    </Alert>
  );
}

/** Pending (A): Accept with an optional message to the client, or Reject with a required reason. */
function AcceptRejectForm({ order, actions }: { order: Order; actions: OrderActions }) {
  const inFlight = useInFlight(order.id);
  const [notes, setNotes] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reasonMissing = rejectReasonProblem(reason) !== null;

  const run = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      setNotes('');
      setReason('');
    } catch (e) {
      setError(actionErrorMessage(e));
    }
  };

  return (
    <Stack gap={10} data-testid="accept-reject-panel">
      <Box>
        <TextInput
          id={FILL_FOCUS_ID}
          size="xs"
          label="Message to client (optional)"
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          maxLength={500}
        />
        <Button
          mt={6}
          size="xs"
          fullWidth
          color={inFlight === 'accept' ? 'orange' : 'blue'}
          leftSection={<IconCheck size={14} />}
          disabled={inFlight !== undefined && inFlight !== 'accept'}
          loading={inFlight === 'accept'}
          onClick={() => void run(() => actions.accept(order.id, notes))}
        >
          Accept
        </Button>
      </Box>
      <Box>
        <Textarea
          size="xs"
          label="Reject"
          aria-label="Rejection reason"
          placeholder="Rejection reason (required)"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={4}
          maxLength={500}
        />
        <Button
          mt={6}
          size="xs"
          fullWidth
          color="red"
          variant={reasonMissing ? 'light' : 'filled'}
          leftSection={<IconX size={14} />}
          disabled={reasonMissing || (inFlight !== undefined && inFlight !== 'reject')}
          loading={inFlight === 'reject'}
          onClick={() => void run(() => actions.reject(order.id, reason))}
        >
          Reject
        </Button>
      </Box>
      <ServerAnswer error={error} />
    </Stack>
  );
}

/** Accepted or partially filled: quantity and price with every check of spec 000 §5, Submit Fill. */
function FillForm({ order, actions, latestPrices, qtyRef }: { order: Order; actions: OrderActions; latestPrices: readonly LatestPrice[]; qtyRef?: Ref<HTMLInputElement> }) {
  const inFlight = useInFlight(order.id);
  const [qty, setQty] = useState('');
  const [px, setPx] = useState('');
  const [error, setError] = useState<string | null>(null);
  const priced = pricedOrder(order);
  const remaining = { leavesQty: order.leavesqty, orderQty: order.orderqty };
  const qtyCheck = qty.trim() === '' ? null : checkFillQuantity(qty, remaining);
  const reference = orderReferencePrice(latestPrices, order);
  const pxCheck = px.trim() === '' ? null : checkFillPrice(px, priced, reference?.price);
  const sanity = px.trim() === '' ? null : checkPriceSanity(px, reference);
  const checks = [qtyCheck, pxCheck].filter((c) => c !== null);
  const submittable = canSubmitFill(qty, px, checks) && inFlight === undefined;
  const canDoneForDay = eventsFor(order).includes('doneForDay');

  // Spec 000 §5 also names a submit-time alert for a price through the limit, but Submit Fill is disabled
  // while any check is an error, and the limit breach is one (shown under the price): that alert could
  // never show, so there is none. The server refuses such a fill in any case.
  const submit = async () => {
    if (!canSubmitFill(qty, px, checks)) return;
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
      setError(actionErrorMessage(e));
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
              <Button variant="subtle" size="compact-xs" px={4} onClick={() => setQty(Decimal.from(order.leavesqty).toString())} tabIndex={-1} title="Fill the remaining quantity">
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
                <Button variant="subtle" size="compact-xs" px={4} onClick={() => setPx(order.price!)} tabIndex={-1} title="Use the limit price">
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
        <Button type="submit" size="xs" disabled={!submittable} loading={inFlight === 'fill'}>
          Submit Fill
        </Button>
        {canDoneForDay && (
          <DoneForDayButton order={order} actions={actions} variant="default" onError={setError} />
        )}
      </Group>
      <ServerAnswer error={error} />
    </Box>
  );
}

function DoneForDayButton({ order, actions, variant, onError }: { order: Order; actions: OrderActions; variant: 'filled' | 'default'; onError: (e: string | null) => void }) {
  const inFlight = useInFlight(order.id);
  return (
    <Button
      size="xs"
      color="dark"
      variant={variant}
      leftSection={<IconMoonStars size={14} />}
      disabled={inFlight !== undefined && inFlight !== 'doneForDay'}
      loading={inFlight === 'doneForDay'}
      title={order.ordstatus === OrdStatus.PartiallyFilled ? `The unfilled ${formatQuantity(order.leavesqty)} expire for the day` : undefined}
      onClick={() => {
        onError(null);
        actions.doneForDay(order.id).catch((e: unknown) => onError(actionErrorMessage(e)));
      }}
    >
      Done for Day
    </Button>
  );
}

/**
 * The fill / accept / reject panel (spec 000 §2): what the broker can do with the order now. Every
 * check is the domain's; the server re-checks and its refusal is shown here with its own words.
 */
export function FillPanel({ order, actions, latestPrices, qtyRef }: { order: Order; actions: OrderActions; latestPrices: readonly LatestPrice[]; qtyRef?: Ref<HTMLInputElement> }) {
  const [error, setError] = useState<string | null>(null);
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
        {/* Spec 000 §2: "warning Order Fully Filled": nothing more can be filled, which the broker should notice. */}
        <Alert color="yellow" variant="light" p={8} icon={<IconAlertTriangle size={16} />} title="Order Fully Filled" data-testid="fully-filled" data-level="warning">
          <Text fz="xs">
            {formatQuantity(order.cumqty)} filled at an average of {formatPrice(order.avgpx)}.
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
        {ordStatusLabel(order.ordstatus)}: no further action on this order.
      </Text>
    );
  }

  return (
    <Paper withBorder p={10} radius="sm" data-testid="fill-panel">
      {body}
    </Paper>
  );
}
