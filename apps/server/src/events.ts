import { EventEmitter } from 'node:events';

/** What parts of one node tell each other (the FIX acceptor follows connector changes, etc.). */
export interface ServerEvents {
  /** A client connector was created, changed or deleted (comp id as it is now, or as it was). */
  'connector-changed': [compId: string];
  /** A client's capabilities were created, changed or deleted (connector id): the next order is checked against them. */
  'capabilities-changed': [connectorId: number];
  /** A client's FIX defaults or group instances were created, changed or deleted (connector id). */
  'client-defaults-changed': [connectorId: number];
  /** A security was created, changed or deleted (its symbol): the intake's caches are renewed. */
  'security-changed': [symbol: string];
  /** A FIX message specification was created, changed or deleted: outbound checks read the new specs. */
  'message-specs-changed': [msgType: string];
  /** Broker information was created, changed or deleted (its id): the clients' profiles name its party data. */
  'broker-changed': [brokerId: number];
  /**
   * Sign-ins of a user were ended (signed out, revoked, deactivated, password changed): sockets opened
   * with them close. Null after the bus may have lost some: every socket's sign-in is checked.
   */
  'sign-ins-ended': [userId: number | null];
  /** A client's FIX session logged on or off (its comp id). */
  'fix-session-changed': [compId: string];
}

export class ServerEventBus extends EventEmitter<ServerEvents> {}
