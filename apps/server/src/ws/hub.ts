import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  WS_AUTH_TIMEOUT_MS,
  WS_CLOSE,
  WS_HEARTBEAT_MS,
  WS_PROTOCOL_VERSION,
  WsClientMessageSchema,
  type OnlineUser,
  type SessionUser,
  type WsServerMessage,
} from '@fixdesk/protocol';
import { hashToken, type AuthService } from '../auth/auth-service';

interface Client {
  socket: WebSocket;
  user: SessionUser | null;
  /** The token the socket authenticated with: re-checked on every heartbeat, closed when revoked. */
  token: string | null;
  authTimer: NodeJS.Timeout | undefined;
}

/** Largest message a browser may send us; ours are tiny. */
const MAX_CLIENT_MESSAGE_BYTES = 4096;

/**
 * The WebSocket fan-out of one node: sockets authenticate with their token, then receive every
 * broadcast. Other parts publish through broadcast(); they never touch sockets.
 */
export class WsHub {
  private readonly clients = new Set<Client>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly auth: AuthService,
    private readonly log: FastifyBaseLogger,
    /** A user's sign-ins were ended here: the other nodes close that user's sockets too (docs/adr/0012). */
    private readonly onSignInsEnded: (userId: number) => void = () => {},
  ) {}

  start(): void {
    this.heartbeat = setInterval(() => {
      void this.recheck(null, 'Session expired or revoked')
        .catch((err) => this.log.warn({ err }, 'ws session re-check failed'))
        .finally(() => this.sendHeartbeat());
    }, WS_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Sign-out of `userId`: every socket opened with this token is closed at once, on every node. */
  signedOut(token: string, userId: number): void {
    this.revokeToken(token, 'Signed out');
    this.onSignInsEnded(userId);
  }

  /**
   * Sign-ins of `userId` (null: of anyone) were ended, perhaps on another node (its bus message names
   * the user only): the sockets here whose sign-in no longer holds in the database close now.
   */
  async recheck(userId: number | null, reason = 'Signed out or revoked: please sign in again'): Promise<void> {
    const tokens = new Set([...this.clients].flatMap((c) => (c.token && (userId === null || c.user?.user_id === userId) ? [c.token] : [])));
    for (const token of tokens) {
      if (!(await this.auth.authenticate(token))) this.revokeToken(token, reason);
    }
  }

  /** Closes every socket opened with this token (on this node). */
  private revokeToken(token: string, reason: string): void {
    for (const c of this.clients) {
      if (c.token === token) {
        c.user = null;
        c.token = null;
        c.socket.close(WS_CLOSE.authFailed, reason);
      }
    }
  }

  /**
   * Sessions ended on the server (a user deactivated, their role changed, a password reset or changed,
   * a session signed out from the account page): the sockets opened with them close at once, without
   * waiting for the next heartbeat's re-check; the other nodes are told to re-check `userId`'s.
   */
  revokeTokenHashes(hashes: readonly string[], reason: string, userId: number): void {
    if (hashes.length === 0) return;
    const ended = new Set(hashes);
    for (const c of this.clients) if (c.token && ended.has(hashToken(c.token))) this.revokeToken(c.token, reason);
    this.onSignInsEnded(userId);
  }

  accept(socket: WebSocket): void {
    const client: Client = { socket, user: null, token: null, authTimer: undefined };
    this.clients.add(client);
    client.authTimer = setTimeout(() => socket.close(WS_CLOSE.authTimeout, 'Authentication timeout'), WS_AUTH_TIMEOUT_MS);
    this.send(client, {
      type: 'welcome',
      protocolVersion: WS_PROTOCOL_VERSION,
      serverTime: new Date().toISOString(),
      message: 'Connected. Send authenticate with your token.',
    });
    socket.on('message', (data, isBinary) => {
      void this.onMessage(client, data as Buffer, isBinary).catch((err) => {
        this.log.warn({ err }, 'ws message handling failed');
      });
    });
    socket.on('close', () => {
      clearTimeout(client.authTimer);
      this.clients.delete(client);
      if (client.user) this.sendHeartbeat();
    });
    socket.on('error', (err) => this.log.debug({ err }, 'ws socket error'));
  }

  private async onMessage(client: Client, data: Buffer, isBinary: boolean): Promise<void> {
    if (isBinary || data.length > MAX_CLIENT_MESSAGE_BYTES) {
      this.send(client, { type: 'error', message: 'Messages must be JSON text under 4 KiB' });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data.toString('utf8'));
    } catch {
      this.send(client, { type: 'error', message: 'Malformed JSON' });
      return;
    }
    const parsed = WsClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.send(client, { type: 'error', message: `Unknown or invalid message: ${parsed.error.issues[0]?.message ?? ''}` });
      return;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'authenticate': {
        if (msg.protocolVersion !== undefined && msg.protocolVersion !== WS_PROTOCOL_VERSION) {
          client.socket.close(WS_CLOSE.incompatible, `Protocol version ${msg.protocolVersion} is not supported; the server speaks ${WS_PROTOCOL_VERSION}`);
          return;
        }
        const s = await this.auth.authenticate(msg.token);
        if (!s) {
          client.socket.close(WS_CLOSE.authFailed, 'Invalid or expired token');
          return;
        }
        clearTimeout(client.authTimer);
        client.user = s.user;
        client.token = msg.token;
        const online = this.onlineUsers();
        this.send(client, { type: 'authenticated', user: s.user, connectedUsers: online.length, activeUsers: online });
        this.sendHeartbeat();
        return;
      }
      case 'ping':
        this.send(client, { type: 'pong', timestamp: msg.timestamp ?? Date.now() });
        return;
      case 'pong':
        return;
    }
  }

  /** Sends to every authenticated socket. */
  /** Whether any signed-in browser would receive a broadcast (callers may skip building one). */
  hasSubscribers(): boolean {
    for (const c of this.clients) if (c.user) return true;
    return false;
  }

  broadcast(msg: WsServerMessage): void {
    const text = JSON.stringify(msg);
    for (const c of this.clients) if (c.user && c.socket.readyState === c.socket.OPEN) c.socket.send(text);
  }

  onlineUsers(): OnlineUser[] {
    const byName = new Map<string, OnlineUser>();
    for (const c of this.clients) {
      if (!c.user) continue;
      const u = byName.get(c.user.username);
      if (u) u.connections++;
      else byName.set(c.user.username, { username: c.user.username, first_name: c.user.first_name, last_name: c.user.last_name, role: c.user.role, connections: 1 });
    }
    return [...byName.values()].sort((a, b) => a.username.localeCompare(b.username));
  }

  private sendHeartbeat(): void {
    const online = this.onlineUsers();
    this.broadcast({ type: 'heartbeat', timestamp: new Date().toISOString(), connectedUsers: online.length, activeUsers: online });
  }

  private send(c: Client, msg: WsServerMessage): void {
    if (c.socket.readyState === c.socket.OPEN) c.socket.send(JSON.stringify(msg));
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const c of this.clients) {
      clearTimeout(c.authTimer);
      c.socket.close(WS_CLOSE.serverShutdown, 'Server shutting down');
    }
    this.clients.clear();
  }
}
