import { lastSessionMessages, type ConnectorRow, type Db } from '@fixdesk/db';
import type { Acceptor } from '@fixdesk/fix';
import type { SessionConsoleState } from '@fixdesk/protocol';
import type { SessionActivity } from './session-activity';
import { sessionIdOf, type SessionOwnership } from './session-ownership';

/**
 * The operator's session console on this node (session-console.ts asks the node holding the session):
 * a client session's state, and the operator's actions on it (Logout, disconnect, sequence changes).
 */
export class SessionOperations {
  constructor(
    private readonly db: Db,
    private readonly acceptor: () => Acceptor,
    private readonly activity: SessionActivity,
    private readonly ownership: SessionOwnership,
  ) {}

  /** A client's FIX session for the console: state, address, heartbeat, next numbers, last message each way. */
  async consoleState(c: ConnectorRow): Promise<SessionConsoleState> {
    const id = sessionIdOf(c);
    const status = await this.acceptor().statusOf(id);
    const seen = this.activity.lastTraffic(c.comp_id);
    let { lastIn, lastOut } = seen;
    if (!lastIn || !lastOut) {
      // Nothing seen since this process started: what the store last kept.
      for (const m of await lastSessionMessages(this.db, id.senderCompID, id.targetCompID)) {
        const entry = { msgType: m.msg_type, msgSeqNum: m.msg_seq_num, at: m.created_at.toISOString() };
        if (m.direction === 'RX') lastIn ??= entry;
        else lastOut ??= entry;
      }
    }
    return {
      compId: c.comp_id,
      ourCompId: id.senderCompID,
      state: status.state,
      connected: status.connected,
      loggedOn: status.loggedOn,
      remoteAddress: status.connected ? (status.remoteAddress ?? null) : null,
      transport: status.connected ? (seen.tls ? 'TLS' : 'TCP') : null,
      heartBtInt: status.connected ? status.heartBtIntSec : c.heartbeatint,
      nextSenderMsgSeqNum: status.nextSenderMsgSeqNum,
      nextTargetMsgSeqNum: status.nextTargetMsgSeqNum,
      lastIn,
      lastOut,
    };
  }

  /**
   * Logout with a reason (its Text); resolves once the connection is closed (the client answered, or
   * the logout timeout ended it), so the state read next is the one before any reconnect.
   */
  async logout(c: ConnectorRow, reason: string): Promise<void> {
    await this.acceptor().logoutAndClose(sessionIdOf(c), reason);
  }

  /** Drops the connection at once. */
  async disconnect(c: ConnectorRow, reason: string): Promise<void> {
    await this.acceptor().disconnect(sessionIdOf(c), reason);
  }

  async resetSequence(c: ConnectorRow): Promise<void> {
    await this.ownership.underLease(c, () => this.acceptor().resetSequence(sessionIdOf(c)));
  }

  async setNextSenderMsgSeqNum(c: ConnectorRow, next: number): Promise<void> {
    await this.ownership.underLease(c, () => this.acceptor().setNextSenderMsgSeqNum(sessionIdOf(c), next));
  }

  async setNextTargetMsgSeqNum(c: ConnectorRow, next: number): Promise<void> {
    await this.ownership.underLease(c, () => this.acceptor().setNextTargetMsgSeqNum(sessionIdOf(c), next));
  }
}
