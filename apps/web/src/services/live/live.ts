import { sessionStore } from '../api/http';
import { createLiveClient, type SocketLike } from '@fixdesk/client';

/** The socket URL: same origin as the page (ws:, or wss: when the page is https:), or beside VITE_API_BASE_URL. */
export function liveSocketUrl(location: Pick<Location, 'protocol' | 'host'>, apiBase: string | undefined): string {
  if (apiBase) {
    const url = new URL(apiBase, `${location.protocol}//${location.host}`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/ws`;
    return url.toString();
  }
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/** The browser's one live client. */
export const live = createLiveClient({
  url: () => liveSocketUrl(window.location, import.meta.env.VITE_API_BASE_URL),
  getToken: () => sessionStore.token(),
  createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
  now: () => Date.now(),
  warn: (message, detail) => (detail === undefined ? console.warn(message) : console.warn(message, detail)),
});
