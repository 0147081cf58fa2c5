import { MsgType, Tag } from '../dictionary/tags.generated';
import { outgoing, type InboundMessage, type OutgoingMessage } from './message';

/**
 * The session's own messages, built (not sent): Logon, Logout, Heartbeat, TestRequest, ResendRequest,
 * Reject and BusinessMessageReject. The outbound pipeline numbers, persists and writes them.
 */

/** The TestReqID of our TestRequests (QuickFIX's: any message from the peer answers it anyway). */
export const TEST_REQ_ID = 'TEST';

/** Our Logon: HeartBtInt, 141=Y when it resets both sequences, the initiator's credentials. */
export function logonMessage(heartBtIntSec: number, resetSeqNum: boolean, credentials?: { readonly username?: string | undefined; readonly password?: string | undefined }): OutgoingMessage {
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

export function logoutMessage(text?: string): OutgoingMessage {
  return outgoing(MsgType.Logout, text ? [[Tag.Text, text]] : []);
}

export function heartbeatMessage(testReqID?: string): OutgoingMessage {
  return outgoing(MsgType.Heartbeat, testReqID !== undefined ? [[Tag.TestReqID, testReqID]] : []);
}

export function testRequestMessage(): OutgoingMessage {
  return outgoing(MsgType.TestRequest, [[Tag.TestReqID, TEST_REQ_ID]]);
}

/** EndSeqNo 0 ("everything after"), as FIX 4.4 recommends: the peer sends what it has in one pass. */
export function resendRequestMessage(begin: number): OutgoingMessage {
  return outgoing(MsgType.ResendRequest, [[Tag.BeginSeqNo, String(begin)], [Tag.EndSeqNo, '0']]);
}

/** A session Reject of `ref`; RefTagID only when one tag is at fault. */
export function rejectMessage(ref: InboundMessage, reason: string, text: string, refTagID?: number): OutgoingMessage {
  const body: Array<[number, string]> = [[Tag.RefSeqNum, ref.get(Tag.MsgSeqNum) ?? '0']];
  if (refTagID !== undefined) body.push([Tag.RefTagID, String(refTagID)]);
  if (ref.msgType) body.push([Tag.RefMsgType, ref.msgType]);
  body.push([Tag.SessionRejectReason, reason], [Tag.Text, text]);
  return outgoing(MsgType.Reject, body, reverseRoute(ref));
}

export function businessRejectMessage(ref: InboundMessage, reason: string, text: string, refID?: string): OutgoingMessage {
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
export function reverseRoute(ref: InboundMessage): Array<[number, string]> {
  const header: Array<[number, string]> = [];
  for (const [from, to] of REVERSE_ROUTE) {
    const value = ref.get(from);
    if (value) header.push([to, value]);
  }
  return header;
}
