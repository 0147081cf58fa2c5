/**
 * The app's one WebSocket client (spec 000 §7, §9; STYLE "live data flows one way"). It owns the
 * socket to /ws, authenticates with the stored token, and when the socket is lost keeps reconnecting
 * for as long as a screen holds it, with a back-off from 3 s doubling to at most 30 s (a desk
 * left open through an outage comes back by itself). Screens never see the socket: they read the
 * connection state and subscribe to message types.
 *
 * Framework-free on purpose (the React hooks sit in useLive.ts), so the reconnect policy and the
 * dispatch are unit-tested under node with a fake socket and fake timers.
 */
import { WS_CLOSE, WS_PROTOCOL_VERSION, type OnlineUser, type SessionUser, type WsServerMessage } from '@fixdesk/protocol';

/** Spec 000 §9: socket reconnect interval 3000 ms (the first retry); then doubling, capped at 30 s, never giving up: a desk must not stay offline. */
export const RECONNECT_INTERVAL_MS = 3000;
export const MAX_RECONNECT_DELAY_MS = 30_000;

/** The wait before reconnect try `attempt` (1-based): 3, 6, 12, 24 s, then 30 s for every try after. */
export function reconnectDelayMs(attempt: number): number {
  const doublings = Math.max(0, Math.min(attempt - 1, 16));
  return Math.min(MAX_RECONNECT_DELAY_MS, RECONNECT_INTERVAL_MS * 2 ** doublings);
}

/**
 * Why a socket closed, in words for a broker: the browser's close codes (1006 and the like) are not
 * shown; a reason the server gave is.
 */
export function closeReason(code: number, reason: string): string {
  if (reason) return reason;
  if (code === 1001) return 'The server is restarting';
  return 'The connection to the server was lost';
}
/**
 * The server sends a heartbeat every 15 s. A socket silent for this long is treated as dead even if
 * the browser has not noticed yet (a laptop lid, a dropped VPN), so the broker is told at once.
 */
export const SILENCE_TIMEOUT_MS = 40_000;
/** A live client with no user for this long closes its socket (route changes keep it open). */
export const IDLE_CLOSE_MS = 1500;

export type LiveStatus =
  /** No screen needs the connection, or nobody is signed in. */
  | 'idle'
  /** Opening the socket or waiting for `authenticated`. */
  | 'connecting'
  | 'connected'
  /** Lost; the next try is scheduled (see attempt / nextRetryAt). Tries go on until the page closes. */
  | 'reconnecting'
  /** The server refused the token or our protocol version; retrying cannot help without a new sign-in or a reload. */
  | 'refused';

export interface LiveState {
  status: LiveStatus;
  /** The reconnect try in progress or scheduled, 1-based; 0 while connected or idle. */
  attempt: number;
  /** Epoch ms of the next scheduled try while reconnecting. */
  nextRetryAt: number | null;
  /** Why the last connection ended (close reason or a short description). */
  lastError: string | null;
  /** The user the server authenticated the socket as. */
  user: SessionUser | null;
  connectedUsers: number;
  activeUsers: readonly OnlineUser[];
  /**
   * Bumped on every successful authentication and on the server's `resync`: a new number means
   * "resynchronise your snapshot".
   */
  session: number;
}

export type LiveMessageType = WsServerMessage['type'];
export type LiveMessage<T extends LiveMessageType> = Extract<WsServerMessage, { type: T }>;
export type LiveHandler<T extends LiveMessageType> = (message: LiveMessage<T>) => void;

/** The subset of the browser WebSocket the client uses, so tests can pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveClientDeps {
  url: () => string;
  /** The stored bearer token, read at every connect so a new sign-in takes effect. Null: nobody is signed in. */
  getToken: () => string | null;
  createSocket: (url: string) => SocketLike;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  now: () => number;
  /** Where unhandled message types and malformed frames are reported (spec 000 §8: console warning only). */
  warn: (message: string, detail?: unknown) => void;
}

export interface LiveClient {
  getState(): LiveState;
  /** Called with no argument whenever getState() returns a new object. */
  onState(listener: () => void): () => void;
  subscribe<T extends LiveMessageType>(type: T, handler: LiveHandler<T>): () => void;
  /**
   * Declares that a screen needs the connection; the socket opens on the first hold and closes
   * shortly after the last one is released. Returns the release.
   */
  hold(): () => void;
  /** A new try now, the back-off starting again from its first delay (the notice's Retry now). */
  retry(): void;
  /** Closes for good until the next hold or retry (sign-out). */
  stop(): void;
}

const OPEN = 1;
const INITIAL: LiveState = {
  status: 'idle',
  attempt: 0,
  nextRetryAt: null,
  lastError: null,
  user: null,
  connectedUsers: 0,
  activeUsers: [],
  session: 0,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every type the protocol defines. A known type nobody listens to right now is normal (the blotter
 * ignores order_action while no order is open); a type outside this list is worth a warning.
 */
// A record over every type (not a list): a type added to the protocol fails to compile here until it is
// named, so a message the server sends is never reported as unknown.
const KNOWN: Record<LiveMessageType, true> = {
  welcome: true,
  authenticated: true,
  ping: true,
  pong: true,
  heartbeat: true,
  error: true,
  new_order: true,
  order_update: true,
  order_data: true,
  execution_report: true,
  order_action: true,
  client_connection_status: true,
  client_trading_status: true,
  service_status: true,
  resync: true,
  test_client_status: true,
  test_client_order: true,
  test_client_execution: true,
};
const KNOWN_TYPES: ReadonlySet<string> = new Set(Object.keys(KNOWN));

export function createLiveClient(deps: LiveClientDeps): LiveClient {
  let state: LiveState = INITIAL;
  const stateListeners = new Set<() => void>();
  const handlers = new Map<string, Set<(message: WsServerMessage) => void>>();

  let socket: SocketLike | null = null;
  let holds = 0;
  let retryTimer: unknown = null;
  let idleTimer: unknown = null;
  let silenceTimer: unknown = null;
  /** deps.now() of the socket's last frame (or its opening). */
  let lastFrameAt = 0;
  /** True while we want a connection (held, not refused, not stopped). */
  let wanted = false;

  function setState(patch: Partial<LiveState>): void {
    state = { ...state, ...patch };
    for (const listener of [...stateListeners]) listener();
  }

  function clearTimer(handle: unknown): null {
    if (handle !== null) deps.clearTimeout(handle);
    return null;
  }

  /**
   * Notes that the socket spoke. The timer is not re-armed per frame (at a thousand messages a
   * second that was a clearTimeout and a setTimeout each): it runs on, and when it fires early it
   * waits out the rest of the silence since the last frame.
   */
  function armSilenceTimer(): void {
    lastFrameAt = deps.now();
    if (silenceTimer === null) startSilenceTimer(SILENCE_TIMEOUT_MS);
  }

  function startSilenceTimer(ms: number): void {
    silenceTimer = deps.setTimeout(() => {
      silenceTimer = null;
      const s = socket;
      if (!s) return;
      const quiet = deps.now() - lastFrameAt;
      if (quiet < SILENCE_TIMEOUT_MS) {
        startSilenceTimer(SILENCE_TIMEOUT_MS - quiet);
        return;
      }
      dropSocket('No message from the server for 40 s');
      s.close(4000, 'No message from the server');
    }, ms);
  }

  function dispatch(message: WsServerMessage): void {
    const set = handlers.get(message.type);
    if (set && set.size > 0) {
      for (const handler of [...set]) {
        try {
          handler(message);
        } catch (error) {
          // One screen's bug must not starve the others of the message.
          deps.warn(`live: a ${message.type} handler failed`, error);
        }
      }
    } else if (!KNOWN_TYPES.has(message.type)) {
      deps.warn(`live: unhandled message type ${message.type}`);
    }
  }

  function onFrame(data: unknown): void {
    armSilenceTimer();
    if (typeof data !== 'string') {
      deps.warn('live: ignored a binary frame');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      deps.warn('live: ignored a frame that is not JSON');
      return;
    }
    if (!isRecord(parsed) || typeof parsed.type !== 'string') {
      deps.warn('live: ignored a message without a type', parsed);
      return;
    }
    const message = parsed as unknown as WsServerMessage;
    switch (message.type) {
      case 'welcome': {
        const token = deps.getToken();
        if (!token) {
          refuse('Not signed in');
          return;
        }
        socket?.send(JSON.stringify({ type: 'authenticate', token, protocolVersion: WS_PROTOCOL_VERSION }));
        break;
      }
      case 'authenticated':
        setState({
          status: 'connected',
          attempt: 0,
          nextRetryAt: null,
          lastError: null,
          user: message.user,
          connectedUsers: message.connectedUsers,
          activeUsers: message.activeUsers,
          session: state.session + 1,
        });
        break;
      case 'heartbeat':
        setState({ connectedUsers: message.connectedUsers, activeUsers: message.activeUsers });
        break;
      case 'resync':
        // Changes were missed that the server cannot send one by one: reload, as after a reconnect.
        if (state.status === 'connected') setState({ session: state.session + 1 });
        break;
      case 'ping':
        socket?.send(JSON.stringify({ type: 'pong', timestamp: message.timestamp }));
        break;
      case 'error':
        deps.warn(`live: server says ${message.message}`);
        break;
      default:
        break;
    }
    dispatch(message);
  }

  function refuse(reason: string): void {
    wanted = false;
    retryTimer = clearTimer(retryTimer);
    const s = socket;
    socket = null;
    silenceTimer = clearTimer(silenceTimer);
    if (s) {
      detach(s);
      s.close(1000, reason);
    }
    setState({ status: 'refused', lastError: reason, nextRetryAt: null, user: null });
  }

  function detach(s: SocketLike): void {
    s.onopen = null;
    s.onmessage = null;
    s.onclose = null;
    s.onerror = null;
  }

  /** The current socket is gone (closed, errored or declared dead): schedule the next try or give up. */
  function dropSocket(reason: string): void {
    const s = socket;
    socket = null;
    silenceTimer = clearTimer(silenceTimer);
    if (s) detach(s);
    if (!wanted) {
      setState({ status: 'idle', attempt: 0, nextRetryAt: null, user: null });
      return;
    }
    const attempt = state.status === 'connected' ? 1 : state.attempt + 1;
    const delay = reconnectDelayMs(attempt);
    setState({ status: 'reconnecting', attempt, nextRetryAt: deps.now() + delay, lastError: reason, user: null });
    retryTimer = deps.setTimeout(() => {
      retryTimer = null;
      open();
    }, delay);
  }

  function open(): void {
    if (socket || !wanted) return;
    if (!deps.getToken()) {
      refuse('Not signed in');
      return;
    }
    if (state.status !== 'reconnecting') setState({ status: 'connecting', nextRetryAt: null });
    else setState({ nextRetryAt: null });
    let s: SocketLike;
    try {
      s = deps.createSocket(deps.url());
    } catch (error) {
      socket = null;
      dropSocket(error instanceof Error ? error.message : 'Could not open the connection');
      return;
    }
    socket = s;
    silenceTimer = clearTimer(silenceTimer);
    armSilenceTimer();
    s.onmessage = (event) => {
      if (socket === s) onFrame(event.data);
    };
    s.onerror = () => {
      // A close event always follows; the reason is decided there.
    };
    s.onclose = (event) => {
      if (socket !== s) return;
      if (event.code === WS_CLOSE.authFailed || event.code === WS_CLOSE.authRequired) {
        socket = null;
        refuse(event.reason || 'The server refused the session');
        return;
      }
      if (event.code === WS_CLOSE.incompatible) {
        socket = null;
        refuse(event.reason || 'This page is out of date: reload it');
        return;
      }
      dropSocket(closeReason(event.code, event.reason));
    };
  }

  function closeNow(): void {
    wanted = false;
    retryTimer = clearTimer(retryTimer);
    idleTimer = clearTimer(idleTimer);
    const s = socket;
    socket = null;
    silenceTimer = clearTimer(silenceTimer);
    if (s) {
      detach(s);
      if (s.readyState <= OPEN) s.close(1000, 'Closed by the client');
    }
    setState({ ...INITIAL, session: state.session });
  }

  function start(): void {
    idleTimer = clearTimer(idleTimer);
    if (wanted) return;
    wanted = true;
    setState({ attempt: 0, lastError: null });
    open();
  }

  return {
    getState: () => state,
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) handlers.set(type, (set = new Set()));
      const h = handler as (message: WsServerMessage) => void;
      set.add(h);
      return () => set.delete(h);
    },
    hold() {
      holds += 1;
      // A refusal is tried again by a new screen or sign-in; a connection being retried keeps its schedule.
      start();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        if (holds === 0) {
          idleTimer = clearTimer(idleTimer);
          idleTimer = deps.setTimeout(() => {
            idleTimer = null;
            if (holds === 0) closeNow();
          }, IDLE_CLOSE_MS);
        }
      };
    },
    retry() {
      retryTimer = clearTimer(retryTimer);
      if (socket) return;
      wanted = false;
      setState({ status: 'idle', attempt: 0, nextRetryAt: null });
      start();
    },
    stop: closeNow,
  };
}
