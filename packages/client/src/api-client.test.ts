import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, NetworkError, createApiClient, serverMessage, type ApiClientDeps } from './api-client';

interface Recorded {
  url: string;
  init: RequestInit;
}

function harness(respond: (url: string, init: RequestInit) => Response | Promise<Response>, token: string | null = null) {
  const calls: Recorded[] = [];
  let unauthorized = 0;
  const deps: ApiClientDeps = {
    baseUrl: '',
    getToken: () => token,
    onUnauthorized: () => {
      unauthorized += 1;
    },
    fetch: (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      calls.push({ url: String(input), init });
      return respond(String(input), init);
    }) as typeof fetch,
  };
  return { api: createApiClient(deps), calls, unauthorizedCount: () => unauthorized };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('api client', () => {
  it('sends the bearer token, cookies and a JSON body', async () => {
    const { api, calls } = harness(() => json(200, { ok: 1 }), 'tok-123');
    const result = await api.post<{ ok: number }>('/api/things', { a: 1 });
    assert.deepEqual(result, { ok: 1 });
    const call = calls[0]!;
    assert.equal(call.url, '/api/things');
    assert.equal(call.init.method, 'POST');
    assert.equal(call.init.credentials, 'include');
    assert.equal(call.init.body, '{"a":1}');
    const headers = call.init.headers as Record<string, string>;
    assert.equal(headers.Authorization, 'Bearer tok-123');
    assert.equal(headers['Content-Type'], 'application/json');
  });

  it('sends no Authorization header and no body when there is neither', async () => {
    const { api, calls } = harness(() => json(200, []));
    await api.get('/api/list', { query: { a: 'x y', skip: undefined, n: 2 } });
    const call = calls[0]!;
    assert.equal(call.url, '/api/list?a=x+y&n=2');
    assert.equal((call.init.headers as Record<string, string>).Authorization, undefined);
    assert.equal(call.init.body, undefined);
  });

  it('sends every change as JSON, {} when it has no body (the server refuses a cookie-signed change in any other form)', async () => {
    const { api, calls } = harness(() => json(200, {}));
    await api.post('/api/x/connect');
    await api.delete('/api/x/1');
    for (const call of calls) {
      assert.equal(call.init.body, '{}', call.init.method);
      assert.equal((call.init.headers as Record<string, string>)['Content-Type'], 'application/json');
    }
  });

  it('surfaces the server message of an error answer', async () => {
    const { api } = harness(() => json(400, { success: false, message: 'Symbol is required', field: 'symbol' }));
    await assert.rejects(api.get('/api/x'), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.message, 'Symbol is required');
      assert.equal(error.status, 400);
      assert.equal(error.field, 'symbol');
      return true;
    });
  });

  it('falls back to the error field, then to the status', async () => {
    const first = harness(() => json(500, { error: 'Database unavailable' }));
    await assert.rejects(first.api.get('/api/x'), { message: 'Database unavailable' });
    const second = harness(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await assert.rejects(second.api.get('/api/x'), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.message, 'Request failed (502)');
      assert.equal(error.body, null);
      return true;
    });
  });

  it('reports a 401 as a lost session unless the caller handles it', async () => {
    const h = harness(() => json(401, { success: false, message: 'Authentication required' }));
    await assert.rejects(h.api.get('/api/orders'), ApiError);
    assert.equal(h.unauthorizedCount(), 1);
    await assert.rejects(h.api.post('/api/auth/login', {}, { on401: 'report' }), ApiError);
    assert.equal(h.unauthorizedCount(), 1);
  });

  it('does not treat 403 as a lost session', async () => {
    const h = harness(() => json(403, { success: false, message: 'You do not have permission to perform this action.' }));
    await assert.rejects(h.api.get('/api/users'), { message: 'You do not have permission to perform this action.' });
    assert.equal(h.unauthorizedCount(), 0);
  });

  it('wraps a transport failure in NetworkError', async () => {
    const { api } = harness(() => {
      throw new TypeError('fetch failed');
    });
    await assert.rejects(api.get('/api/health'), NetworkError);
  });

  it('returns null for an empty success body', async () => {
    const { api } = harness(() => new Response(null, { status: 204 }));
    assert.equal(await api.delete('/api/x/1'), null);
  });

  it('serverMessage ignores blank and non-string values', () => {
    assert.equal(serverMessage({ message: '  ', error: 'E' }), 'E');
    assert.equal(serverMessage({ message: 42 }), null);
    assert.equal(serverMessage(null), null);
    assert.equal(serverMessage(['message']), null);
  });
});
