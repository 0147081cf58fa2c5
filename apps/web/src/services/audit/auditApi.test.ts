import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, NetworkError, type ApiClient } from '@fixdesk/client';
import { createAuditApi, loadErrorText } from './auditApi';

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

  it('passes the switches to the FIX message list and export', async () => {
    const { api, calls } = fakeApi(() => ({ messages: [{ id: 7 }] }));
    const audit = createAuditApi(api);
    const flags = { ignoreHeartbeats: true, ignoreSessionMessages: false };
    assert.deepEqual(await audit.fixMessages(flags), [{ id: 7 }]);
    await audit.exportFixMessages({ start: 'S', end: 'E' }, flags);
    assert.deepEqual(calls.map((c) => [c.path, c.query]), [
      ['/api/fix-messages', { ignoreHeartbeats: true, ignoreSessionMessages: false }],
      ['/api/fix-messages/export', { start: 'S', end: 'E', ignoreHeartbeats: true, ignoreSessionMessages: false }],
    ]);
  });

  it("says 'Failed to export FIX messages: {status}' with the server's reason", async () => {
    const audit = createAuditApi(fakeApi(() => new ApiError('start and end dates are required', 400, null)).api);
    await assert.rejects(audit.exportFixMessages({ start: '', end: '' }, { ignoreHeartbeats: true, ignoreSessionMessages: false }), {
      message: 'Failed to export FIX messages: 400 (start and end dates are required)',
    });
    const bare = createAuditApi(fakeApi(() => new ApiError('Request failed (502)', 502, null)).api);
    await assert.rejects(bare.exportFixMessages({ start: 'S', end: 'E' }, { ignoreHeartbeats: true, ignoreSessionMessages: false }), { message: 'Failed to export FIX messages: 502' });
  });

  it("words load errors as 'HTTP error! status: {code}'", () => {
    assert.equal(loadErrorText(new ApiError('x', 500, null)), 'HTTP error! status: 500');
    assert.equal(loadErrorText(new NetworkError(new Error('refused'))), 'Cannot reach the server. Check your connection and try again.');
  });
});
