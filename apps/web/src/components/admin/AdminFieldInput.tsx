import type { AdminField } from '@fixdesk/protocol';
import { MultiSelect, PasswordInput, Select, SimpleGrid, Switch, Textarea, TextInput, type MantineSpacing } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import type { FormValue, FormValues } from './formValues';

/** One input of an admin form, by its descriptor's kind. */
export function AdminFieldInput({
  field: f,
  value,
  error,
  locked: lockedWhy,
  options,
  onChange,
  disabled = false,
}: {
  field: AdminField;
  value: FormValue | undefined;
  error?: string | undefined;
  /** Shown but not editable: the reason under the input. */
  locked?: string | undefined;
  options?: { value: string; label: string }[] | undefined;
  onChange: (name: string, value: FormValue) => void;
  /** Not editable now (a saved form), without a reason of its own. */
  disabled?: boolean;
}) {
  const common = {
    label: f.label,
    description: lockedWhy ?? f.description,
    error,
    disabled: Boolean(lockedWhy) || disabled,
    withAsterisk: Boolean(f.required),
  } as const;
  const text = Array.isArray(value) ? '' : String(value ?? '');
  switch (f.kind) {
    case 'multiselect':
      return (
        <MultiSelect
          {...common}
          data={options ?? (f.options ?? []).map((o) => ({ value: o.value, label: o.label }))}
          value={Array.isArray(value) ? [...(value as readonly string[])] : []}
          onChange={(v) => onChange(f.name, v)}
          placeholder={Array.isArray(value) && value.length ? undefined : f.placeholder}
          searchable
          clearable
          hidePickedOptions
          comboboxProps={{ withinPortal: true }}
          style={f.span === 2 ? { gridColumn: '1 / -1' } : undefined}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={f.label}
          description={lockedWhy ?? f.description}
          error={error}
          disabled={Boolean(lockedWhy) || disabled}
          checked={value === true}
          onChange={(e) => onChange(f.name, e.currentTarget.checked)}
          mt="lg"
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={options ?? (f.options ?? []).map((o) => ({ value: o.value, label: o.label }))}
          value={text === '' ? null : text}
          onChange={(v) => onChange(f.name, v ?? '')}
          placeholder={f.placeholder ?? 'Choose…'}
          clearable={!f.required && f.defaultValue === undefined}
          searchable
          allowDeselect={!f.required && f.defaultValue === undefined}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'password':
      return (
        <PasswordInput
          {...common}
          value={text}
          onChange={(e) => onChange(f.name, e.currentTarget.value)}
          maxLength={f.maxLength}
          placeholder={f.placeholder}
          autoComplete="new-password"
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          value={text}
          onChange={(e) => onChange(f.name, e.currentTarget.value)}
          maxLength={f.maxLength}
          placeholder={f.placeholder}
          autosize
          minRows={2}
          maxRows={5}
          style={f.span === 2 ? { gridColumn: '1 / -1' } : undefined}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={text}
          onChange={(e) => onChange(f.name, e.currentTarget.value)}
          maxLength={f.maxLength}
          placeholder={f.placeholder}
          type={f.input ?? 'text'}
          step={f.input === 'time' ? 1 : undefined}
          inputMode={f.kind === 'integer' ? 'numeric' : f.kind === 'decimal' ? 'decimal' : undefined}
          className={f.kind === 'integer' || f.kind === 'decimal' || f.input === 'number' ? 'fd-numeric' : undefined}
          style={f.span === 2 ? { gridColumn: '1 / -1' } : undefined}
        />
      );
  }
}

/** A form's inputs in a grid: the given fields in order, each with its error, lock and choices. */
export function AdminFieldGrid({
  fields,
  values,
  errors,
  locked = {},
  options = {},
  onChange,
  disabled = false,
  cols = 2,
  spacing = 'md',
  verticalSpacing = 'sm',
  after = {},
}: {
  fields: readonly AdminField[];
  values: FormValues;
  errors: Readonly<Record<string, string>>;
  locked?: Readonly<Record<string, string>>;
  options?: Readonly<Record<string, { value: string; label: string }[]>>;
  onChange: (name: string, value: FormValue) => void;
  disabled?: boolean;
  cols?: number;
  spacing?: MantineSpacing;
  verticalSpacing?: MantineSpacing;
  /** What the screen draws right after a field (a read-only value of its own). */
  after?: Readonly<Record<string, ReactNode>>;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: cols }} spacing={spacing} verticalSpacing={verticalSpacing}>
      {fields.map((f) => (
        <Fragment key={f.name}>
          <AdminFieldInput
            field={f}
            value={values[f.name]}
            error={errors[f.name]}
            locked={locked[f.name]}
            options={options[f.name]}
            onChange={onChange}
            disabled={disabled}
          />
          {after[f.name]}
        </Fragment>
      ))}
    </SimpleGrid>
  );
}
