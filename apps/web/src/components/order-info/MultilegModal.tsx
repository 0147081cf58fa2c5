import {
  formatAveragePrice,
  canSubmitFill,
  checkFillPrice,
  checkFillQuantity,
  checkLegFillPrice,
  checkLegFillQuantity,
  checkPriceSanity,
  Decimal,
  formatBlotterPrice,
  formatMaturity,
  formatOrderPrice,
  formatPrice,
  formatQuantity,
  legLeavesQuantity,
  legQuantity,
  multilegFillMode,
  MultilegFillText,
  normalizeSide,
  ORD_TYPE_LABELS,
  parseStrategySymbol,
  Side,
  symbolParseErrorMessage,
  type LatestPrice,
  type LegProgress,
  type OrdTypeCode,
} from '@fixdesk/domain';
import type { ClientConnector, Order, OrderLeg } from '@fixdesk/protocol';
import { Alert, Badge, Box, Button, Group, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ColDef, GetRowIdParams, RowSelectedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { legReferencePrice, orderReferencePrice } from '../../services/orders/referencePrice';
import { useTradeBlock } from '../../services/orders/tradeAccess';
import { actionErrorMessage, useInFlight, type OrderActions } from '../../services/orders/useOrderActions';
import { WhyDisabled } from '../orders/WhyDisabled';
import { legsGridTheme } from '../grid/gridTheme';
import { CheckLine } from './CheckLine';
import classes from './MultilegModal.module.css';
import { eventsFor, pricedOrder, priceLabel } from './FillPanel';
import { sideVerb, traderParty } from './orderText';
import { PriceField, QuantityField } from '../orders/FillFields';

function Info({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box>
      <Text fz={10.5} tt="uppercase" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text fz="sm" fw={600} className="fd-num" data-testid={testId}>
        {value}
      </Text>
    </Box>
  );
}

/**
 * Two labelled inputs and their submit button on one line, each input's checks under it. A grid
 * rather than a growing Group: the button's column is as wide as its text, so the button is never
 * squeezed below it and never pushed past the panel's edge, and the button sits level with the
 * inputs (bottom-aligned) whatever the labels' height, even when a long label wraps.
 */
function EntryRow({ fields, checks, submit }: { fields: [ReactNode, ReactNode]; checks: [ReactNode, ReactNode]; submit: ReactNode }) {
  return (
    <div className={classes.entryRow}>
      {fields[0]}
      {fields[1]}
      {submit}
      <div className={classes.entryChecks}>{checks[0]}</div>
      <div className={classes.entryChecks}>{checks[1]}</div>
    </div>
  );
}

function legProgress(order: Order): LegProgress[] {
  const out: LegProgress[] = [];
  for (const leg of order.legs) out[leg.legIndex] = { side: leg.legSide, ratio: leg.legRatioQty, cumQty: leg.legCumQty };
  return out;
}

/** The whole strategy at the spread (or strip) price: quantity in strategy units, price may be zero or negative. */
function SpreadFillEntry({
  order,
  actions,
  latestPrices,
  blocked,
  note,
}: {
  order: Order;
  actions: OrderActions;
  latestPrices: readonly LatestPrice[];
  blocked: string | null;
  note: string | null;
}) {
  const enabled = blocked === null;
  const inFlight = useInFlight(order.id);
  const [qty, setQty] = useState('');
  const [px, setPx] = useState('');
  const [error, setError] = useState<string | null>(null);
  const priced = pricedOrder(order);
  const qtyCheck = qty.trim() === '' ? null : checkFillQuantity(qty, { leavesQty: order.leavesqty, orderQty: order.orderqty });
  const reference = orderReferencePrice(latestPrices, order);
  const pxCheck = px.trim() === '' ? null : checkFillPrice(px, priced, reference?.price);
  const sanity = px.trim() === '' ? null : checkPriceSanity(px, reference);
  const checks = [qtyCheck, pxCheck].filter((c) => c !== null);
  const submittable = enabled && canSubmitFill(qty, px, checks) && inFlight === undefined;

  // No submit-time limit alert: Submit is disabled while the price breaks the limit (see FillPanel).
  const submit = async () => {
    if (!submittable) return;
    setError(null);
    try {
      await actions.fill(order.id, { fillQty: qty, fillPrice: px });
      notifications.show({
        color: 'green',
        title: 'Spread fill booked',
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
    <Paper withBorder p={10} radius="sm" data-testid="spread-fill">
      <Text fz="xs" fw={700} tt="uppercase" c="gray.7" mb={6}>
        Spread fill
      </Text>
      <BlockedNote reason={note} />
      <Box
        component="form"
        aria-label="Spread fill"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <EntryRow
          fields={[
            <QuantityField
              key="qty"
              label={`Quantity (leaves ${formatQuantity(order.leavesqty)})`}
              ariaLabel="Spread fill quantity"
              value={qty}
              onChange={setQty}
              disabled={!enabled}
            />,
            <PriceField
              key="px"
              label={priceLabel(order).replace('Fill price', 'Spread price')}
              ariaLabel="Spread fill price"
              value={px}
              onChange={setPx}
              disabled={!enabled}
            />,
          ]}
          checks={[
            <CheckLine key="qty" check={qtyCheck} />,
            <Fragment key="px">
              <CheckLine check={pxCheck} />
              <CheckLine check={sanity} />
            </Fragment>,
          ]}
          submit={
            <WhyDisabled reason={blocked}>
              <Button type="submit" size="xs" disabled={!submittable} loading={inFlight === 'fill'}>
                Submit Spread Fill
              </Button>
            </WhyDisabled>
          }
        />
        {error && (
          <Text fz="xs" c="red.8" role="alert" mt={4} data-testid="server-error">
            {error}
          </Text>
        )}
      </Box>
    </Paper>
  );
}

interface LegRow {
  leg: OrderLeg;
  legQty: string;
  leaves: string;
}

const legColumns: ColDef<LegRow>[] = [
  { headerName: 'Leg', valueGetter: (p) => (p.data ? p.data.leg.legIndex + 1 : ''), width: 52 },
  {
    headerName: 'Contract',
    valueGetter: (p) =>
      p.data ? `${p.data.leg.legSymbol} ${p.data.leg.contractMonth ?? formatMaturity(p.data.leg.legMaturityMonthYear)}` : '',
    flex: 1,
    minWidth: 110,
  },
  {
    headerName: 'Ratio',
    valueGetter: (p) => p.data?.leg.legRatioQty ?? '',
    width: 62,
    type: 'rightAligned',
    cellClass: ['fd-num', 'ag-right-aligned-cell'],
  },
  {
    headerName: 'Qty',
    valueGetter: (p) => (p.data ? formatQuantity(p.data.legQty) : ''),
    width: 68,
    type: 'rightAligned',
    cellClass: ['fd-num', 'ag-right-aligned-cell'],
  },
  {
    headerName: 'Filled',
    valueGetter: (p) => (p.data ? formatQuantity(p.data.leg.legCumQty) : ''),
    width: 66,
    type: 'rightAligned',
    cellClass: ['fd-num', 'ag-right-aligned-cell'],
  },
  {
    headerName: 'Leaves',
    valueGetter: (p) => (p.data ? formatQuantity(p.data.leaves) : ''),
    width: 66,
    type: 'rightAligned',
    cellClass: ['fd-num', 'ag-right-aligned-cell'],
  },
  {
    headerName: 'Avg Px',
    // A spread fill executes the legs at the strategy's price: a leg has no price of its own then (not 0.00).
    valueGetter: (p) =>
      !p.data || !(Number(p.data.leg.legCumQty) > 0)
        ? ''
        : Number(p.data.leg.legAvgPx) > 0
          ? formatBlotterPrice(p.data.leg.legAvgPx)
          : 'at spread',
    tooltipValueGetter: (p) => (p.value === 'at spread' ? 'Filled at the spread price: the leg has no price of its own' : undefined),
    width: 86,
    type: 'rightAligned',
    cellClass: ['fd-num', 'ag-right-aligned-cell'],
  },
];

/** Why an entry is disabled, shown above it (not only in a tooltip). */
function BlockedNote({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <Text fz="xs" c="dimmed" mb={6} data-testid="fill-blocked">
      {reason}
    </Text>
  );
}

function NoContracts() {
  return <div className="fd-grid-empty">No contracts found</div>;
}

/** One side's legs: a contract grid and a fill entry for the selected contract (POST fill with legIndex). */
function LegPanel({
  title,
  side,
  order,
  actions,
  latestPrices,
  blocked,
  note,
}: {
  title: string;
  side: '1' | '2';
  order: Order;
  actions: OrderActions;
  latestPrices: readonly LatestPrice[];
  blocked: string | null;
  note: string | null;
}) {
  const enabled = blocked === null;
  const inFlight = useInFlight(order.id);
  const rows = useMemo<LegRow[]>(
    () =>
      order.legs
        .filter((l) => l.legSide === side)
        .map((leg) => ({
          leg,
          legQty: legQuantity(leg.legRatioQty, order.orderqty).toString(),
          leaves: legLeavesQuantity({ ratio: leg.legRatioQty, cumQty: leg.legCumQty }, order.orderqty).toString(),
        })),
    [order, side],
  );
  const [selected, setSelected] = useState<number | null>(null);
  const legIndex = selected ?? rows[0]?.leg.legIndex ?? null;
  const leg = order.legs.find((l) => l.legIndex === legIndex) ?? null;
  const [qty, setQty] = useState('');
  const [px, setPx] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reference = leg ? legReferencePrice(latestPrices, leg) : null;
  const qtyCheck = qty.trim() === '' || legIndex === null ? null : checkLegFillQuantity(qty, legProgress(order), legIndex, order.orderqty);
  const pxCheck = px.trim() === '' ? null : checkLegFillPrice(px, reference?.price ?? null);
  const checks = [qtyCheck, pxCheck].filter((c) => c !== null);
  const submittable = enabled && legIndex !== null && canSubmitFill(qty, px, checks) && inFlight === undefined;
  const sideName = side === Side.Buy ? 'buy' : 'sell';

  const submit = async () => {
    if (!submittable || legIndex === null) return;
    setError(null);
    try {
      await actions.fill(order.id, { fillQty: qty, fillPrice: px, legIndex });
      notifications.show({
        color: 'green',
        title: `Leg ${legIndex + 1} fill booked`,
        message: `${formatQuantity(qty)} @ ${formatPrice(px)}`,
        autoClose: 3000,
      });
      setQty('');
      setPx('');
    } catch (e) {
      setError(actionErrorMessage(e));
    }
  };

  return (
    <Paper withBorder p={10} radius="sm" data-testid={`leg-panel-${sideName}`}>
      <Group justify="space-between" mb={6}>
        <Text fz="xs" fw={700} tt="uppercase" c={side === Side.Buy ? 'green.8' : 'red.8'}>
          {title}
        </Text>
        {leg && (
          <Badge size="sm" variant="light" color="gray">
            Leg {leg.legIndex + 1}: {leg.legSymbol} {leg.contractMonth ?? formatMaturity(leg.legMaturityMonthYear)}
          </Badge>
        )}
      </Group>
      <BlockedNote reason={note} />
      <Box
        component="form"
        aria-label={`${title} fill`}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <EntryRow
          fields={[
            <QuantityField
              key="qty"
              label="Contracts"
              ariaLabel={`${title} quantity`}
              value={qty}
              onChange={setQty}
              disabled={!enabled || !leg}
            />,
            <PriceField
              key="px"
              label={reference ? `Price (last ${formatPrice(reference.price)})` : 'Price'}
              ariaLabel={`${title} price`}
              value={px}
              onChange={setPx}
              disabled={!enabled || !leg}
            />,
          ]}
          checks={[<CheckLine key="qty" check={qtyCheck} />, <CheckLine key="px" check={pxCheck} />]}
          submit={
            <WhyDisabled reason={blocked}>
              <Button type="submit" size="xs" disabled={!submittable} loading={inFlight === 'fill'}>
                Fill Leg
              </Button>
            </WhyDisabled>
          }
        />
        {error && (
          <Text fz="xs" c="red.8" role="alert" mt={4} data-testid="server-error">
            {error}
          </Text>
        )}
      </Box>
      <Box h={Math.min(6, Math.max(rows.length, 2)) * 30 + 34} mt={8}>
        <AgGridReact<LegRow>
          theme={legsGridTheme}
          rowData={rows}
          columnDefs={legColumns}
          getRowId={(p: GetRowIdParams<LegRow>) => String(p.data.leg.legIndex)}
          rowSelection={{ mode: 'singleRow', checkboxes: false, enableClickSelection: true }}
          onRowSelected={(e: RowSelectedEvent<LegRow>) => {
            if (e.node.isSelected() && e.data) setSelected(e.data.leg.legIndex);
          }}
          noRowsOverlayComponent={NoContracts}
          animateRows={false}
        />
      </Box>
    </Paper>
  );
}

/**
 * Multileg Trade Capture (spec 000 §2): the order summary with Trade Analysis, the client box, a
 * spread fill entry for the whole strategy, and a buy-leg and a sell-leg panel for leg fills.
 */
export function MultilegModal({
  opened,
  onClose,
  order,
  actions,
  latestPrices,
  connector,
}: {
  opened: boolean;
  onClose: () => void;
  order: Order;
  actions: OrderActions;
  latestPrices: readonly LatestPrice[];
  connector?: ClientConnector | undefined;
}) {
  const trader = traderParty(order);
  const canFill = eventsFor(order).includes('fill') && Decimal.from(order.leavesqty).isPositive();
  const tradeBlock = useTradeBlock();
  // Filled at the spread price or leg by leg, never both: the other way is disabled with the reason.
  const mode = multilegFillMode(order.cumqty, order.legs);
  const notOpen = canFill
    ? null
    : `No fills can be added: the order is ${order.ordstatus === 'A' ? 'not accepted yet' : 'not open for fills'}.`;
  const spreadBlock = tradeBlock ?? notOpen ?? (mode === 'legs' ? MultilegFillText.legsFilling : null);
  const legBlock = tradeBlock ?? notOpen ?? (mode === 'spread' ? MultilegFillText.spreadFilling : null);
  const generalBlock = tradeBlock ?? notOpen;
  const parsed = parseStrategySymbol(order.symbol);
  const unreadable = order.legs.length === 0 && parsed === null;
  const side = normalizeSide(order.side);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="80rem"
      title={<Text fw={700}>Multileg Trade Capture - {order.brokerorderid}</Text>}
      data-testid="multileg-modal"
    >
      <Stack gap={10}>
        {unreadable && (
          <Alert color="red" p={8}>
            {symbolParseErrorMessage(order.symbol)}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 4 }} spacing={10}>
          <Paper withBorder p={10} radius="sm" className={classes.analysis} data-testid="trade-analysis">
            <Text fz="xs" fw={700} tt="uppercase" c="gray.7" mb={6}>
              Trade Analysis
            </Text>
            <SimpleGrid cols={3} spacing={8} verticalSpacing={6}>
              <Info label="Order ID" value={order.brokerorderid} />
              <Info label="Symbol" value={order.symbol} />
              <Info label="Side" value={side === Side.Sell ? 'Sell' : 'Buy'} />
              <Info label="Order Qty" value={formatQuantity(order.orderqty)} />
              <Info label="Cum Qty" value={formatQuantity(order.cumqty)} testId="ml-cumqty" />
              <Info label="Leaves Qty" value={formatQuantity(order.leavesqty)} testId="ml-leavesqty" />
              <Info label="Price" value={formatOrderPrice(order.price)} />
              <Info label="Avg Px" value={Number(order.cumqty) > 0 ? formatAveragePrice(order.avgpx, order.price) : '—'} />
              <Info label="Order Type" value={ORD_TYPE_LABELS[order.ordtype as OrdTypeCode] ?? order.ordtype} />
            </SimpleGrid>
            <Text fz="xs" c="dimmed" mt={6}>
              Client {sideVerb(order)} {formatQuantity(order.orderqty)} {order.symbol}: each leg trades ratio × order quantity.
            </Text>
          </Paper>
          <Paper withBorder p={10} radius="sm" bg="gray.0">
            <Text fz="xs" fw={700} tt="uppercase" c="gray.7" mb={6}>
              Client Info
            </Text>
            <Stack gap={4}>
              <Info label="Client" value={order.client_name ?? order.sendercompid} />
              <Info label="Trader" value={trader?.partyID ?? '—'} />
              <Info label="Phone" value={order.client_phone ?? connector?.client_phone ?? '—'} />
              <Info label="Contact" value={connector?.client_contact ?? '—'} />
            </Stack>
          </Paper>
        </SimpleGrid>
        {generalBlock && (
          <Alert color="gray" p={8}>
            <Text fz="xs">{generalBlock}</Text>
          </Alert>
        )}
        <SpreadFillEntry
          order={order}
          actions={actions}
          latestPrices={latestPrices}
          blocked={spreadBlock}
          note={generalBlock ? null : spreadBlock}
        />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={10}>
          <LegPanel
            title="Buy leg"
            side={Side.Buy}
            order={order}
            actions={actions}
            latestPrices={latestPrices}
            blocked={legBlock}
            note={generalBlock ? null : legBlock}
          />
          <LegPanel
            title="Sell leg"
            side={Side.Sell}
            order={order}
            actions={actions}
            latestPrices={latestPrices}
            blocked={legBlock}
            note={generalBlock ? null : legBlock}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" size="xs" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
