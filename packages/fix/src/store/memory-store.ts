import type { SessionID } from '../session/session-id';
import { sessionIdToString } from '../session/session-id';
import {
  assertSeqNum,
  StoreClosedError,
  type MessageStore,
  type MessageStoreFactory,
  type SequenceState,
  type StoredMessage,
} from './message-store';

interface SessionData {
  nextSenderMsgSeqNum: number;
  nextTargetMsgSeqNum: number;
  creationTime: Date;
  /** Outbound messages of the current sequence, by MsgSeqNum. */
  outbound: Map<number, StoredMessage>;
  /** Every message in and out, in order, across resets. */
  audit: StoredMessage[];
}

/**
 * Keeps each session's data for the life of the factory, so closing a store and opening it again
 * (a session restart, a simulated crash) finds the state as it was. Not durable across processes.
 */
export class MemoryStoreFactory implements MessageStoreFactory {
  private readonly sessions = new Map<string, SessionData>();

  async open(sessionID: SessionID, now: Date): Promise<MessageStore> {
    const key = sessionIdToString(sessionID);
    let data = this.sessions.get(key);
    if (!data) {
      data = { nextSenderMsgSeqNum: 1, nextTargetMsgSeqNum: 1, creationTime: new Date(now), outbound: new Map(), audit: [] };
      this.sessions.set(key, data);
    }
    return new MemoryStore(sessionID, data);
  }

  /** The audit trail of a session (every message in and out), for tests and tools. */
  audit(sessionID: SessionID): readonly StoredMessage[] {
    return this.sessions.get(sessionIdToString(sessionID))?.audit ?? [];
  }
}

class MemoryStore implements MessageStore {
  private closed = false;

  constructor(
    readonly sessionID: SessionID,
    private readonly data: SessionData,
  ) {}

  async sequenceState(): Promise<SequenceState> {
    this.check();
    const d = this.data;
    return {
      nextSenderMsgSeqNum: d.nextSenderMsgSeqNum,
      nextTargetMsgSeqNum: d.nextTargetMsgSeqNum,
      creationTime: new Date(d.creationTime),
    };
  }

  async saveOutbound(message: StoredMessage): Promise<void> {
    this.check();
    assertSeqNum(message.msgSeqNum, 'MsgSeqNum');
    if (message.direction !== 'TX') throw new Error('saveOutbound takes TX messages only');
    this.data.outbound.set(message.msgSeqNum, message);
    this.data.audit.push(message);
    this.data.nextSenderMsgSeqNum = message.msgSeqNum + 1;
  }

  async saveInbound(message: StoredMessage, nextTargetMsgSeqNum?: number): Promise<void> {
    this.check();
    if (message.direction !== 'RX') throw new Error('saveInbound takes RX messages only');
    if (nextTargetMsgSeqNum !== undefined) assertSeqNum(nextTargetMsgSeqNum, 'next target MsgSeqNum');
    this.data.audit.push(message);
    if (nextTargetMsgSeqNum !== undefined) this.data.nextTargetMsgSeqNum = nextTargetMsgSeqNum;
  }

  async auditOutbound(message: StoredMessage): Promise<void> {
    this.check();
    if (message.direction !== 'TX') throw new Error('auditOutbound takes TX messages only');
    this.data.audit.push(message);
  }

  async setNextSenderMsgSeqNum(next: number): Promise<void> {
    this.check();
    assertSeqNum(next, 'next sender MsgSeqNum');
    this.data.nextSenderMsgSeqNum = next;
  }

  async setNextTargetMsgSeqNum(next: number): Promise<void> {
    this.check();
    assertSeqNum(next, 'next target MsgSeqNum');
    this.data.nextTargetMsgSeqNum = next;
  }

  async outboundRange(begin: number, end: number, limit: number): Promise<StoredMessage[]> {
    this.check();
    const out: StoredMessage[] = [];
    const keys = [...this.data.outbound.keys()].filter((k) => k >= begin && k <= end).sort((a, b) => a - b);
    for (const k of keys) {
      if (out.length >= limit) break;
      out.push(this.data.outbound.get(k)!);
    }
    return out;
  }

  async reset(creationTime: Date): Promise<void> {
    this.check();
    this.data.nextSenderMsgSeqNum = 1;
    this.data.nextTargetMsgSeqNum = 1;
    this.data.creationTime = new Date(creationTime);
    this.data.outbound.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private check(): void {
    if (this.closed) throw new StoreClosedError(sessionIdToString(this.sessionID));
  }
}
