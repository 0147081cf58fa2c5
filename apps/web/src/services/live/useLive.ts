import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useAuth } from '../auth/AuthProvider';
import { live } from './live';
import type { LiveClient, LiveMessageType, LiveHandler, LiveState } from '@fixdesk/client';

/**
 * Keeps the live connection open while the calling screen is mounted and a user is signed in, and
 * returns its state (status, users online, session number) plus retry(). The caller re-renders on
 * every change of the state, the users-online heartbeat included; a big screen that needs only a
 * part holds the connection with useLiveHold and reads its parts with useLiveSelect.
 */
export function useLiveConnection(client: LiveClient = live): LiveState & { retry: () => void } {
  useLiveHold(client);
  const state = useSyncExternalStore(client.onState, client.getState, client.getState);
  return { ...state, retry: client.retry };
}

/**
 * One part of the live state: the caller re-renders only when that part changes (compared with
 * Object.is, so select a primitive or a part the client keeps as it is).
 */
export function useLiveSelect<T>(select: (state: LiveState) => T, client: LiveClient = live): T {
  const get = () => select(client.getState());
  return useSyncExternalStore(client.onState, get, get);
}

/** Keeps the live connection open while the calling screen is mounted and a user is signed in. */
export function useLiveHold(client: LiveClient = live): void {
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
