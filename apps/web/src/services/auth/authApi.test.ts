import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SessionUser } from '@fixdesk/protocol';
import { ApiError, NetworkError, createApiClient } from '@fixdesk/client';
import { LOGIN_ERROR_TEXT, LoginFailedError, createAuthApi, loginErrorText } from './authApi';

const admin: SessionUser = { user_id: 1, username: 'admin', role: 'admin', first_name: 'Ada', last_name: 'Admin', email: null };

function authApiAnswering(respond: () => Response) {
  let unauthorized = 0;
  const api = createApiClient({
    baseUrl: '',
    getToken: () => null,
    onUnauthorized: () => {
      unauthorized += 1;
    },
    fetch: (async () => respond()) as unknown as typeof fetch,
  });
  return { auth: createAuthApi(api), unauthorized: () => unauthorized };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

async function loginMessage(respond: () => Response): Promise<string> {
  const { auth, unauthorized } = authApiAnswering(respond);
  try {
    await auth.login({ username: 'admin', password: 'x' });
  } catch (error) {
    assert.ok(error instanceof LoginFailedError);
    assert.equal(unauthorized(), 0, 'a failed sign-in is not a lost session');
    return error.message;
  }
  throw new Error('login unexpectedly succeeded');
}

describe('login', () => {
  it('returns the user and token on success', async () => {
    const { auth } = authApiAnswering(() =>
      json(200, { success: true, user: admin, token: 't', expiresAt: '2030-01-01T00:00:00Z', message: 'Login successful' }),
    );
    const result = await auth.login({ username: 'admin', password: 'x' });
    assert.equal(result.token, 't');
    assert.deepEqual(result.user, admin);
  });

  it('shows the server message of a rejected sign-in', async () => {
    assert.equal(
      await loginMessage(() => json(401, { success: false, message: 'Invalid username or password' })),
      'Invalid username or password',
    );
    assert.equal(
      await loginMessage(() => json(429, { success: false, message: 'Too many failed sign-in attempts. Try again in 30 seconds.' })),
      'Too many failed sign-in attempts. Try again in 30 seconds.',
    );
  });

  it('names the status when the server gave no message', async () => {
    assert.equal(await loginMessage(() => new Response('', { status: 503 })), 'Authentication failed (503)');
  });

  it('says Authentication failed for a 200 that is not a success', async () => {
    assert.equal(await loginMessage(() => json(200, { success: false })), LOGIN_ERROR_TEXT.rejected);
    assert.equal(await loginMessage(() => json(200, { success: false, message: 'Account disabled' })), 'Account disabled');
  });

  it('treats a success without a usable user or token as unexpected', async () => {
    assert.equal(await loginMessage(() => json(200, { success: true, user: { username: 'x' }, token: 't' })), LOGIN_ERROR_TEXT.unexpected);
    assert.equal(await loginMessage(() => json(200, { success: true, user: admin })), LOGIN_ERROR_TEXT.unexpected);
  });

  it('maps a network failure to An unexpected error occurred', async () => {
    assert.equal(
      await loginMessage(() => {
        throw new TypeError('Failed to fetch');
      }),
      LOGIN_ERROR_TEXT.unexpected,
    );
  });

  it('loginErrorText covers each kind of failure', () => {
    assert.equal(loginErrorText(new ApiError('x', 500, { message: 'Boom' })), 'Boom');
    assert.equal(loginErrorText(new ApiError('x', 500, null)), 'Authentication failed (500)');
    assert.equal(loginErrorText(new NetworkError(new Error())), LOGIN_ERROR_TEXT.unexpected);
    assert.equal(loginErrorText('weird'), LOGIN_ERROR_TEXT.unexpected);
  });
});

describe('me', () => {
  it('returns the session user', async () => {
    const { auth } = authApiAnswering(() => json(200, { success: true, user: admin, expiresAt: '2030-01-01T00:00:00Z' }));
    assert.deepEqual(await auth.me(), { user: admin, expiresAt: '2030-01-01T00:00:00Z' });
  });

  it('returns null without signalling a lost session when there is none', async () => {
    const { auth, unauthorized } = authApiAnswering(() => json(401, { success: false, message: 'Authentication required' }));
    assert.equal(await auth.me(), null);
    assert.equal(unauthorized(), 0);
  });

  it('rethrows server and network failures so a stored session survives an outage', async () => {
    const { auth } = authApiAnswering(() => json(500, { message: 'db down' }));
    await assert.rejects(auth.me(), { message: 'db down' });
  });
});
