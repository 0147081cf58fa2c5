import { Alert, Button, Group, Modal } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { AdminFieldGrid } from './AdminFieldInput';
import { useAdminForm, type AdminFormOptions } from './useAdminForm';

export interface AdminFormModalProps extends Omit<AdminFormOptions, 'onProblems'> {
  opened: boolean;
  title: string;
  /** Per-field options computed by the screen (a select's choices from reference data). */
  options?: Readonly<Record<string, { value: string; label: string }[]>>;
  submitLabel: string;
  onClose: () => void;
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
export function AdminFormModal({ opened, title, options = {}, submitLabel, onClose, formError, children, ...form }: AdminFormModalProps) {
  const { shown, values, errors, locked, topError, submitting, change, submit } = useAdminForm(form);
  const done = form.done ?? false;
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" centered closeOnClickOutside={!submitting}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
        {(topError ?? formError) && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} mb="md" role="alert">
            {topError ?? formError}
          </Alert>
        )}
        <AdminFieldGrid
          fields={shown}
          values={values}
          errors={errors}
          locked={locked}
          options={options}
          onChange={change}
          disabled={done}
        />
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
