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

/** The calls of one resource (its services/ module, spread in), its rows named by id in their URLs. */
export interface AdminResourceCalls<T> {
  /** Reads the rows; called again on reload() and whenever `listKey` changes. */
  list: (signal: AbortSignal) => Promise<T[]>;
  create: (payload: Record<string, unknown>) => Promise<AdminAnswer>;
  update: (id: number, payload: Record<string, unknown>) => Promise<AdminAnswer>;
  remove: (id: number) => Promise<AdminAnswer>;
}

export interface AdminResourceOptions<T> extends AdminResourceCalls<T> {
  banners: Banners;
  /** The form's field descriptors: a server answer naming one of them shows under it. */
  fields: readonly AdminField[];
  texts: AdminResourceTexts<T>;
  /** What the list depends on (a client filter): a change reads it again and shows it loading meanwhile. */
  listKey?: unknown;
  /** The form's values for a row, or for a new one (default: each field's value, or its default). */
  toValues?: (row: T | null) => FormValues;
}

export type AdminEditing<T> = { mode: 'add' } | { mode: 'edit'; row: T } | null;

/**
 * The admin screens' shared handlers over one resource (react-admin's list/create/edit/delete
 * controller in our terms): the rows and their reload, the add/edit form's values and the server's
 * answer (under its field or at the top), the delete asked once more, and the banners of each outcome.
 * `formProps` spread into AdminFormModal, `deleteProps` into ConfirmDeleteModal or TypedConfirmDeleteModal.
 */
export function useAdminResource<T extends { id: number }>(options: AdminResourceOptions<T>) {
  // The latest options (the screen passes new closures each render) without re-running the load.
  const latest = useRef(options);
  latest.current = options;
  const { banners, listKey } = options;
  const { showError, showSuccess } = banners;

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
  }, [listKey, reloads, showError]);

  const [editing, setEditing] = useState<AdminEditing<T>>(null);
  const [values, setValues] = useState<FormValues>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  /** Opens the form on a row (edit) or on a new one (null). */
  const open = useCallback((row: T | null) => {
    const { toValues, fields } = latest.current;
    setEditing(row === null ? { mode: 'add' } : { mode: 'edit', row });
    setValues(toValues ? toValues(row) : initialValues(fields, row as unknown as Record<string, unknown> | null));
    setServerErrors({});
    setFormError(null);
  }, []);
  const close = useCallback(() => setEditing(null), []);
  const setValue = useCallback((name: string, value: FormValue) => setValues((v) => ({ ...v, [name]: value })), []);

  const save = useCallback(
    async (payload: Record<string, unknown>) => {
      if (!editing) return;
      const { create, update, texts, fields } = latest.current;
      const adding = editing.mode === 'add';
      try {
        const answer = editing.mode === 'add' ? await create(payload) : await update(editing.row.id, payload);
        setEditing(null);
        showSuccess(answer.message ?? (adding ? texts.created : texts.updated));
        reload();
      } catch (err) {
        const text = failure(err, adding ? texts.createFailed : texts.updateFailed);
        const under = serverFieldErrors(err, fields, text);
        if (under) setServerErrors(under);
        else setFormError(text);
        throw err; // keeps the form open
      }
    },
    [editing, showSuccess, reload],
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
        const answer = await call(row.id);
        showSuccess(answer.message ?? texts.deleted(row));
        reload();
      } catch (err) {
        showError(failure(err, texts.deleteFailed));
      }
    },
    [showSuccess, showError, reload],
  );
  const confirmDelete = useCallback(async () => {
    try {
      if (deleting) await remove(deleting);
    } finally {
      setDeleteOpen(false);
    }
  }, [deleting, remove]);

  const editingRow = editing?.mode === 'edit' ? editing.row : null;
  return {
    rows,
    reload,
    editing,
    editingRow,
    open,
    close,
    values,
    setValue,
    setValues,
    remove,
    askDelete,
    deleting,
    formProps: { opened: editing !== null, values, onChange: setValue, onClose: close, onSubmit: save, serverErrors, formError },
    deleteProps: { opened: deleteOpen, onCancel: () => setDeleteOpen(false), onConfirm: confirmDelete },
  };
}

function failure(err: unknown, [fallback, whenNoAnswer]: FailureText): string {
  return adminErrorText(err, fallback, whenNoAnswer);
}
