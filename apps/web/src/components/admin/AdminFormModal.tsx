import type { AdminField } from '@fixdesk/protocol';
import { Alert, Button, Group, Modal, PasswordInput, Select, SimpleGrid, Switch, Textarea, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { toPayload, validate, type FormValue, type FormValues } from './formValues';

export interface AdminFormModalProps {
  opened: boolean;
  title: string;
  /** The resource's field descriptors (from @fixdesk/protocol), in form order. */
  fields: readonly AdminField[];
  /** The resource's zod schema: the same one the server validates with. */
  schema: z.ZodType;
  values: FormValues;
  onChange: (name: string, value: FormValue) => void;
  /** Fields shown but not editable (the reason under each). */
  locked?: Readonly<Record<string, string>>;
  /** Fields not shown (and not sent). */
  hidden?: readonly string[];
  /** Per-field options computed by the screen (a select's choices from reference data). */
  options?: Readonly<Record<string, { value: string; label: string }[]>>;
  submitLabel: string;
  onClose: () => void;
  /** Gets the validated payload; throws to keep the form open (the error shows in it). */
  onSubmit: (payload: Record<string, unknown>) => Promise<void>;
  /** The server's field-level answer, shown under that field. */
  serverErrors?: Readonly<Record<string, string>>;
  /** Sent with the form's own fields (what the screen's selectors chose); validated with them. */
  extraPayload?: Readonly<Record<string, unknown>>;
  /** Runs before the schema: a text here stops the submit and shows at the top of the form. */
  precheck?: (payload: Record<string, unknown>) => string | null;
  /** A failure not tied to a field, shown at the top of the form. */
  formError?: string | null;
  /**
   * Saved, the form still showing its success for a moment (the user dialog closes 2 s after): nothing
   * can be edited or sent again, so a second click cannot repeat the create.
   */
  done?: boolean;
  children?: ReactNode;
}

/**
 * The admin pattern's add/edit form: one input per descriptor, checked with the resource's schema
 * before anything is sent (the same verdicts as the server's 400s), the server's own answer kept.
 */
export function AdminFormModal({
  opened,
  title,
  fields,
  schema,
  values,
  onChange: change,
  locked = {},
  hidden = [],
  options = {},
  submitLabel,
  onClose,
  onSubmit,
  serverErrors = {},
  formError,
  extraPayload,
  precheck,
  done = false,
  children,
}: AdminFormModalProps) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const [precheckError, setPrecheckError] = useState<string | null>(null);
  const shown = fields.filter((f) => !hidden.includes(f.name));
  // An answer about a value stops applying once the value changes.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const [lastServerErrors, setLastServerErrors] = useState(serverErrors);
  if (lastServerErrors !== serverErrors) {
    setLastServerErrors(serverErrors);
    setEdited(new Set());
  }
  const onChange = (name: string, value: FormValue) => {
    setErrors(({ [name]: _dropped, ...rest }) => rest);
    setEdited((s) => new Set(s).add(name));
    change(name, value);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (done || submitting) return;
    const payload = { ...extraPayload, ...toPayload(shown, values) };
    const blocked = precheck?.(payload) ?? null;
    setPrecheckError(blocked);
    if (blocked) return;
    const problems = validate(schema, shown, payload);
    setErrors(problems ?? {});
    if (problems) {
      // A problem in what the screen supplied (not an input of this form) shows at the top.
      const outside = Object.entries(problems).find(([name]) => !shown.some((f) => f.name === name));
      if (outside) setPrecheckError(outside[1]);
      return;
    }
    setSubmitting(true);
    try {
      await onSubmit(payload);
    } catch {
      // the screen shows the failure
    } finally {
      setSubmitting(false);
    }
  };

  const input = (f: AdminField) => (
    <AdminFieldInput
      key={f.name}
      field={f}
      value={values[f.name]}
      error={errors[f.name] ?? (edited.has(f.name) ? undefined : serverErrors[f.name])}
      locked={locked[f.name]}
      options={options[f.name]}
      onChange={onChange}
      disabled={done}
    />
  );

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" centered closeOnClickOutside={!submitting}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
        {(precheckError ?? formError) && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} mb="md" role="alert">
            {precheckError ?? formError}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          {shown.map(input)}
        </SimpleGrid>
        {children}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose} disabled={submitting}>
            {done ? 'Close' : 'Cancel'}
          </Button>
          <Button type="submit" loading={submitting} disabled={done}>
            {submitLabel}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}

/** One input of an admin form, by its descriptor's kind (also used by screens whose form has tabs). */
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
  const text = String(value ?? '');
  switch (f.kind) {
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
          inputMode={f.kind === 'integer' ? 'numeric' : f.kind === 'decimal' ? 'decimal' : undefined}
          className={f.kind === 'integer' || f.kind === 'decimal' ? 'fd-numeric' : undefined}
          style={f.span === 2 ? { gridColumn: '1 / -1' } : undefined}
        />
      );
  }
}
