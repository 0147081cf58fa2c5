import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SESSION_TTL_MS, type SessionUser } from '@fixdesk/protocol';
import { createSessionStore, sessionExpiry, type KeyValueStorage } from './sessionStore';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

const broker: SessionUser = {
  user_id: 7,
  username: 'broker',
  role: 'broker',
  first_name: 'Bea',
  last_name: 'Broker',
  email: 'bea@example.org',
};

describe('session store', () => {
  it('round-trips a session', () => {
    const storage = memoryStorage();
    let now = 1_000;
    const store = createSessionStore(storage, () => now);
    store.save({ user: broker, token: 'abc', expiresAt: now + 5_000 });
    assert.deepEqual(store.load(), { user: broker, token: 'abc', expiresAt: 6_000 });
    assert.equal(store.token(), 'abc');
    now = 5_999;
    assert.equal(store.load()?.user.username, 'broker');
  });

  it('clears the user and every token name once the session has expired', () => {
    const storage = memoryStorage({ authToken: 'old', sessionId: 'older' });
    let now = 0;
    const store = createSessionStore(storage, () => now);
    store.save({ user: broker, token: 'abc', expiresAt: 100 });
    now = 100;
    assert.equal(store.load(), null);
    assert.equal(store.token(), null);
    assert.deepEqual([...storage.data.keys()], []);
  });

  it('reads the token under token, authToken or sessionId', () => {
    for (const key of ['token', 'authToken', 'sessionId']) {
      const storage = memoryStorage({ user: JSON.stringify(broker), sessionExpiresAt: '9999999999999', [key]: 't-' + key });
      assert.equal(createSessionStore(storage, () => 0).token(), 't-' + key);
    }
  });

  it('keeps a cookie-only session (no token)', () => {
    const store = createSessionStore(memoryStorage(), () => 0);
    store.save({ user: broker, token: null, expiresAt: 10 });
    assert.deepEqual(store.load(), { user: broker, token: null, expiresAt: 10 });
  });

  it('drops a malformed stored user', () => {
    const storage = memoryStorage({ user: '{"username":1}', sessionExpiresAt: '9999999999999', token: 'x' });
    assert.equal(createSessionStore(storage, () => 0).load(), null);
    assert.equal(storage.data.size, 0);
    const garbage = memoryStorage({ user: 'not json', sessionExpiresAt: '9999999999999' });
    assert.equal(createSessionStore(garbage, () => 0).load(), null);
  });

  it('drops a session without an expiry, and a stray token without a user', () => {
    const noExpiry = memoryStorage({ user: JSON.stringify(broker), token: 'x' });
    assert.equal(createSessionStore(noExpiry, () => 0).load(), null);
    const strayToken = memoryStorage({ authToken: 'x' });
    assert.equal(createSessionStore(strayToken, () => 0).load(), null);
    assert.equal(strayToken.data.size, 0);
  });

  it('survives a storage that throws', () => {
    const hostile: KeyValueStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = createSessionStore(hostile, () => 0);
    assert.equal(store.load(), null);
    assert.doesNotThrow(() => store.clear());
  });
});

describe('sessionExpiry', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('uses the server expiry when it is sooner than 24 hours', () => {
    assert.equal(sessionExpiry('2026-01-01T01:00:00Z', now), now + 3_600_000);
  });
  it('caps at 24 hours', () => {
    assert.equal(sessionExpiry('2026-01-09T00:00:00Z', now), now + SESSION_TTL_MS);
    assert.equal(sessionExpiry(undefined, now), now + SESSION_TTL_MS);
    assert.equal(sessionExpiry('not a date', now), now + SESSION_TTL_MS);
  });
});

describe('sessionStore with two tabs', () => {
  it('a read between the writes of another tab neither signs out nor clears', () => {
    const data = new Map<string, string>();
    const writes: string[] = [];
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => {
        writes.push(k);
        data.set(k, v);
      },
      removeItem: (k: string) => void data.delete(k),
    };
    const store = createSessionStore(storage, () => 1_000);
    const user = { user_id: 1, username: 'broker', role: 'broker' as const, first_name: 'Ben', last_name: null, email: null };
    store.save({ user, token: 't1', expiresAt: 5_000 });
    assert.equal(writes.at(-1), 'user', 'the user key is written last');
    // Tab B half-way through a new sign-in: token and expiry rewritten, the user not yet.
    data.set('token', 't2');
    data.set('sessionExpiresAt', '9000');
    const seen = store.load();
    assert.equal(seen?.token, 't2');
    assert.equal(data.get('user') !== undefined, true, 'nothing was cleared');
  });
});
