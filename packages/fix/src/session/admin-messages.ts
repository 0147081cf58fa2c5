import { MsgType, Tag } from '@fixdesk/fix-codes';
import { formatUtcTimestamp } from '../codec/values';
import type { Application } from './application';
import type { Clock } from './clock';
import type { ConnectionState } from './connection-state';
import type { SessionLog } from './log';
import { outgoing, type InboundMessage, type OutgoingMessage } from './message';
import { errorText, type Outbound } from './outbound';
import type { SessionID } from './session-id';
import type { SessionSettings } from './session-settings';
import type { AdminSends } from './session-state';

/**
 * The session's own messages, built (not sent): Logon, Logout, Heartbeat, TestRequest, ResendRequest,
 * Reject and BusinessMessageReject; and AdminSender, which sends them for the states. The outbound
 * pipeline numbers, persists and writes them.
 */

/** The TestReqID of our TestRequests (QuickFIX's: any message from the peer answers it anyway). */
export const TEST_REQ_ID = 'TEST';

/** Our Logon: HeartBtInt, 141=Y when it resets both sequences, the initiator's credentials. */
function logonMessage(
  heartBtIntSec: number,
  resetSeqNum: boolean,
  credentials?: { readonly username?: string | undefined; readonly password?: string | undefined },
): OutgoingMessage {
  const body: Array<[number, string]> = [
    [Tag.EncryptMethod, '0'],
    [Tag.HeartBtInt, String(heartBtIntSec)],
  ];
  if (resetSeqNum) body.push([Tag.ResetSeqNumFlag, 'Y']);
  if (credentials) {
    if (credentials.username !== undefined) body.push([Tag.Username, credentials.username]);
    if (credentials.password !== undefined) body.push([Tag.Password, credentials.password]);
  }
  return outgoing(MsgType.Logon, body);
}

function logoutMessage(text?: string): OutgoingMessage {
  return outgoing(MsgType.Logout, text ? [[Tag.Text, text]] : []);
}

function heartbeatMessage(testReqID?: string): OutgoingMessage {
  return outgoing(MsgType.Heartbeat, testReqID !== undefined ? [[Tag.TestReqID, testReqID]] : []);
}

function testRequestMessage(): OutgoingMessage {
  return outgoing(MsgType.TestRequest, [[Tag.TestReqID, TEST_REQ_ID]]);
}

/** EndSeqNo 0 ("everything after"), as FIX 4.4 recommends: the peer sends what it has in one pass. */
function resendRequestMessage(begin: number): OutgoingMessage {
  return outgoing(MsgType.ResendRequest, [
    [Tag.BeginSeqNo, String(begin)],
    [Tag.EndSeqNo, '0'],
  ]);
}

/** A session Reject of `ref`; RefTagID only when one tag is at fault. */
function rejectMessage(ref: InboundMessage, reason: string, text: string, refTagID?: number): OutgoingMessage {
  const body: Array<[number, string]> = [[Tag.RefSeqNum, ref.get(Tag.MsgSeqNum) ?? '0']];
  if (refTagID !== undefined) body.push([Tag.RefTagID, String(refTagID)]);
  if (ref.msgType) body.push([Tag.RefMsgType, ref.msgType]);
  body.push([Tag.SessionRejectReason, reason], [Tag.Text, text]);
  return outgoing(MsgType.Reject, body, reverseRoute(ref));
}

function businessRejectMessage(ref: InboundMessage, reason: string, text: string, refID?: string): OutgoingMessage {
  const body: Array<[number, string]> = [
    [Tag.RefSeqNum, ref.get(Tag.MsgSeqNum) ?? '0'],
    [Tag.RefMsgType, ref.msgType],
  ];
  if (refID !== undefined) body.push([Tag.BusinessRejectRefID, refID]);
  body.push([Tag.BusinessRejectReason, reason], [Tag.Text, text]);
  return outgoing(MsgType.BusinessMessageReject, body, reverseRoute(ref));
}

/**
 * Routing fields a reply carries back (QuickFIX's reverse route): the peer's OnBehalfOf* becomes our
 * DeliverTo* and the other way round; empty values are not reversed.
 */
const REVERSE_ROUTE: ReadonlyArray<readonly [from: number, to: number]> = [
  [Tag.OnBehalfOfCompID, Tag.DeliverToCompID],
  [Tag.DeliverToCompID, Tag.OnBehalfOfCompID],
  [Tag.OnBehalfOfSubID, Tag.DeliverToSubID],
  [Tag.DeliverToSubID, Tag.OnBehalfOfSubID],
  [Tag.OnBehalfOfLocationID, Tag.DeliverToLocationID],
  [Tag.DeliverToLocationID, Tag.OnBehalfOfLocationID],
];

/** The header routing fields of a reply to `ref`. */
function reverseRoute(ref: InboundMessage): Array<[number, string]> {
  const header: Array<[number, string]> = [];
  for (const [from, to] of REVERSE_ROUTE) {
    const value = ref.get(from);
    if (value) header.push([to, value]);
  }
  return header;
}

/** What the admin sends use of the session. */
export interface AdminSenderDeps {
  readonly id: SessionID;
  readonly app: Application;
  readonly log: SessionLog;
  readonly clock: Clock;
  readonly out: Outbound;
  readonly connection: ConnectionState;
  settings(): SessionSettings;
}

/** The states' admin sends (AdminSends), through the outbound pipeline; notes on the connection when they went out. */
export class AdminSender implements AdminSends {
  constructor(private readonly d: AdminSenderDeps) {}

  async logon(resetSeqNum: boolean): Promise<void> {
    this.d.connection.logonSent(resetSeqNum);
    await this.sendLogon(resetSeqNum);
  }

  async logonAnswer(resetSeqNum: boolean): Promise<void> {
    await this.sendLogon(resetSeqNum);
    this.d.connection.resetAnswered();
  }

  private async sendLogon(resetSeqNum: boolean): Promise<void> {
    const settings = this.d.settings();
    await this.d.out.sendAdmin(
      logonMessage(this.d.connection.heartBtIntSec, resetSeqNum, settings.role === 'initiator' ? settings : undefined),
    );
  }

  async logout(text?: string): Promise<void> {
    await this.d.out.sendAdmin(logoutMessage(text));
    this.d.connection.logoutSent(this.d.clock.now());
  }

  async heartbeat(testReqID?: string): Promise<void> {
    await this.d.out.sendAdmin(heartbeatMessage(testReqID));
  }

  async testRequest(): Promise<void> {
    await this.d.out.sendAdmin(testRequestMessage());
    this.d.connection.testRequestSent(this.d.clock.now());
  }

  async resendRequest(begin: number): Promise<void> {
    await this.d.out.sendAdmin(resendRequestMessage(begin));
    this.d.log.onEvent(`gap detected: sent ResendRequest ${begin}-0`);
  }

  async reject(ref: InboundMessage, reason: string, text: string, refTagID?: number): Promise<void> {
    this.d.log.onEvent(`Reject ${reason} for MsgSeqNum ${ref.get(Tag.MsgSeqNum)}: ${text}`);
    await this.d.out.sendAdmin(rejectMessage(ref, reason, text, refTagID));
  }

  /** An application-level reject (numbered as an application message). */
  async businessReject(ref: InboundMessage, reason: string, text: string, refID?: string): Promise<void> {
    await this.d.out.sendApp(businessRejectMessage(ref, reason, text, refID));
  }

  async refusalLogout(text: string): Promise<void> {
    await this.d.out.settled();
    const logout = outgoing(MsgType.Logout, [[Tag.Text, text]]);
    try {
      this.d.app.toAdmin?.(logout, this.d.id);
    } catch (err) {
      this.d.log.onEvent(`toAdmin failed for the refusal Logout: ${errorText(err)}`);
    }
    await this.d.out.sendCopy(logout, this.d.out.nextSenderMsgSeqNum, formatUtcTimestamp(this.d.clock.now()));
  }
}
