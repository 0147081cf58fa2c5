import type { LiveClient, LiveState } from '@fixdesk/client';

/**
 * The live session a question is asked under: its number while connected, null otherwise. The server
 * sends `authenticated` after the socket joined its broadcasts, so a question asked after it came is
 * answered from data whose every later change this session announces; asked under null, or under an
 * older session, changes may have been missed and nothing will say so.
 */
export const connectedSession = (s: LiveState): number | null => (s.status === 'connected' ? s.session : null);

/**
 * Whether figures asked under these sessions (undefined: not answered yet) may miss a change the
 * connected session will not announce: one was asked under another session, or under none.
 */
export function askedBehind(connected: number | null, askedUnder: ReadonlyArray<number | null | undefined>): boolean {
  return connected !== null && askedUnder.some((s) => s !== undefined && s !== connected);
}

/**
 * Resolves once the live connection is no longer on its way up (connected, refused, waiting to retry,
 * or not held), or after `timeoutMs`: what is asked for then is covered by the session's messages, or
 * known not to be. A screen that holds the connection waits here before its first question, so that it
 * need not ask again when the connection comes up a moment later.
 */
export function whenLiveSettles(client: LiveClient, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (client.getState().status !== 'connecting') {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const stop = client.onState(() => {
      if (client.getState().status !== 'connecting') done();
    });
  });
}
