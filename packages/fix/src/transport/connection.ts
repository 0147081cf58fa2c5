import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { messageTrace, traceBytes, traceNow } from '../trace';
import type { TransportInfo } from './tls';

export interface ConnectionOptions {
  /**
   * Bytes queued in user space beyond which the peer counts as a slow consumer and the connection is
   * dropped, so one stuck client cannot grow the server's memory without bound.
   */
  readonly maxBufferedBytes?: number;
}

export interface ConnectionHandlers {
  onData(chunk: Buffer): void;
  onClose(reason: string): void;
}

const DEFAULT_MAX_BUFFERED = 64 * 1024 * 1024;

/**
 * One TCP or TLS connection carrying FIX. Writes made in the same tick go out together at its end, as
 * one buffer and one socket write (batching without added latency; a lone message is written as it
 * is); write() returns a promise when the socket holds too much, so a sender that awaits it respects
 * backpressure.
 */
export class FixConnection {
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** Plain TCP or TLS, and the client certificate a TLS peer presented. */
  readonly transport: TransportInfo;
  /** Bytes written in this tick, handed to the socket at its end (flush). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;
  private closeReason = '';
  private readonly maxBuffered: number;
  private drainWaiters: Array<() => void> = [];
  private handlers: ConnectionHandlers | undefined;
  private readonly early: Buffer[] = [];
  /** With the message trace on (trace.ts): when the latest chunk arrived (ns). */
  lastDataAtNs = 0;

  constructor(
    private readonly socket: Socket,
    options: ConnectionOptions = {},
  ) {
    this.maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED;
    this.remoteAddress = normalizeAddress(socket.remoteAddress ?? '');
    this.remotePort = socket.remotePort ?? 0;
    this.transport = transportInfo(socket);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      if (messageTrace.sink) this.lastDataAtNs = traceNow();
      if (this.handlers) this.handlers.onData(chunk);
      else this.early.push(chunk);
    });
    socket.on('drain', () => this.releaseWaiters());
    socket.on('error', (err) => {
      this.closeReason ||= `socket error: ${err.message}`;
    });
    socket.on('close', () => {
      this.closed = true;
      this.releaseWaiters();
      this.handlers?.onClose(this.closeReason || 'peer closed the connection');
    });
  }

  /** Attaches the receiver; bytes that arrived before are delivered first. */
  attach(handlers: ConnectionHandlers): void {
    this.handlers = handlers;
    for (const chunk of this.early.splice(0)) handlers.onData(chunk);
    if (this.closed) handlers.onClose(this.closeReason || 'peer closed the connection');
  }

  get isOpen(): boolean {
    return !this.closed && !this.socket.destroyed;
  }

  /** Stops reading (inbound backpressure: the session has a backlog). */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  /**
   * Queues bytes. Undefined when the caller may write more at once, else a promise that resolves once
   * it may. Never rejects: a dead socket just drops them.
   */
  write(bytes: Buffer): Promise<void> | undefined {
    if (!this.isOpen) return undefined;
    if (messageTrace.sink) traceBytes(messageTrace.sink, 'out.write', bytes);
    if (this.pending.length === 0) process.nextTick(this.flush);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    const queued = this.socket.writableLength + this.pendingBytes;
    if (queued > this.maxBuffered) {
      this.destroy(`slow consumer: more than ${this.maxBuffered} bytes unsent`);
      return undefined;
    }
    if (queued < this.socket.writableHighWaterMark && !this.socket.writableNeedDrain) return undefined;
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Hands this tick's bytes to the socket: one buffer, so one write however many messages. */
  private readonly flush = (): void => {
    const chunks = this.pending;
    if (chunks.length === 0) return;
    const length = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.socket.destroyed) return;
    if (messageTrace.sink) for (const c of chunks) traceBytes(messageTrace.sink, 'out.flush', c);
    // The socket took it all: a sender waiting because this tick's bytes ran over the mark goes on.
    if (this.socket.write(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length))) this.releaseWaiters();
  };

  /** Flushes what was written, then closes; forces the close if the peer does not finish in time. */
  end(reason: string, graceMs = 2000): void {
    if (!this.isOpen) return;
    this.closeReason ||= reason;
    this.flush();
    this.socket.end();
    const t = setTimeout(() => this.socket.destroy(), graceMs);
    t.unref();
  }

  destroy(reason: string): void {
    this.closeReason ||= reason;
    this.socket.destroy();
  }

  private releaseWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }
}

/** "::ffff:10.0.0.1" (IPv4 on a dual-stack socket) reads as "10.0.0.1" so allow-lists hold plain IPv4. */
function normalizeAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

function transportInfo(socket: Socket): TransportInfo {
  if (!(socket instanceof TLSSocket)) return { tls: false };
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.fingerprint256) return { tls: true };
  const cn = cert.subject?.CN;
  return {
    tls: true,
    peerCertificate: {
      authorized: socket.authorized,
      authorizationError: socket.authorizationError ? String(socket.authorizationError) : undefined,
      fingerprint256: cert.fingerprint256,
      subjectCN: Array.isArray(cn) ? cn[0] : cn,
    },
  };
}
