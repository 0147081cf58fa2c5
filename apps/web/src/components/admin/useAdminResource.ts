import type { AdminField } from '@fixdesk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminErrorText, serverFieldErrors } from './errors';
import { initialValues, type FormValue, type FormValues } from './formValues';
import type { Banners } from './useBanners';

/** A write's answer: the server's own message, when it sends one, is what the banner says. */
export interface AdminAnswer {
  message?: string | undefined;
}

/** A failure in words (spec 001 §8): the text when the server answered without a message, and when it did not answer. */
export type FailureText = readonly [fallback: string, whenNoAnswer: (message: string) => string];

export interface AdminResourceTexts<T> {
  loadFailed: FailureText;
  created: string;
  updated: string;
  createFailed: FailureText;
  updateFailed: FailureText;
  deleted: (row: T) => string;
  deleteFailed: FailureText;
}

/** The calls of one resource (its services/ module, spread in), its rows named by their key (`id`) in their URLs. */
export interface AdminResourceCalls<T, K, A> {
  /** Reads the rows; called again on reload() and whenever `listKey` or `refreshKey` changes. */
  list: (signal: AbortSignal) => Promise<T[]>;
  create: (payload: Record<string, unknown>) => Promise<A>;
  update: (key: K, payload: Record<string, unknown>) => Promise<A>;
  remove: (key: K) => Promise<AdminAnswer>;
}

/**
 * Where a save's success is told: by default in a banner as the form closes. In the form instead, which
 * then either closes after `closeAfterMs` (nothing editable meanwhile) or goes on editing the record the
 * answer names (`stayOn`: a new record's dialog has more to fill once it exists).
 */
export type AfterSave<T, A> = { closeAfterMs: number } | { stayOn: (answer: A) => T };

export type AdminResourceOptions<T, K, A> = AdminResourceCalls<T, K, A> & {
  banners: Banners;
  /** The form's field descriptors: a server answer naming one of them shows under it. */
  fields: readonly AdminField[];
  texts: AdminResourceTexts<T>;
  /** What the list depends on (a client filter): a change reads it again and shows it loading meanwhile. */
  listKey?: unknown;
  /** A change reads the list again, the rows staying on screen meanwhile (a live session re-established). */
  refreshKey?: unknown;
  /** The form's values for a row, or for a new one (default: each field's value, or its default). */
  toValues?: (row: T | null) => FormValues;
  /** The success's words (default: the server's message, else `texts.created` or `texts.updated`). */
  savedText?: (answer: A, adding: boolean) => string;
  afterSave?: AfterSave<T, A>;
} & (T extends { id: K } ? { rowKey?: (row: T) => K } : { rowKey: (row: T) => K });

export type AdminEditing<T> = { mode: 'add' } | { mode: 'edit'; row: T } | null;

/**
 * The admin screens' shared handlers over one resource (react-admin's list/create/edit/delete
 * controller in our terms): the rows and their reload, the add/edit form's values and the server's
 * answer (under its field or at the top), the delete asked once more, and the banners of each outcome.
 * `formProps` spread into AdminFormModal, `deleteProps` into ConfirmDeleteModal or TypedConfirmDeleteModal.
 */
export function useAdminResource<T extends object, K extends string | number = number, A extends AdminAnswer = AdminAnswer>(
  options: AdminResourceOptions<T, K, A>,
) {
  // The latest options (the screen passes new closures each render) without re-running the load.
  const latest = useRef(options);
  latest.current = options;
  const { banners, listKey, refreshKey } = options;
  const { showError, showSuccess } = banners;
  const keyOf = useCallback((row: T): K => {
    const { rowKey } = latest.current as { rowKey?: (row: T) => K };
    return rowKey ? rowKey(row) : (row as T & { id: K }).id;
  }, []);

  const [rows, setRows] = useState<T[] | null>(null);
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const shownKey = useRef<unknown>(listKey);

  useEffect(() => {
    const controller = new AbortController();
    if (!Object.is(shownKey.current, listKey)) {
      shownKey.current = listKey;
      setRows(null);
    }
    latest.current.list(controller.signal).then(setRows, (err: unknown) => {
      if (controller.signal.aborted) return;
      setRows((r) => r ?? []);
      showError(failure(err, latest.current.texts.loadFailed));
    });
    return () => controller.abort();
  }, [listKey, refreshKey, reloads, showError]);

  const [editing, setEditing] = useState<AdminEditing<T>>(null);
  const [values, setValues] = useState<FormValues>({});
  // The values as opened or last saved: anything else is a change closing would drop.
  const [pristine, setPristine] = useState<FormValues>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  /** Shows a row (edit) or a new one (null) in the form, as it is stored. */
  const fill = useCallback((row: T | null) => {
    const { toValues, fields } = latest.current;
    const start = toValues ? toValues(row) : initialValues(fields, row);
    setEditing(row === null ? { mode: 'add' } : { mode: 'edit', row });
    setValues(start);
    setPristine(start);
    setServerErrors({});
    setFormError(null);
  }, []);
  /** Opens the form on a row (edit) or on a new one (null). */
  const [opens, setOpens] = useState(0);
  const open = useCallback(
    (row: T | null) => {
      window.clearTimeout(closeTimer.current);
      fill(row);
      setSaved(null);
      setOpens((n) => n + 1);
    },
    [fill],
  );
  const close = useCallback(() => {
    window.clearTimeout(closeTimer.current);
    setEditing(null);
  }, []);
  const setValue = useCallback((name: string, value: FormValue) => setValues((v) => ({ ...v, [name]: value })), []);

  const save = useCallback(
    async (payload: Record<string, unknown>) => {
      if (!editing) return;
      const { create, update, texts, fields, savedText, afterSave } = latest.current;
      const adding = editing.mode === 'add';
      setFormError(null);
      try {
        const answer = editing.mode === 'add' ? await create(payload) : await update(keyOf(editing.row), payload);
        const text = savedText ? savedText(answer, adding) : (answer.message ?? (adding ? texts.created : texts.updated));
        reload();
        if (!afterSave) {
          setEditing(null);
          showSuccess(text);
        } else if ('stayOn' in afterSave) {
          fill(afterSave.stayOn(answer));
          setSaved(text);
        } else {
          setSaved(text);
          closeTimer.current = window.setTimeout(() => setEditing(null), afterSave.closeAfterMs);
        }
      } catch (err) {
        const text = failure(err, adding ? texts.createFailed : texts.updateFailed);
        const under = serverFieldErrors(err, fields, text);
        if (under) setServerErrors(under);
        else setFormError(text);
        throw err; // keeps the form open
      }
    },
    [editing, showSuccess, reload, keyOf, fill],
  );

  // The row being deleted stays named while the confirmation fades out.
  const [deleting, setDeleting] = useState<T | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const askDelete = useCallback((row: T) => {
    setDeleting(row);
    setDeleteOpen(true);
  }, []);

  /** Deletes at once (after a confirmation of the screen's own), with its banner. */
  const remove = useCallback(
    async (row: T) => {
      const { remove: call, texts } = latest.current;
      try {
        const answer = await call(keyOf(row));
        showSuccess(answer.message ?? texts.deleted(row));
        reload();
      } catch (err) {
        showError(failure(err, texts.deleteFailed));
      }
    },
    [showSuccess, showError, reload, keyOf],
  );
  const confirmDelete = useCallback(async () => {
    try {
      if (deleting) await remove(deleting);
    } finally {
      setDeleteOpen(false);
    }
  }, [deleting, remove]);

  const editingRow = editing?.mode === 'edit' ? editing.row : null;
  const done = saved !== null && options.afterSave !== undefined && 'closeAfterMs' in options.afterSave;
  return {
    rows,
    setRows,
    reload,
    /** How many times the rows were read again (a key for what follows them, such as a change history). */
    reloads,
    editing,
    editingRow,
    /** Changes on every open(): a dialog keyed with it starts afresh (its first tab, no problems shown). */
    formKey: opens,
    open,
    close,
    values,
    setValue,
    setValues,
    /** The form holds changes not saved. */
    changed: editing !== null && Object.keys(values).some((name) => values[name] !== pristine[name]),
    /** The last save's words, while the form shows them (`afterSave`). */
    saved,
    remove,
    askDelete,
    deleting,
    formProps: {
      opened: editing !== null,
      editing: editingRow !== null,
      values,
      onChange: setValue,
      onClose: close,
      onSubmit: save,
      serverErrors,
      formError,
      done,
    },
    deleteProps: { opened: deleteOpen, onCancel: () => setDeleteOpen(false), onConfirm: confirmDelete },
  };
}

function failure(err: unknown, [fallback, whenNoAnswer]: FailureText): string {
  return adminErrorText(err, fallback, whenNoAnswer);
}
