import {
  MULTILEG_TYPE_LABELS,
  MULTILEG_TYPES,
  SIDE_LABELS,
  type GeneratedLeg,
  type MultilegType,
  type SideCode,
  type StrategyLegType,
} from '@fixdesk/domain';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  defaultStrategyLeg,
  type CustomValues,
  type MultilegValues,
  type OutrightValues,
  type StrategyLegValues,
} from '../../../services/simulators/orderForms';
import type { SecurityRef } from '@fixdesk/client';
import {
  ContractMonthSelect,
  ExchangeSelect,
  OrderTypeSelect,
  PriceInput,
  QuantityInput,
  QuarterSelect,
  SideControl,
  SymbolSelect,
  TimeInForceSelect,
  YearSelect,
  type FormVariant,
} from './FormParts';

type Patch<T> = (change: Partial<T>) => void;

interface CommonProps<T> {
  values: T;
  onChange: Patch<T>;
  variant: FormVariant;
}

/** The order terms every tab has: side, type, time in force, exchange, quantity, price. */
function Terms<T extends OutrightValues | MultilegValues | CustomValues>({
  values,
  onChange,
  variant,
  strategy,
}: CommonProps<T> & { strategy: boolean }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 3 }} spacing="sm" verticalSpacing={8}>
      <SideControl
        value={values.side}
        onChange={(side) => onChange({ side } as Partial<T>)}
        label={strategy ? 'Side (strategy)' : 'Side'}
      />
      <OrderTypeSelect value={values.orderType} onChange={(orderType) => onChange({ orderType } as Partial<T>)} />
      <TimeInForceSelect value={values.timeInForce} onChange={(timeInForce) => onChange({ timeInForce } as Partial<T>)} />
      <ExchangeSelect value={values.exchange} onChange={(exchange) => onChange({ exchange } as Partial<T>)} />
      <QuantityInput
        value={values.quantity}
        onChange={(quantity) => onChange({ quantity } as Partial<T>)}
        variant={variant}
        strategy={strategy}
        label={strategy ? 'Quantity (strategy units)' : 'Quantity'}
      />
      <PriceInput
        value={values.price}
        onChange={(price) => onChange({ price } as Partial<T>)}
        variant={variant}
        strategy={strategy}
        disabled={values.orderType === '1'}
      />
    </SimpleGrid>
  );
}

/** The FIX Client's extra fields (spec 001 §3): ClOrdID, entering firm LEI, trader, and a Text comment. */
function ClientExtras<T extends OutrightValues | MultilegValues | CustomValues>({
  values,
  onChange,
  nextClOrdId,
}: {
  values: T;
  onChange: Patch<T>;
  nextClOrdId: string;
}) {
  return (
    <Stack gap={8}>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
        <TextInput
          label="ClOrdID"
          placeholder={nextClOrdId || 'next by the client order id rule'}
          value={values.clOrdId}
          onChange={(e) => onChange({ clOrdId: e.currentTarget.value } as Partial<T>)}
        />
        <TextInput
          label="Entering firm LEI"
          placeholder="client default (party role 7)"
          value={values.enteringFirmLEI}
          onChange={(e) => onChange({ enteringFirmLEI: e.currentTarget.value } as Partial<T>)}
          maxLength={20}
        />
        <TextInput
          label="Trader name"
          placeholder="client default (party role 11)"
          value={values.traderName}
          onChange={(e) => onChange({ traderName: e.currentTarget.value } as Partial<T>)}
        />
      </SimpleGrid>
      <Textarea
        label="Text (optional comment)"
        autosize
        minRows={1}
        maxRows={3}
        maxLength={500}
        value={values.text}
        onChange={(e) => onChange({ text: e.currentTarget.value } as Partial<T>)}
      />
    </Stack>
  );
}

export function OutrightForm({
  values,
  onChange,
  variant,
  securities,
  nextClOrdId,
}: CommonProps<OutrightValues> & { securities: readonly SecurityRef[]; nextClOrdId: string }) {
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <SymbolSelect value={values.symbol} onChange={(symbol) => onChange({ symbol })} securities={securities} testId="outright-symbol" />
        <ContractMonthSelect
          value={values.contractMonth}
          onChange={(contractMonth) => onChange({ contractMonth })}
          testId="outright-month"
        />
      </SimpleGrid>
      <Terms values={values} onChange={onChange} variant={variant} strategy={false} />
      {variant === 'client' && <ClientExtras values={values} onChange={onChange} nextClOrdId={nextClOrdId} />}
    </Stack>
  );
}

/** The generated legs: symbol, side, ratio, contract month (Mon-YY) and the YYYYMM sent in 610. */
function LegTable({
  legs,
  orderQty,
  error,
  emptyText,
}: {
  legs: readonly GeneratedLeg[];
  orderQty: unknown;
  error: string | null;
  emptyText: string;
}) {
  if (legs.length === 0) {
    return (
      <Alert color={error ? 'orange' : 'gray'} variant="light" p={8} data-testid="leg-table-empty">
        <Text fz="xs">{error ?? emptyText}</Text>
      </Alert>
    );
  }
  const qty = Number(orderQty);
  return (
    <Paper withBorder radius="sm" style={{ maxHeight: 220, overflow: 'auto' }}>
      <Table striped highlightOnHover withRowBorders={false} fz="xs" verticalSpacing={3} aria-label="Legs" stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>#</Table.Th>
            <Table.Th>Symbol</Table.Th>
            <Table.Th>Side</Table.Th>
            <Table.Th ta="right">Ratio</Table.Th>
            <Table.Th>Contract</Table.Th>
            <Table.Th>610</Table.Th>
            <Table.Th ta="right">Leg qty</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {legs.map((leg, i) => (
            <Table.Tr key={`${leg.symbol}-${leg.maturity}-${leg.side}`}>
              <Table.Td className="fd-numeric">{i + 1}</Table.Td>
              <Table.Td fw={600}>{leg.symbol}</Table.Td>
              <Table.Td>
                <Badge size="xs" variant="light" color={leg.side === '1' ? 'teal' : 'red'}>
                  {SIDE_LABELS[leg.side]}
                </Badge>
              </Table.Td>
              <Table.Td ta="right" className="fd-numeric">
                {leg.ratio}
              </Table.Td>
              <Table.Td>{leg.contractMonth}</Table.Td>
              <Table.Td className="fd-numeric">{leg.maturity}</Table.Td>
              <Table.Td ta="right" className="fd-numeric">
                {Number.isFinite(qty) && qty > 0 ? (Math.floor(qty) * leg.ratio).toLocaleString() : '—'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

export function MultilegForm({
  values,
  onChange,
  variant,
  securities,
  nextClOrdId,
  legs,
  legError,
  symbol,
}: CommonProps<MultilegValues> & {
  securities: readonly SecurityRef[];
  nextClOrdId: string;
  legs: readonly GeneratedLeg[];
  legError: string | null;
  symbol: string;
}) {
  const t = values.type;
  const twoParts = t === 'quarterSpread' || t === 'calSpread' || t === 'basicSpread';
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <Select
          label="Multileg type"
          data={MULTILEG_TYPES.map((type) => ({ value: type, label: MULTILEG_TYPE_LABELS[type] }))}
          value={t}
          onChange={(v) => onChange({ type: (v ?? 'quarter') as MultilegType })}
          allowDeselect={false}
          data-testid="multileg-type"
        />
        <SymbolSelect
          label="Strip symbol"
          value={values.stripSymbol}
          onChange={(stripSymbol) => onChange({ stripSymbol })}
          securities={securities}
          testId="multileg-symbol"
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        {(t === 'quarter' || t === 'quarterSpread') && (
          <QuarterSelect
            label={twoParts ? 'First quarter' : 'Quarter'}
            value={values.quarterYear}
            onChange={(quarterYear) => onChange({ quarterYear })}
            testId="multileg-quarter"
          />
        )}
        {t === 'quarterSpread' && (
          <QuarterSelect
            label="Second quarter"
            value={values.quarterYear2}
            onChange={(quarterYear2) => onChange({ quarterYear2 })}
            testId="multileg-quarter2"
          />
        )}
        {(t === 'calstrip' || t === 'calSpread') && (
          <YearSelect
            label={twoParts ? 'First calendar year' : 'Calendar year'}
            value={values.calYear}
            onChange={(calYear) => onChange({ calYear })}
            testId="multileg-cal"
          />
        )}
        {t === 'calSpread' && (
          <YearSelect
            label="Second calendar year"
            value={values.calYear2}
            onChange={(calYear2) => onChange({ calYear2 })}
            testId="multileg-cal2"
          />
        )}
        {t === 'basicSpread' && (
          <ContractMonthSelect
            label="First month"
            value={values.month1}
            onChange={(month1) => onChange({ month1 })}
            testId="multileg-month1"
          />
        )}
        {t === 'basicSpread' && (
          <ContractMonthSelect
            label="Second month"
            value={values.month2}
            onChange={(month2) => onChange({ month2 })}
            testId="multileg-month2"
          />
        )}
      </SimpleGrid>
      <Terms values={values} onChange={onChange} variant={variant} strategy />
      <Group gap={6}>
        <Text fz="xs" c="dimmed">
          Strategy symbol (55):
        </Text>
        <Text fz="xs" fw={700} ff="monospace" data-testid="strategy-symbol">
          {symbol || '—'}
        </Text>
      </Group>
      <LegTable legs={legs} orderQty={values.quantity} error={legError} emptyText="No legs found - please select a multileg type first" />
      {variant === 'client' && <ClientExtras values={values} onChange={onChange} nextClOrdId={nextClOrdId} />}
    </Stack>
  );
}

const LEG_TYPES: { value: StrategyLegType; label: string }[] = [
  { value: 'single', label: 'Single month' },
  { value: 'quarter', label: 'Quarter (3 months)' },
  { value: 'cal', label: 'Calendar (12 months)' },
];

function StrategyLine({
  leg,
  onChange,
  onDelete,
  canDelete,
  securities,
  side,
  index,
}: {
  leg: StrategyLegValues;
  onChange: (l: StrategyLegValues) => void;
  onDelete: () => void;
  canDelete: boolean;
  securities: readonly SecurityRef[];
  side: SideCode;
  index: number;
}) {
  const name = `${side === '1' ? 'Buy' : 'Sell'} leg ${index + 1}`;
  return (
    <Group
      gap={6}
      align="flex-end"
      wrap="nowrap"
      data-testid={`${side === '1' ? 'buy' : 'sell'}-leg-${index + 1}`}
      aria-label={name}
      role="group"
    >
      <Select
        w={190}
        label={index === 0 ? 'Type' : undefined}
        aria-label={`${name} type`}
        data={LEG_TYPES}
        value={leg.type}
        onChange={(v) => onChange({ ...leg, type: (v ?? 'single') as StrategyLegType })}
        allowDeselect={false}
      />
      <div style={{ flex: 1, minWidth: 140 }}>
        <SymbolSelect
          label={index === 0 ? 'Symbol' : ''}
          value={leg.symbol}
          onChange={(symbol) => onChange({ ...leg, symbol })}
          securities={securities}
        />
      </div>
      <div style={{ width: 200 }}>
        {leg.type === 'single' && (
          <ContractMonthSelect
            label={index === 0 ? 'Period' : ''}
            value={leg.contractMonth}
            onChange={(contractMonth) => onChange({ ...leg, contractMonth })}
          />
        )}
        {leg.type === 'quarter' && (
          <QuarterSelect
            label={index === 0 ? 'Period' : ''}
            value={leg.quarterYear}
            onChange={(quarterYear) => onChange({ ...leg, quarterYear })}
          />
        )}
        {leg.type === 'cal' && (
          <YearSelect label={index === 0 ? 'Period' : ''} value={leg.calYear} onChange={(calYear) => onChange({ ...leg, calYear })} />
        )}
      </div>
      <Tooltip label={canDelete ? 'Remove this leg' : 'A strategy needs at least one buy and one sell leg'}>
        <ActionIcon variant="subtle" color="red" size={36} onClick={onDelete} disabled={!canDelete} aria-label={`Remove ${name}`}>
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function StrategySide({
  title,
  side,
  legs,
  onChange,
  securities,
}: {
  title: string;
  side: SideCode;
  legs: StrategyLegValues[];
  onChange: (legs: StrategyLegValues[]) => void;
  securities: readonly SecurityRef[];
}) {
  return (
    <Paper withBorder p="xs" radius="sm" style={{ borderLeft: `3px solid var(--mantine-color-${side === '1' ? 'teal' : 'red'}-6)` }}>
      <Group justify="space-between" mb={6}>
        <Text fz="sm" fw={700}>
          {title}
        </Text>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconPlus size={12} />}
          onClick={() =>
            onChange([
              ...legs,
              defaultStrategyLeg(new Date(), legs.at(-1)?.symbol ?? securities[0]?.symbol ?? '', legs.length + (side === '1' ? 1 : 2)),
            ])
          }
        >
          Add {side === '1' ? 'buy' : 'sell'} leg
        </Button>
      </Group>
      <Stack gap={6}>
        {legs.map((leg, i) => (
          <StrategyLine
            key={leg.key}
            leg={leg}
            side={side}
            index={i}
            securities={securities}
            canDelete={legs.length > 1}
            onChange={(l) => onChange(legs.map((x) => (x.key === l.key ? l : x)))}
            onDelete={() => onChange(legs.filter((x) => x.key !== leg.key))}
          />
        ))}
      </Stack>
    </Paper>
  );
}

export function CustomMultilegForm({
  values,
  onChange,
  variant,
  securities,
  nextClOrdId,
  legs,
  legError,
  symbol,
}: CommonProps<CustomValues> & {
  securities: readonly SecurityRef[];
  nextClOrdId: string;
  legs: readonly GeneratedLeg[];
  legError: string | null;
  symbol: string;
}) {
  const buyRatio = legs.find((l) => l.side === values.side)?.ratio;
  const sellRatio = legs.find((l) => l.side !== values.side)?.ratio;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={1} spacing="sm">
        <StrategySide
          title="Buy legs"
          side="1"
          legs={values.buyLegs}
          onChange={(buyLegs) => onChange({ buyLegs })}
          securities={securities}
        />
        <StrategySide
          title="Sell legs"
          side="2"
          legs={values.sellLegs}
          onChange={(sellLegs) => onChange({ sellLegs })}
          securities={securities}
        />
      </SimpleGrid>
      <Terms values={values} onChange={onChange} variant={variant} strategy />
      <Group gap="md">
        <Group gap={6}>
          <Text fz="xs" c="dimmed">
            Strategy symbol (55):
          </Text>
          <Text fz="xs" fw={700} ff="monospace" data-testid="strategy-symbol">
            {symbol || '—'}
          </Text>
        </Group>
        {buyRatio !== undefined && sellRatio !== undefined && (
          <Text fz="xs" c="dimmed" data-testid="custom-ratios">
            Ratios by greatest common divisor: buy legs {buyRatio} : sell legs {sellRatio}
          </Text>
        )}
      </Group>
      <LegTable legs={legs} orderQty={values.quantity} error={legError} emptyText="No legs found - please add buy and sell legs first" />
      {variant === 'client' && <ClientExtras values={values} onChange={onChange} nextClOrdId={nextClOrdId} />}
    </Stack>
  );
}
