import type { AdminField } from '@fixdesk/protocol';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { toPayload, validate, type FormValue, type FormValues } from './formValues';

export interface AdminFormOptions {
  /** The resource's field descriptors (from @fixdesk/protocol), in form order. */
  fields: readonly AdminField[];
  /** The resource's zod schema: the same one the server validates with. */
  schema: z.ZodType;
  values: FormValues;
  onChange: (name: string, value: FormValue) => void;
  /** Gets the validated payload; throws to keep the form open (the error shows in it). */
  onSubmit: (payload: Record<string, unknown>) => Promise<void>;
  /** An existing record: fields `lockedOnEdit` are shown read-only and not sent. */
  editing?: boolean;
  /** Fields shown but not editable (the reason under each). */
  locked?: Readonly<Record<string, string>>;
  /** Fields not shown (and not sent). */
  hidden?: readonly string[];
  /** The server's field-level answer, shown under that field until the field is edited. */
  serverErrors?: Readonly<Record<string, string>>;
  /** Sent with the form's own fields (what the screen's selectors chose); validated with them. */
  extraPayload?: Readonly<Record<string, unknown>>;
  /** The screen's last word on what is sent (an upper-cased code), before it is checked. */
  finish?: (payload: Record<string, unknown>) => Record<string, unknown>;
  /** Runs before the schema: a text here stops the submit and shows at the top of the form. */
  precheck?: (payload: Record<string, unknown>) => string | null;
  /** Told of every set of problems found (the form's own or the server's): a tabbed form shows the first one's tab. */
  onProblems?: (problems: Readonly<Record<string, string>>) => void;
  /** Saved, nothing can be edited or sent again. */
  done?: boolean;
}

/**
 * The admin form's behaviour, whatever draws it (AdminFormModal, or a screen's tabbed dialog): the
 * payload from the descriptors, checked with the resource's schema before anything is sent (the same
 * verdicts as the server's 400s), the problems under their fields until edited, the rest at the top.
 */
export function useAdminForm(options: AdminFormOptions) {
  const { fields, values, editing = false, locked = {}, hidden = [], serverErrors = {}, done = false } = options;
  const [ownErrors, setOwnErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const [topError, setTopError] = useState<string | null>(null);
  const shown = fields.filter((f) => !hidden.includes(f.name));
  const lockedNow = editing ? { ...lockedOnEdit(fields), ...locked } : locked;
  // An answer about a value stops applying once the value changes.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const [lastServerErrors, setLastServerErrors] = useState(serverErrors);
  if (lastServerErrors !== serverErrors) {
    setLastServerErrors(serverErrors);
    setEdited(new Set());
  }
  const onProblems = useRef(options.onProblems);
  onProblems.current = options.onProblems;
  useEffect(() => {
    if (Object.keys(serverErrors).length) onProblems.current?.(serverErrors);
  }, [serverErrors]);

  const errors: Record<string, string> = {};
  for (const [name, text] of Object.entries(serverErrors)) if (!edited.has(name)) errors[name] = text;
  Object.assign(errors, ownErrors);

  const change = (name: string, value: FormValue) => {
    setOwnErrors(({ [name]: _dropped, ...rest }) => rest);
    setEdited((s) => new Set(s).add(name));
    options.onChange(name, value);
  };
  /** A problem the screen found itself (a file refused before it is read), under its field. */
  const setError = (name: string, text: string) => setOwnErrors((e) => ({ ...e, [name]: text }));
  /** A fresh form (opened on another record): no problems from the last one. */
  const reset = () => {
    setOwnErrors({});
    setTopError(null);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (done || submitting) return;
    const omit = editing ? Object.keys(lockedOnEdit(fields)) : [];
    const own = { ...options.extraPayload, ...toPayload(shown, values, omit) };
    const payload = options.finish ? options.finish(own) : own;
    const blocked = options.precheck?.(payload) ?? null;
    setTopError(blocked);
    if (blocked) return;
    const problems = validate(options.schema, shown, payload);
    setOwnErrors(problems ?? {});
    if (problems) {
      // A problem in what the screen supplied (not an input of this form) shows at the top.
      const outside = Object.entries(problems).find(([name]) => !shown.some((f) => f.name === name));
      if (outside) setTopError(outside[1]);
      onProblems.current?.(problems);
      return;
    }
    setSubmitting(true);
    try {
      await options.onSubmit(payload);
    } catch {
      // the screen shows the failure
    } finally {
      setSubmitting(false);
    }
  };

  return { shown, errors, locked: lockedNow, topError, submitting, change, setError, reset, submit };
}

function lockedOnEdit(fields: readonly AdminField[]): Record<string, string> {
  return Object.fromEntries(fields.flatMap((f) => (f.lockedOnEdit ? [[f.name, f.lockedOnEdit]] : [])));
}

/** The tab holding the first of these problems, in form order (undefined when none is on a tab). */
export function firstProblemTab(fields: readonly AdminField[], problems: Readonly<Record<string, string>>): string | undefined {
  return fields.find((f) => problems[f.name] && f.tab)?.tab;
}
