import type { AdminField } from '@fixdesk/protocol';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { adminErrorText, serverFieldErrors } from './errors';
import { toPayload, validate, type FormValue, type FormValues } from './formValues';
import type { FailureText } from './useAdminResource';

export interface AdminFormOptions {
  /** The resource's field descriptors (from @fixdesk/protocol), in form order. */
  fields: readonly AdminField[];
  /** The resource's zod schema: the same one the server validates with (none for fields known only at run time: the server checks). */
  schema?: z.ZodType;
  /** The values and their setter, where a resource keeps them (useAdminResource); without them the form keeps its own (reset fills them). */
  values?: FormValues;
  onChange?: (name: string, value: FormValue) => void;
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
  /**
   * A form that tells its own save's failure (no useAdminResource behind it): the server's message, else
   * these texts; under the fields the server named, else at the top of the form or to `onFailure`.
   */
  failure?: FailureText;
  /** Where a failure not about a field is told instead of the top of the form (the screen's own message). */
  onFailure?: (text: string) => void;
}

/** No answer from the server: one object, so that its identity says when a new answer came. */
const NO_ERRORS: Readonly<Record<string, string>> = {};

/**
 * The admin form's behaviour, whatever draws it (AdminFormModal, a screen's tabbed dialog or inline form): the
 * payload from the descriptors, checked with the resource's schema before anything is sent (the same
 * verdicts as the server's 400s), the problems under their fields until edited, the rest at the top.
 */
export function useAdminForm(options: AdminFormOptions) {
  const { fields, editing = false, locked = {}, hidden = [], serverErrors = NO_ERRORS, done = false } = options;
  const [ownValues, setOwnValues] = useState<FormValues>({});
  const values = options.values ?? ownValues;
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
    if (options.onChange) options.onChange(name, value);
    else setOwnValues((v) => ({ ...v, [name]: value }));
  };
  /** A problem the screen found itself (a file refused before it is read), under its field. */
  const setError = (name: string, text: string) => setOwnErrors((e) => ({ ...e, [name]: text }));
  /** A fresh form (opened on another record): no problems from the last one; the form's own values, when given. */
  const reset = useCallback((fresh?: FormValues) => {
    setOwnErrors({});
    setTopError(null);
    if (fresh) setOwnValues(fresh);
  }, []);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (done || submitting) return;
    const omit = editing ? Object.keys(lockedOnEdit(fields)) : [];
    const own = { ...options.extraPayload, ...toPayload(shown, values, omit) };
    const payload = options.finish ? options.finish(own) : own;
    const blocked = options.precheck?.(payload) ?? null;
    setTopError(blocked);
    if (blocked) return;
    const problems = options.schema ? validate(options.schema, shown, payload) : null;
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
    } catch (err) {
      // Without `failure` the screen shows it (useAdminResource's serverErrors and formError).
      if (options.failure) {
        const [fallback, whenNoAnswer] = options.failure;
        const text = adminErrorText(err, fallback, whenNoAnswer);
        const under = serverFieldErrors(err, shown, text);
        if (under) {
          setOwnErrors(under);
          onProblems.current?.(under);
        } else if (options.onFailure) options.onFailure(text);
        else setTopError(text);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return { shown, values, errors, locked: lockedNow, topError, submitting, change, setError, reset, submit };
}

function lockedOnEdit(fields: readonly AdminField[]): Record<string, string> {
  return Object.fromEntries(fields.flatMap((f) => (f.lockedOnEdit ? [[f.name, f.lockedOnEdit]] : [])));
}

/** The tab holding the first of these problems, in form order (undefined when none is on a tab). */
export function firstProblemTab(fields: readonly AdminField[], problems: Readonly<Record<string, string>>): string | undefined {
  return fields.find((f) => problems[f.name] && f.tab)?.tab;
}
