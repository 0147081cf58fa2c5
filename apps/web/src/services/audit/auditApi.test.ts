import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, NetworkError, type ApiClient } from '@fixdesk/client';
import { createAuditApi, loadErrorText, ORDER_ACTIONS_PAGE_ROWS, ORDER_ACTIONS_SCREEN_ROWS } from './auditApi';

function fakeApi(answer: (path: string, query: unknown) => unknown): { api: ApiClient; calls: Array<{ path: string; query: unknown }> } {
  const calls: Array<{ path: string; query: unknown }> = [];
  const get = async <T>(path: string, options?: { query?: unknown }) => {
    calls.push({ path, query: options?.query });
    const a = answer(path, options?.query);
    if (a instanceof Error) throw a;
    return a as T;
  };
  const api = { get, request: get, post: get, put: get, delete: get } as unknown as ApiClient;
  return { api, calls };
}

describe('audit API', () => {
  it('reads order actions bare or wrapped, with a date range for exports', async () => {
    const { api, calls } = fakeApi((_p, q) => (q ? [{ id: 2 }] : { success: true, actions: [{ id: 1 }] }));
    const audit = createAuditApi(api);
    assert.deepEqual(await audit.orderActions(), [{ id: 1 }]);
    assert.deepEqual(await audit.orderActions({ start: 'S', end: 'E' }), [{ id: 2 }]);
    assert.deepEqual(calls[1], { path: '/api/order-actions/export', query: { start: 'S', end: 'E', limit: 100_000 } });
  });

  it("reads the Order Actions screen's rows a page at a time, older pages by the last id, up to the screen's rows", async () => {
    // 10,500 actions, newest (highest id) first.
    const all = Array.from({ length: 10_500 }, (_, i) => ({ id: 10_500 - i }));
    const { api, calls } = fakeApi((_p, q) => {
      const { limit, beforeId } = q as { limit: number; beforeId?: number };
      return { actions: all.filter((a) => beforeId === undefined || a.id < beforeId).slice(0, limit) };
    });
    const pages: Array<[number, number, boolean]> = [];
    await createAuditApi(api).orderActionPages((page, last) => pages.push([page[0]!.id, page.length, last]));
    assert.equal(pages.length, ORDER_ACTIONS_SCREEN_ROWS / ORDER_ACTIONS_PAGE_ROWS);
    assert.deepEqual(pages[0], [10_500, 1000, false]);
    assert.deepEqual(pages[1], [9_500, 1000, false]);
    assert.deepEqual(pages.at(-1), [1_500, 1000, true]);
    assert.deepEqual(calls[1], { path: '/api/order-actions', query: { limit: 1000, beforeId: 9_501 } });

    // A short page is the last.
    const few = fakeApi(() => ({ actions: [{ id: 3 }, { id: 2 }] }));
    const seen: boolean[] = [];
    await createAuditApi(few.api).orderActionPages((_page, last) => seen.push(last));
    assert.deepEqual(seen, [true]);
    assert.deepEqual(few.calls, [{ path: '/api/order-actions', query: { limit: 1000 } }]);
  });

  it('passes the switches to the FIX message list and export', async () => {
    const { api, calls } = fakeApi(() => ({ messages: [{ id: 7 }] }));
    const audit = createAuditApi(api);
    const flags = { ignoreHeartbeats: true, ignoreSessionMessages: false };
    assert.deepEqual(await audit.fixMessages(flags), [{ id: 7 }]);
    await audit.exportFixMessages({ start: 'S', end: 'E' }, flags);
    assert.deepEqual(
      calls.map((c) => [c.path, c.query]),
      [
        ['/api/fix-messages', { ignoreHeartbeats: true, ignoreSessionMessages: false }],
        ['/api/fix-messages/export', { start: 'S', end: 'E', ignoreHeartbeats: true, ignoreSessionMessages: false }],
      ],
    );
  });

  it("says 'Failed to export FIX messages: {status}' with the server's reason", async () => {
    const audit = createAuditApi(fakeApi(() => new ApiError('start and end dates are required', 400, null)).api);
    await assert.rejects(audit.exportFixMessages({ start: '', end: '' }, { ignoreHeartbeats: true, ignoreSessionMessages: false }), {
      message: 'Failed to export FIX messages: 400 (start and end dates are required)',
    });
    const bare = createAuditApi(fakeApi(() => new ApiError('Request failed (502)', 502, null)).api);
    await assert.rejects(bare.exportFixMessages({ start: 'S', end: 'E' }, { ignoreHeartbeats: true, ignoreSessionMessages: false }), {
      message: 'Failed to export FIX messages: 502',
    });
  });

  it("words load errors as 'HTTP error! status: {code}'", () => {
    assert.equal(loadErrorText(new ApiError('x', 500, null)), 'HTTP error! status: 500');
    assert.equal(loadErrorText(new NetworkError(new Error('refused'))), 'Cannot reach the server. Check your connection and try again.');
  });
});
