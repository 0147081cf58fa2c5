import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useAuth } from '../auth/AuthProvider';
import { live } from './live';
import type { LiveClient, LiveMessageType, LiveHandler, LiveState } from './liveClient';

/**
 * Keeps the live connection open while the calling screen is mounted and a user is signed in, and
 * returns its state (status, users online, session number) plus retry().
 */
export function useLiveConnection(client: LiveClient = live): LiveState & { retry: () => void } {
  const { status, user } = useAuth();
  const signedIn = status === 'signedIn';
  const username = user?.username ?? null;
  useEffect(() => {
    if (!signedIn) return;
    return client.hold();
  }, [client, signedIn, username]);
  // A sign-out elsewhere ends the connection at once rather than after the idle delay.
  useEffect(() => {
    if (!signedIn) client.stop();
  }, [client, signedIn]);
  const state = useSyncExternalStore(client.onState, client.getState, client.getState);
  return { ...state, retry: client.retry };
}

/**
 * Calls handler for every live message of one type while mounted. The handler may change on every
 * render; the subscription does not.
 */
export function useLiveMessages<T extends LiveMessageType>(type: T, handler: LiveHandler<T>, client: LiveClient = live): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => client.subscribe(type, (message) => latest.current(message)), [client, type]);
}
