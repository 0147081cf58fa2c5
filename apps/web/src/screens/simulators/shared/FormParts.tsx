import {
  contractMonthOptions,
  ORD_TYPE_LABELS,
  quarterOptions,
  SIDE_LABELS,
  SIMULATOR_INPUT_LIMITS,
  SimulatorText,
  symbolPickerLabel,
  TIME_IN_FORCE_LABELS,
  yearOptions,
  type OrdTypeCode,
  type SideCode,
} from '@fixdesk/domain';
import { NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { EXCHANGES, type NumberValue } from '../../../services/simulators/orderForms';
import type { SecurityRef } from '@fixdesk/client';

/**
 * The form parts both order-entry screens share (spec 000 §2 "Shared form parts"): symbol, contract
 * month (8 years from the current month), quarter (8 years from the current quarter), calendar year,
 * side, order type, time in force, exchange, quantity and price. Labels and option lists are the
 * domain's; these components only draw them.
 */

/** Tighter bounds on the simulator; the FIX Client takes what the server takes. */
export type FormVariant = 'simulator' | 'client';

export function SymbolSelect({
  label = 'Symbol',
  value,
  onChange,
  securities,
  testId,
}: {
  label?: string;
  value: string;
  onChange: (v: string) => void;
  securities: readonly SecurityRef[];
  testId?: string;
}) {
  const data = useMemo(
    () => securities.map((s) => ({ value: s.symbol, label: symbolPickerLabel(s.symbol, s.instrument_name) })),
    [securities],
  );
  return (
    <Select
      label={label}
      placeholder="Select a symbol"
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      nothingFoundMessage="No active security"
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
      allowDeselect={false}
    />
  );
}

/** Contract months from the current one for 8 years, labelled like 'Sep-25 (202509)'. */
export function ContractMonthSelect({
  label = 'Contract month',
  value,
  onChange,
  testId,
}: {
  label?: string;
  value: string;
  onChange: (v: string) => void;
  testId?: string;
}) {
  const data = useMemo(() => contractMonthOptions(new Date()), []);
  return (
    <Select
      label={label}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      allowDeselect={false}
      maxDropdownHeight={260}
      data-testid={testId}
    />
  );
}

/** Quarters from the current one for 8 years, 'Qn-YY'. */
export function QuarterSelect({
  label = 'Quarter',
  value,
  onChange,
  testId,
}: {
  label?: string;
  value: string;
  onChange: (v: string) => void;
  testId?: string;
}) {
  const data = useMemo(() => quarterOptions(new Date()), []);
  return (
    <Select
      label={label}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      allowDeselect={false}
      maxDropdownHeight={260}
      data-testid={testId}
    />
  );
}

/** Calendar years from the current one (spec 000 §9: 10 years). */
export function YearSelect({
  label = 'Calendar year',
  value,
  onChange,
  testId,
}: {
  label?: string;
  value: string;
  onChange: (v: string) => void;
  testId?: string;
}) {
  const data = useMemo(
    () => yearOptions(new Date()).map((o) => ({ value: String(o.value), label: `${o.label} (CAL-${String(o.value).slice(2)})` })),
    [],
  );
  return (
    <Select
      label={label}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      allowDeselect={false}
      data-testid={testId}
    />
  );
}

export function SideControl({ value, onChange, label = 'Side' }: { value: SideCode; onChange: (v: SideCode) => void; label?: string }) {
  return (
    <Stack gap={2}>
      <Text component="label" fz="sm" fw={500}>
        {label}
      </Text>
      <SegmentedControl
        aria-label={label}
        fullWidth
        value={value}
        onChange={(v) => onChange(v as SideCode)}
        color={value === '1' ? 'teal' : 'red'}
        data={(['1', '2'] as const).map((code) => ({ value: code, label: `${SIDE_LABELS[code]} (${code})` }))}
      />
    </Stack>
  );
}

export function OrderTypeSelect({ value, onChange }: { value: OrdTypeCode; onChange: (v: OrdTypeCode) => void }) {
  const data = (['2', '1'] as const).map((code) => ({ value: code, label: `${ORD_TYPE_LABELS[code]} (${code})` }));
  return (
    <Select label="Order type" data={data} value={value} onChange={(v) => onChange((v ?? '2') as OrdTypeCode)} allowDeselect={false} />
  );
}

export function TimeInForceSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const data = (['0', '1'] as const).map((code) => ({ value: code, label: `${TIME_IN_FORCE_LABELS[code]} (${code})` }));
  return <Select label="Time in force" data={data} value={value} onChange={(v) => onChange(v ?? '0')} allowDeselect={false} />;
}

export function ExchangeSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return <Select label="Exchange" data={[...EXCHANGES]} value={value} onChange={(v) => onChange(v ?? 'Any')} allowDeselect={false} />;
}

export function QuantityInput({
  value,
  onChange,
  variant,
  label = 'Quantity',
  strategy = false,
}: {
  value: NumberValue;
  onChange: (v: NumberValue) => void;
  variant: FormVariant;
  label?: string;
  strategy?: boolean;
}) {
  // Spec 000 §5: an outright's quantity is 1 to 1,000 on the simulator. Out of range it is said under the
  // field and the send refuses it; never clamped on blur (2,000 typed was silently sent as 1,000).
  const limits = variant === 'simulator' && !strategy ? SIMULATOR_INPUT_LIMITS.outrightQuantity : { min: 1, max: undefined, step: 1 };
  return (
    <NumberInput
      label={label}
      value={value}
      onChange={onChange}
      min={limits.min}
      max={limits.max}
      step={limits.step}
      clampBehavior="none"
      error={rangeProblem(value, limits.min, limits.max, SimulatorText.quantityRange)}
      allowDecimal={false}
      allowNegative={false}
      thousandSeparator=","
      className="fd-numeric"
    />
  );
}

/** The range message when a typed number is outside [min, max]; none while empty or in range. */
function rangeProblem(
  value: NumberValue,
  min: number,
  max: number | undefined,
  text: (min: number, max: number) => string,
): string | undefined {
  if (max === undefined || value === '' || value === null || value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).replace(/,/g, ''));
  if (!Number.isFinite(n)) return undefined;
  return n < min || n > max ? text(min, max) : undefined;
}

/**
 * The limit price. Outright: at least 1 in steps of 50 on the simulator; a strategy (spread) may be zero or
 * negative, -10,000 to 10,000 in steps of 10 on the simulator.
 */
export function PriceInput({
  value,
  onChange,
  variant,
  strategy,
  disabled,
}: {
  value: NumberValue;
  onChange: (v: NumberValue) => void;
  variant: FormVariant;
  strategy: boolean;
  disabled?: boolean;
}) {
  const limits = strategy
    ? variant === 'simulator'
      ? SIMULATOR_INPUT_LIMITS.spreadPrice
      : { min: undefined, max: undefined, step: 10 }
    : variant === 'simulator'
      ? { ...SIMULATOR_INPUT_LIMITS.outrightPrice, max: undefined }
      : { min: 0, max: undefined, step: 50 };
  return (
    <NumberInput
      label={strategy ? 'Limit price (strategy)' : 'Limit price'}
      value={value}
      onChange={onChange}
      min={limits.min}
      max={limits.max}
      step={limits.step}
      decimalScale={6}
      clampBehavior={strategy ? 'none' : 'blur'}
      error={limits.min !== undefined ? rangeProblem(value, limits.min, limits.max, SimulatorText.spreadPriceRange) : undefined}
      allowNegative={strategy}
      thousandSeparator=","
      disabled={disabled}
      placeholder={disabled ? 'Market order: no price' : undefined}
      className="fd-numeric"
    />
  );
}
