import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCEPT_ALL, COOKIE_CONSENT_KEY, REJECT_NON_ESSENTIAL, parseConsent, readConsent, writeConsent } from './cookieConsent';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('cookie consent', () => {
  it('stores accept-all with necessary always true and an ISO timestamp', () => {
    const storage = memoryStorage();
    const at = new Date('2026-03-04T05:06:07.000Z');
    writeConsent(storage, ACCEPT_ALL, at);
    assert.deepEqual(JSON.parse(storage.data.get(COOKIE_CONSENT_KEY)!), {
      necessary: true,
      analytics: true,
      functional: true,
      timestamp: '2026-03-04T05:06:07.000Z',
    });
    assert.deepEqual(readConsent(storage), { necessary: true, analytics: true, functional: true, timestamp: at.toISOString() });
  });

  it('stores reject-non-essential as both false', () => {
    const storage = memoryStorage();
    writeConsent(storage, REJECT_NON_ESSENTIAL);
    const stored = readConsent(storage)!;
    assert.equal(stored.analytics, false);
    assert.equal(stored.functional, false);
    assert.equal(stored.necessary, true);
  });

  it('treats no value or a malformed value as no choice', () => {
    assert.equal(parseConsent(null), null);
    assert.equal(parseConsent('yes'), null);
    assert.equal(parseConsent('"accepted"'), null);
    assert.equal(parseConsent('{"analytics":true,"functional":"no","timestamp":"2026-01-01T00:00:00Z"}'), null);
    assert.equal(parseConsent('{"analytics":true,"functional":true,"timestamp":"whenever"}'), null);
  });

  it('forces necessary to true even if the stored value says otherwise', () => {
    const parsed = parseConsent('{"necessary":false,"analytics":false,"functional":true,"timestamp":"2026-01-01T00:00:00Z"}');
    assert.equal(parsed?.necessary, true);
    assert.equal(parsed?.functional, true);
  });
});
