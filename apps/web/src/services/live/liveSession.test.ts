import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LiveClient, LiveState } from '@fixdesk/client';
import { askedBehind, connectedSession, whenLiveSettles } from './liveSession';

function fakeLive(status: LiveState['status']) {
  let state = { status, session: 0 } as LiveState;
  const listeners = new Set<() => void>();
  const client = {
    getState: () => state,
    onState: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  } as unknown as LiveClient;
  return {
    client,
    listeners,
    set(next: Partial<LiveState>) {
      state = { ...state, ...next };
      for (const l of [...listeners]) l();
    },
  };
}

test('a session counts while connected only', () => {
  assert.equal(connectedSession({ status: 'connected', session: 3 } as LiveState), 3);
  assert.equal(connectedSession({ status: 'reconnecting', session: 3 } as LiveState), null);
});

test('figures are behind when asked under another session or none, once a session is connected', () => {
  assert.equal(askedBehind(null, [null, 1]), false, 'nothing to compare with while not connected');
  assert.equal(askedBehind(1, [1, 1, undefined]), false, 'asked under the connected session; one not answered yet');
  assert.equal(askedBehind(1, [1, null]), true, 'asked before the connection came up');
  assert.equal(askedBehind(2, [1, 2]), true, 'asked before a reconnection or a resync');
});

test('waits for the live connection while it is coming up, and no longer', async () => {
  const idle = fakeLive('connected');
  await whenLiveSettles(idle.client, 10_000);

  const coming = fakeLive('connecting');
  let settled = false;
  const waiting = whenLiveSettles(coming.client, 10_000).then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(settled, false);
  coming.set({ status: 'connected', session: 1 });
  await waiting;
  assert.equal(coming.listeners.size, 0, 'stops listening');

  const failing = fakeLive('connecting');
  const failed = whenLiveSettles(failing.client, 10_000);
  failing.set({ status: 'reconnecting' });
  await failed;

  const slow = fakeLive('connecting');
  const started = Date.now();
  await whenLiveSettles(slow.client, 50);
  assert.ok(Date.now() - started >= 45, 'gives up after the time given');
  assert.equal(slow.listeners.size, 0);
});
