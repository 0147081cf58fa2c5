/**
 * Drop copy in a client's FIX specification (docs/adr/0017 point 8): which drop copy sessions receive
 * copies of a client's reports, which clients a drop copy session copies, and what a copy is (797, the
 * client's Parties entry, 35=9 by Account, PossResend, no application messages). The page, the
 * password-protected document and the tests state these rules from here.
 */

/**
 * Drop copy in a client's specification (FixSpecDocument.dropCopy). `copiedClient`: a trading client
 * covered by one or more active drop copy sessions (each receives a copy of every report sent to it).
 * `dropCopySession`: the connector is itself a drop copy session: it receives copies of the reports of
 * `clients`, or of every client.
 */
export type FixSpecDropCopy =
  { role: 'copiedClient'; sessions: string[] } | { role: 'dropCopySession'; everyClient: boolean; clients: string[] };

/** One rule of the Drop copy section, written as the connection guidelines are. */
interface DropCopyRule {
  title: string;
  text: string;
}

/** The Text (58) of the BusinessMessageReject answering any application message from a drop copy session. */
export const DROP_COPY_REJECT_TEXT = 'Drop copy session: application messages are not accepted';

/** A connector as far as drop copy is concerned (client_connectors: session_type, drop_copy_of, is_active). */
export interface DropCopyConnectorFacts {
  compId: string;
  sessionType: string;
  /** The clients a drop copy session copies; empty: every client. */
  dropCopyOf: readonly string[];
  active: boolean;
}

/**
 * The drop copy part of `compId`'s specification (docs/adr/0017 point 8), from every connector: for a drop
 * copy session, the clients it copies; for a trading client, the active drop copy sessions covering it (the
 * copy trigger's own rule: `is_active` and an empty list or one naming the client), by comp id; null when
 * no drop copy session covers the client or the connector is unknown.
 */
export function dropCopyFor(compId: string, connectors: readonly DropCopyConnectorFacts[]): FixSpecDropCopy | null {
  const self = connectors.find((c) => c.compId === compId);
  if (!self) return null;
  if (self.sessionType === 'drop_copy')
    return { role: 'dropCopySession', everyClient: self.dropCopyOf.length === 0, clients: [...self.dropCopyOf] };
  const sessions = connectors
    .filter((c) => c.sessionType === 'drop_copy' && c.active && (c.dropCopyOf.length === 0 || c.dropCopyOf.includes(compId)))
    .map((c) => c.compId)
    .sort();
  return sessions.length ? { role: 'copiedClient', sessions } : null;
}

/** Whether the document is a drop copy session's (no orders, no capabilities, copies only). */
export const isDropCopySession = (doc: { dropCopy?: FixSpecDropCopy | null }): boolean => doc.dropCopy?.role === 'dropCopySession';

/** How a refusal at intake is copied (it has no order behind it). */
const REFUSAL_COPY =
  'copied as the ExecutionReport (35=8, ExecType 8) the client got, with OrderID (37)=NONE and its ExecID, ClOrdID, OrdRejReason (103) and Text (58)';

const joinNames = (names: readonly string[]) =>
  names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** Who the copies are of or for, in one line (the section's summary and the version comparison). */
export function dropCopySummary(d: FixSpecDropCopy, compId: string): string {
  return d.role === 'copiedClient'
    ? `Copies of the reports we send ${compId} also go to the drop copy session${d.sessions.length > 1 ? 's' : ''} ${joinNames(d.sessions)}.`
    : `${compId} is a drop copy session: it receives copies of the reports we send ${d.everyClient ? 'every client' : joinNames(d.clients)} and sends no orders.`;
}

/**
 * What a copy is and how the drop copy session behaves (docs/adr/0017 points 4-6), for the Session
 * Information tab of a covered client (what its copies look like) or of the drop copy session itself
 * (everything its FIX team must handle).
 */
export function dropCopyRules(d: FixSpecDropCopy, compId: string): DropCopyRule[] {
  const partyOf = d.role === 'copiedClient' ? compId : "the client's SenderCompID";
  const copy: DropCopyRule = {
    title: 'What a copy is',
    text: `An ExecutionReport (35=8) with CopyMsgIndicator (797)=Y and the same ExecID (17), OrderID (37), ClOrdID (11) and OrigClOrdID (41), ExecType, OrdStatus, quantities, prices and legs as the client's report. Its first Parties (453) entry names the client: PartyID (448)=${partyOf}, PartyIDSource (447)=D, PartyRole (452)=3 (Client ID), before the order's own parties.`,
  };
  const cancelReject: DropCopyRule = {
    title: 'Order cancel rejects',
    text: `Copied as OrderCancelReject (35=9) with the same OrderID, ClOrdID and OrigClOrdID. FIX 4.4's 35=9 has neither CopyMsgIndicator nor Parties: Account (1)=${partyOf} names the client, and a 35=9 on a drop copy session is always a copy.`,
  };
  if (d.role === 'copiedClient') {
    return [
      {
        title: 'What is copied',
        text: `Every ExecutionReport (35=8) and OrderCancelReject (35=9) we send you is copied, in the order they were made, refusals at intake included (an order refused before it is stored: ${REFUSAL_COPY}). Status answers (ExecType I) are not copied.`,
      },
      copy,
      cancelReject,
      {
        title: 'Your session is unchanged',
        text: 'Copies travel on the drop copy session with its own sequence numbers; your reports, numbers and resends are not affected, and a drop copy session that is logged off gets its copies when it logs on again.',
      },
    ];
  }
  return [
    {
      title: 'What is copied',
      text: `Every ExecutionReport (35=8) and OrderCancelReject (35=9) the desk sends ${d.everyClient ? 'any client' : joinNames(d.clients)}, in the order the client's reports were made, from the moment the client is covered (earlier reports are not copied), refusals at intake included (an order refused before it is stored: ${REFUSAL_COPY}). Status answers (ExecType I) are not copied.`,
    },
    copy,
    cancelReject,
    {
      title: 'Standard shape',
      text: "Copies carry the desk's standard fields, validated with the standard FIX 4.4 data dictionary, not the values configured for each client's own reports: one dictionary reads every client's copies. De-duplicate on ExecID (17).",
    },
    {
      title: 'While the session is down',
      text: 'Copies made while this session is logged off wait at the desk and are sent at its next Logon flagged PossResend (97=Y), in order, also after a Logon with ResetSeqNumFlag (141=Y): what was never sent goes out under the new numbers.',
    },
    {
      title: 'Resend',
      text: 'A copy already sent is resent on a ResendRequest (35=2) like every stored message, with PossDupFlag (43=Y) and OrigSendingTime (122).',
    },
    {
      title: 'No application messages',
      text: `This session cannot trade. Any application message it sends (NewOrderSingle, NewOrderMultileg, cancel, replace or status requests, anything else) is answered with a BusinessMessageReject (35=j) with BusinessRejectReason (380)=6 (Not authorized) and Text (58) "${DROP_COPY_REJECT_TEXT}"; nothing reaches the order book.`,
    },
  ];
}

/** The fields that make a message a copy: message, tag, field, value (the Session Information tab's table). */
export function dropCopyFieldRows(d: FixSpecDropCopy, compId: string): Array<[string, string, string, string]> {
  const client = d.role === 'copiedClient' ? compId : "the client's SenderCompID";
  return [
    ['35=8', '797', 'CopyMsgIndicator', 'Y'],
    ['35=8', '453', 'NoPartyIDs', "1 + the order's own parties"],
    ['35=8', '448', 'PartyID (first entry)', client],
    ['35=8', '447', 'PartyIDSource', 'D (Proprietary code)'],
    ['35=8', '452', 'PartyRole', '3 (Client ID)'],
    ['35=9', '1', 'Account', client],
    ['header', '97', 'PossResend', 'Y on copies that waited for a Logon'],
  ];
}

/** What the tabs about orders say in place of their content for a drop copy session. */
export function dropCopySessionNotes(compId: string): { about: string; orderGeneration: string; tradeLifecycle: string } {
  return {
    about: `${compId} is a drop copy session: it trades nothing, so no capability applies to it. The contracts above are those its copies name in Symbol (55).`,
    orderGeneration: `${compId} is a drop copy session: it receives copies of execution reports and sends no orders, so there are no order messages to build for it. Any application message it sends is answered with a BusinessMessageReject (35=j, BusinessRejectReason (380)=6, Text (58) "${DROP_COPY_REJECT_TEXT}").`,
    tradeLifecycle: `These are the flows of a client's orders. ${compId} sends none of the client's messages: it receives a copy of each ExecutionReport (35=8) and OrderCancelReject (35=9) the desk sends the client, marked as described under Session Information.`,
  };
}

/** The drop copy part as the version comparison sees it; absent (documents of format 1) reads as none. */
export function dropCopyComparable(d: FixSpecDropCopy | null | undefined): Record<'copiedTo' | 'copiesOf', string | null> {
  return {
    copiedTo: d?.role === 'copiedClient' ? d.sessions.join(', ') : null,
    copiesOf: d?.role === 'dropCopySession' ? (d.everyClient ? 'every client' : d.clients.join(', ')) : null,
  };
}
