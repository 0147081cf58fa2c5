import type { SessionID } from './session-id';

/**
 * Where a session reports its traffic and events. Implementations must not throw and should not block:
 * the server writes these to its own logger and audit views; the durable compliance record is the store.
 */
export interface SessionLog {
  onIncoming(raw: string): void;
  onOutgoing(raw: string): void;
  onEvent(text: string): void;
}

export interface LogFactory {
  /** The log of one session; `null` for a connection not yet bound to a session (before its Logon). */
  create(sessionID: SessionID | null): SessionLog;
}

export const nullLog: SessionLog = { onIncoming() {}, onOutgoing() {}, onEvent() {} };
export const nullLogFactory: LogFactory = { create: () => nullLog };

export interface LogLine {
  readonly session: string;
  readonly kind: 'in' | 'out' | 'event';
  readonly text: string;
}

/** Keeps every line in memory; for tests and tools. */
export class MemoryLogFactory implements LogFactory {
  readonly lines: LogLine[] = [];

  create(sessionID: SessionID | null): SessionLog {
    const session = sessionID ? `${sessionID.beginString}:${sessionID.senderCompID}->${sessionID.targetCompID}` : '-';
    const push = (kind: LogLine['kind'], text: string) => this.lines.push({ session, kind, text });
    return {
      onIncoming: (raw) => push('in', raw),
      onOutgoing: (raw) => push('out', raw),
      onEvent: (text) => push('event', text),
    };
  }

  events(): string[] {
    return this.lines.filter((l) => l.kind === 'event').map((l) => l.text);
  }
}
