import type { LeaseFence } from '@fixdesk/db';
import { outgoing, Tag, type Session, type SessionID, type SendReservation } from '@fixdesk/fix';
import type { ClientMessageSender } from '../orders/outbox';
import type { OutgoingReply, ReplyReserver } from '../orders/replies';

/**
 * The clients' live FIX sessions on this node, by the client's comp id: where the order core reserves
 * a reply inside its commit (ReplyReserver) and the outbox sends what was committed
 * (ClientMessageSender). The gateway opens and closes entries at logon and logout. Built before the
 * order core, the outbox and the gateway, it is what lets the three be wired without setters.
 */
export class ClientSessions implements ReplyReserver, ClientMessageSender {
  private readonly live = new Map<string, { id: SessionID; session: Session }>();

  /** `fenceOf`: the lease holding a session's writes are conditional on (docs/adr/0012). */
  constructor(private readonly fenceOf?: (id: SessionID) => LeaseFence) {}

  /** A client logged on: its session carries our messages from now on. */
  open(compId: string, id: SessionID, session: Session): void {
    this.live.set(compId, { id, session });
  }

  close(compId: string): void {
    this.live.delete(compId);
  }

  /** The comp ids of the clients logged on to this node. */
  loggedOn(): string[] {
    return [...this.live].flatMap(([compId, e]) => (e.session.loggedOn ? [compId] : []));
  }

  /** The session id of the client's live session. */
  idOf(compId: string): SessionID | undefined {
    return this.live.get(compId)?.id;
  }

  /** ReplyReserver: whether the client is logged on to this node. */
  isLive(compId: string): boolean {
    return !!this.live.get(compId)?.session.loggedOn;
  }

  /** ReplyReserver: the next number on the client's live session (Session.reserveSend), or undefined. */
  reserve(
    compId: string,
    msg: OutgoingReply & { possResend?: boolean },
  ): { beginString: string; reservation: SendReservation; fence: LeaseFence | undefined } | undefined {
    const entry = this.live.get(compId);
    if (!entry) return undefined;
    const reservation = entry.session.reserveSend(outgoing(msg.msgType, msg.body, msg.possResend ? [[Tag.PossResend, 'Y']] : []));
    return reservation && { beginString: entry.id.beginString, reservation, fence: this.fenceOf?.(entry.id) };
  }

  /** ClientMessageSender: to the client's live session, or null when it is not logged on here. */
  async send(compId: string, msg: { msgType: string; body: Array<[number, string]>; possResend?: boolean }): Promise<number | null> {
    const session = this.live.get(compId)?.session;
    // Not logged on (or logging out): the outbox keeps the message for the next logon.
    if (!session || !session.loggedOn) return null;
    const header: Array<[number, string]> = msg.possResend ? [[Tag.PossResend, 'Y']] : [];
    // Straight to the session, synchronously: a burst from the outbox reaches it in order and back
    // to back, so it is persisted in one store round.
    return session.send(outgoing(msg.msgType, msg.body, header));
  }
}
