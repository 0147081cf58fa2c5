import { TextInput } from '@mantine/core';
import type { ReactNode, Ref } from 'react';

interface FieldProps {
  label: string;
  /** The accessible name (the visible label carries extra text such as the leaves or the limit). */
  ariaLabel: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  id?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** A button inside the field (Max, Limit). */
  action?: ReactNode;
}

function NumberField({
  label,
  ariaLabel,
  value,
  onChange,
  disabled,
  id,
  inputRef,
  action,
  kind,
}: FieldProps & { kind: 'quantity' | 'price' }) {
  return (
    <TextInput
      ref={inputRef}
      id={id}
      size="xs"
      type="number"
      inputMode={kind === 'quantity' ? 'numeric' : 'decimal'}
      {...(kind === 'quantity' ? { min: 1, step: 1 } : { step: 0.01 })}
      label={label}
      aria-label={ariaLabel}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      disabled={disabled}
      classNames={{ input: 'fd-num' }}
      {...(action ? { rightSectionWidth: 44, rightSection: action } : {})}
    />
  );
}

/**
 * The quantity field of a fill (or order) row: whole lots, right-aligned figures. The fill forms of
 * the order info panel and of the multileg window use it, so they look and behave alike.
 */
export function QuantityField(props: FieldProps) {
  return <NumberField {...props} kind="quantity" />;
}

/** The price field of a fill (or order) row: decimals, right-aligned figures. */
export function PriceField(props: FieldProps) {
  return <NumberField {...props} kind="price" />;
}
