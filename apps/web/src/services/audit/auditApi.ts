import type { ClientConnector, FixMessageRecord, OrderAction, ParsedFixMessage } from '@fixdesk/protocol';
import { ApiError, loadReference, type ApiClient } from '@fixdesk/client';

/**
 * The compliance screens' calls (spec 000 §7): GET /api/order-actions, GET /api/fix-messages and
 * /api/fix-messages/export, the detail view's GET /api/fix-messages/{id}/parsed, and the client
 * connectors for the clients' logos.
 */
export interface FixMessageOptions {
  ignoreHeartbeats: boolean;
  ignoreSessionMessages: boolean;
}

/** One entry of the who-looked log (GET /api/audit-access). */
export interface AuditAccessEntry {
  id: number;
  timestamp: string;
  username: string;
  role: string;
  action:
    | 'export_fix_messages'
    | 'export_order_actions'
    | 'view_fix_message'
    | 'view_order_action'
    | 'list_fix_messages'
    | 'list_order_actions'
    | 'view_order_timeline';
  subject_id: number | null;
  range_start: string | null;
  range_end: string | null;
  filter: Record<string, unknown>;
  row_count: number | null;
  ip: string | null;
}

/** The Order Actions screen's rows: the newest first page at once, then older pages (keyset by id) up to this many. */
export const ORDER_ACTIONS_SCREEN_ROWS = 10_000;
export const ORDER_ACTIONS_PAGE_ROWS = 1_000;

export interface AuditApi {
  orderActions(range?: { start: string; end: string; limit?: number }, signal?: AbortSignal): Promise<OrderAction[]>;
  /**
   * The Order Actions screen's rows, newest first, a page at a time (the first page shows while the
   * older ones come): `onPage` hears each page and whether it was the last.
   */
  orderActionPages(onPage: (actions: OrderAction[], last: boolean) => void, signal?: AbortSignal): Promise<void>;
  /** One action as the detail view opens it (the server records who looked). */
  orderAction(id: number, signal?: AbortSignal): Promise<OrderAction>;
  /** Who exported from or opened the audit record, newest first (administrators only). */
  auditAccess(signal?: AbortSignal): Promise<AuditAccessEntry[]>;
  fixMessages(options: FixMessageOptions, signal?: AbortSignal): Promise<FixMessageRecord[]>;
  exportFixMessages(range: { start: string; end: string }, options: FixMessageOptions, signal?: AbortSignal): Promise<FixMessageRecord[]>;
  /**
   * The range as the server's streamed CSV file (GET /api/fix-messages/export.csv), read as it comes:
   * onProgress hears the rows received so far and the total the server announced.
   */
  exportFixMessagesCsv(
    range: { start: string; end: string },
    options: FixMessageOptions,
    onProgress: (progress: ExportProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ file: Blob; rows: number }>;
  /** The range as the server's streamed CSV file (GET /api/order-actions/export.csv), read as it comes. */
  exportOrderActionsCsv(
    range: { start: string; end: string },
    onProgress: (progress: ExportProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ file: Blob; rows: number }>;
  parsedFixMessage(id: number, signal?: AbortSignal): Promise<ParsedFixMessage>;
  clientConnectors(signal?: AbortSignal): Promise<ClientConnector[]>;
}

/** How far a streamed export has come. */
export interface ExportProgress {
  rows: number;
  /** What the server announced (X-Export-Rows); null when it did not. */
  total: number | null;
}

/** Reads a streamed CSV answer to the end: its parts as a Blob, rows counted as lines after the heading. */
async function readCsv(response: Response, onProgress: (progress: ExportProgress) => void): Promise<{ file: Blob; rows: number }> {
  const announced = response.headers.get('x-export-rows');
  const total = announced === null ? null : Number(announced);
  const parts: Uint8Array[] = [];
  let lines = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    onProgress({ rows: Math.max(0, lines - 1), total });
  }
  return { file: new Blob(parts as BlobPart[], { type: 'text/csv;charset=utf-8' }), rows: Math.max(0, lines - 1) };
}

/**
 * Spec 000 §8: 'Failed to export FIX messages: {status}', with the server's reason when it gave one; the
 * spec names no text for the order actions' export, which says the same of its own records.
 */
function exportError(err: unknown, what = 'FIX messages'): unknown {
  if (err instanceof ApiError)
    return new Error(
      `Failed to export ${what}: ${err.status}${err.message && !/^Request failed \(/.test(err.message) ? ` (${err.message})` : ''}`,
    );
  return err;
}

/** The most rows one export asks for (the server's cap per request). */
const EXPORT_ROW_LIMIT = 100_000;

function list<T>(body: { actions?: T[]; messages?: T[]; data?: T[] } | T[] | null): T[] {
  if (Array.isArray(body)) return body;
  return body?.actions ?? body?.messages ?? body?.data ?? [];
}

const flags = (o: FixMessageOptions) => ({ ignoreHeartbeats: o.ignoreHeartbeats, ignoreSessionMessages: o.ignoreSessionMessages });

export function createAuditApi(api: ApiClient): AuditApi {
  return {
    async orderActions(range, signal) {
      // A date range is an export: its own endpoint, which records who exported what (who looked).
      const query = range ? { start: range.start, end: range.end, limit: range.limit ?? EXPORT_ROW_LIMIT } : undefined;
      return list(
        await api.get<{ actions?: OrderAction[] } | OrderAction[]>(range ? '/api/order-actions/export' : '/api/order-actions', {
          signal,
          query,
        }),
      );
    },
    async orderActionPages(onPage, signal) {
      let beforeId: number | undefined;
      for (let loaded = 0; ;) {
        const query = { limit: ORDER_ACTIONS_PAGE_ROWS, ...(beforeId === undefined ? {} : { beforeId }) };
        const page = list(await api.get<{ actions?: OrderAction[] } | OrderAction[]>('/api/order-actions', { signal, query }));
        loaded += page.length;
        const last = page.length < ORDER_ACTIONS_PAGE_ROWS || loaded >= ORDER_ACTIONS_SCREEN_ROWS;
        onPage(page, last);
        if (last) return;
        beforeId = page.reduce((min, a) => Math.min(min, a.id), Number.MAX_SAFE_INTEGER);
      }
    },
    async auditAccess(signal) {
      return list(await api.get<{ data?: AuditAccessEntry[] }>('/api/audit-access', { signal }));
    },
    async orderAction(id, signal) {
      const body = await api.get<{ data: OrderAction }>(`/api/order-actions/${encodeURIComponent(String(id))}`, { signal });
      return body.data;
    },
    async fixMessages(options, signal) {
      return list(
        await api.get<{ messages?: FixMessageRecord[] } | FixMessageRecord[]>('/api/fix-messages', { signal, query: flags(options) }),
      );
    },
    async exportFixMessages(range, options, signal) {
      try {
        const query = { start: range.start, end: range.end, ...flags(options) };
        return list(await api.get<{ messages?: FixMessageRecord[] } | FixMessageRecord[]>('/api/fix-messages/export', { signal, query }));
      } catch (err) {
        throw exportError(err);
      }
    },
    async exportFixMessagesCsv(range, options, onProgress, signal) {
      try {
        const query = { start: range.start, end: range.end, ...flags(options) };
        return await readCsv(await api.stream('/api/fix-messages/export.csv', { signal, query }), onProgress);
      } catch (err) {
        throw exportError(err);
      }
    },
    async exportOrderActionsCsv(range, onProgress, signal) {
      try {
        return await readCsv(
          await api.stream('/api/order-actions/export.csv', { signal, query: { start: range.start, end: range.end } }),
          onProgress,
        );
      } catch (err) {
        throw exportError(err, 'order actions');
      }
    },
    async parsedFixMessage(id, signal) {
      const body = await api.get<{ data: ParsedFixMessage }>(`/api/fix-messages/${encodeURIComponent(String(id))}/parsed`, { signal });
      return body.data;
    },
    clientConnectors: (signal) =>
      loadReference('clientConnectors', async () =>
        list(await api.get<{ data?: ClientConnector[] } | ClientConnector[]>('/api/client-connectors', { signal })),
      ),
  };
}

/** The error states' text (spec 000 §8): 'HTTP error! status: {code}', or why no answer came. */
export function loadErrorText(err: unknown): string {
  if (err instanceof ApiError) return `HTTP error! status: ${err.status}`;
  return err instanceof Error ? err.message : String(err);
}
