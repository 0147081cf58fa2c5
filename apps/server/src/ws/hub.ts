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
import type { Presence } from './desk-presence';

interface Client {
  socket: WebSocket;
  user: SessionUser | null;
  /** The token the socket authenticated with: re-checked on every heartbeat, closed when revoked. */
  token: string | null;
  authTimer: NodeJS.Timeout | undefined;
  /** Whether it ever authenticated (it counted among the users online). */
  counted: boolean;
}

/** How long other nodes' browser changes are gathered before this node's browsers are told. */
const OTHERS_CHANGED_DELAY_MS = 200;

/** Largest message a browser may send us; ours are tiny. */
const MAX_CLIENT_MESSAGE_BYTES = 4096;

/**
 * The WebSocket fan-out of one node: sockets authenticate with their token, then receive every
 * broadcast. Other parts publish through broadcast(); they never touch sockets. The users online it
 * reports are the desk's (every live node's), through `presence`.
 */
export class WsHub {
  private readonly clients = new Set<Client>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** A heartbeat being built, and whether another was asked for meanwhile (one at a time). */
  private beating: Promise<void> | undefined;
  private beatAgain = false;
  /** A heartbeat due for other nodes' changes. */
  private othersTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly auth: AuthService,
    private readonly log: FastifyBaseLogger,
    /** A user's sign-ins were ended here: the other nodes close that user's sockets too (docs/adr/0012). */
    private readonly onSignInsEnded: (userId: number) => void = () => {},
    /** Where the desk's users online are kept; without it, this node's own. */
    private readonly presence?: Presence,
  ) {}

  start(): void {
    this.heartbeat = setInterval(() => {
      void this.recheck(null, 'Session expired or revoked')
        .catch((err) => this.log.warn({ err }, 'ws session re-check failed'))
        // Written again each heartbeat: a write that failed is made good, and rows another node
        // removed while this one was paused past its node lease are back.
        .then(() => this.recordPresence())
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
    const client: Client = { socket, user: null, token: null, authTimer: undefined, counted: false };
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
      if (client.counted) void this.recordPresence().then(() => this.sendHeartbeat());
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
          client.socket.close(
            WS_CLOSE.incompatible,
            `Protocol version ${msg.protocolVersion} is not supported; the server speaks ${WS_PROTOCOL_VERSION}`,
          );
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
        client.counted = true;
        await this.recordPresence();
        const online = await this.deskOnline();
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

  /** Whether any signed-in browser would receive a broadcast (callers may skip building one). */
  hasSubscribers(): boolean {
    for (const c of this.clients) if (c.user) return true;
    return false;
  }

  /** Sends to every authenticated socket. */
  broadcast(msg: WsServerMessage): void {
    const text = JSON.stringify(msg);
    for (const c of this.clients) if (c.user && c.socket.readyState === c.socket.OPEN) c.socket.send(text);
  }

  /** The users with a browser on this node. */
  onlineUsers(): OnlineUser[] {
    const byName = new Map<string, OnlineUser>();
    for (const c of this.clients) {
      if (!c.user) continue;
      const u = byName.get(c.user.username);
      if (u) u.connections++;
      else
        byName.set(c.user.username, {
          username: c.user.username,
          first_name: c.user.first_name,
          last_name: c.user.last_name,
          role: c.user.role,
          connections: 1,
        });
    }
    return [...byName.values()].sort((a, b) => a.username.localeCompare(b.username));
  }

  /** The users with a browser on any live node of the desk (this node's own if that cannot be read). */
  async deskOnline(): Promise<OnlineUser[]> {
    if (!this.presence) return this.onlineUsers();
    try {
      return await this.presence.online();
    } catch (err) {
      this.log.warn({ err }, "could not read the desk's users online; reporting this node's");
      return this.onlineUsers();
    }
  }

  /**
   * Another node's browsers came or went: this node's browsers are told the new count, once for the
   * changes of a short while (a morning's sign-ins across the desk do not each make a broadcast).
   */
  othersChanged(): void {
    if (this.othersTimer) return;
    this.othersTimer = setTimeout(() => {
      this.othersTimer = undefined;
      this.sendHeartbeat();
    }, OTHERS_CHANGED_DELAY_MS);
    this.othersTimer.unref();
  }

  /** Records this node's signed-in connections for the desk-wide count (never throws). */
  private async recordPresence(): Promise<void> {
    if (!this.presence) return;
    const byUser = new Map<number, number>();
    for (const c of this.clients) if (c.user) byUser.set(c.user.user_id, (byUser.get(c.user.user_id) ?? 0) + 1);
    await this.presence.record(byUser).catch(() => {});
  }

  /** Tells every browser the desk's users online; calls made while one is being built coalesce into one more. */
  private sendHeartbeat(): void {
    if (this.beating) {
      this.beatAgain = true;
      return;
    }
    this.beating = (async () => {
      do {
        this.beatAgain = false;
        if (!this.hasSubscribers()) continue;
        const online = await this.deskOnline();
        this.broadcast({ type: 'heartbeat', timestamp: new Date().toISOString(), connectedUsers: online.length, activeUsers: online });
      } while (this.beatAgain);
    })().finally(() => {
      this.beating = undefined;
    });
  }

  private send(c: Client, msg: WsServerMessage): void {
    if (c.socket.readyState === c.socket.OPEN) c.socket.send(JSON.stringify(msg));
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    clearTimeout(this.othersTimer);
    for (const c of this.clients) {
      clearTimeout(c.authTimer);
      c.socket.close(WS_CLOSE.serverShutdown, 'Server shutting down');
    }
    this.clients.clear();
    await this.recordPresence();
    await this.beating;
  }
}
