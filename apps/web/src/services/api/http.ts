import { createAuthApi } from '../auth/authApi';
import { createSessionStore } from '../auth/sessionStore';
import { createApiClient } from '@fixdesk/client';

/**
 * The browser's instances: one session store over localStorage and one API client that
 * reads its token from it. The auth provider installs the "session ended" reaction.
 */
export const sessionStore = createSessionStore(window.localStorage);

let unauthorizedHandler: () => void = () => {};

/** Installed by the auth provider: what to do when any call finds the session gone. */
export function setUnauthorizedHandler(handler: () => void): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = () => {};
  };
}

export const api = createApiClient({
  fetch: (...args) => window.fetch(...args),
  baseUrl: import.meta.env.VITE_API_BASE_URL ?? '',
  getToken: () => sessionStore.token(),
  onUnauthorized: () => unauthorizedHandler(),
});

export const authApi = createAuthApi(api);
