/**
 * The FIX specification of one client (spec 001 §2 "FIX specification and examples page", §5 "FIX spec
 * export"): the document model the page, the password-protected HTML document and the FIX
 * Orchestra file are all rendered from, the parts of it that are fixed rules of the desk (the order flows,
 * the execution report variants, the session messages, the connection guidelines), the export dialog's
 * checks and password generator. The comparison of two versions is fix-specification-diff.ts, the drop
 * copy part fix-specification-drop-copy.ts.
 *
 * The model is plain JSON: the server builds it from the configuration the engine enforces (connector,
 * security master, message specs, client defaults, capabilities, the FIX 4.4 dictionary) and stores it
 * with every version handed out, so two versions can be compared later.
 */
import { ExecType, MsgType, OrdStatus, type ExecTypeCode, type OrdStatusCode } from './codes';
import type { FixSpecDropCopy } from './fix-specification-drop-copy';
import { PENDING_NEW_REPORT } from './order-state';
import { ORDER_TRANSITIONS } from './order-transitions';

// ───────────────────────────── the document model ─────────────────────────────

/** 2: the document has `dropCopy` (documents stored before have format 1 and no such field). */
export const FIX_SPEC_FORMAT_VERSION = 2;

/** One field of a message as the client must send it or will receive it. */
export interface FixSpecField {
  tag: number;
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** The values we accept (client messages) or send (our messages), 'code=Meaning, …'; '' when free. */
  validValues: string;
  /** What we fill for this client (our messages) or what the client's configuration defaults (theirs). */
  clientDefault: string | null;
}

export interface FixSpecMessage {
  msgType: string;
  name: string;
  /** ExecutionReports are specified per ExecType; null for other messages. */
  execType: string | null;
  /** in: the client sends it to us; out: we send it to the client. */
  direction: 'in' | 'out';
  fields: FixSpecField[];
}

export interface FixSpecContract {
  symbol: string;
  instrumentName: string;
  description: string;
  contractSize: string;
  contractUnit: string;
  priceTick: string;
  qtyTick: string;
  seriesMonths: number | null;
  currency: string;
  exchanges: string[];
  active: boolean;
}

export interface FixSpecExchange {
  mic: string;
  name: string;
  description: string;
}

export interface FixSpecExample {
  kind: 'outright' | 'multileg' | 'custom';
  title: string;
  msgType: 'D' | 'AB';
  /** The message in '|' form, built by the order builders the simulators use. */
  fix: string;
}

export interface FixSpecCapability {
  symbol: string;
  exchange: string | null;
  enabled: boolean;
  canBuy: boolean;
  canSell: boolean;
  canShort: boolean;
  minOrderQty: string | null;
  maxOrderQty: string | null;
  maxPositionLong: string | null;
  maxPositionShort: string | null;
  marketIdentifier: string | null;
}

export interface FixSpecSession {
  fixVersion: string;
  heartBtInt: number;
  host: string;
  /** The acceptor's plain TCP port. */
  port: number;
  /** The acceptor's TLS port; null when it has none. */
  tlsPort: number | null;
  /** The connector has a client certificate: its Logon is accepted over TLS only. */
  tlsRequired: boolean;
  senderCompId: string;
  targetCompId: string;
  schedule: { timeZone: string; startTime: string; endTime: string; tradingDays: string };
  resetPolicy: { resetOnLogon: boolean; resetFrequency: string };
  credentials: { username: string | null; passwordRequired: boolean };
  maxOrdersPerSecond: number | null;
  header: FixSpecField[];
  trailer: FixSpecField[];
}

export interface FixSpecDocument {
  formatVersion: number;
  generatedAt: string;
  /** The version handed to the client; null on the page (not a handed-out document). */
  version: number | null;
  client: {
    compId: string;
    targetCompId: string;
    clientName: string;
    clientContact: string;
    clientEmail: string | null;
    companyName: string | null;
    lei: string | null;
  };
  broker: { id: number; companyName: string | null; lei: string | null; partyId: string | null } | null;
  contracts: FixSpecContract[];
  exchanges: FixSpecExchange[];
  messages: FixSpecMessage[];
  examples: FixSpecExample[];
  session: FixSpecSession;
  /** The client's tradable securities and limits; null where the reader may not see them, or a drop copy session. */
  capabilities: FixSpecCapability[] | null;
  /** Drop copy (docs/adr/0017): who gets copies of this client's reports, or what a drop copy session copies; absent (format 1): none. */
  dropCopy?: FixSpecDropCopy | null;
}

// ───────────────────────────── the tabs ─────────────────────────────

/** The page's four numbered tabs (spec 001 §2), with the header colour each gives the page. */
export const FIX_SPEC_TABS = [
  { key: 'aboutFFA', number: 1, title: 'About FFA Futures', colour: '#1864ab' },
  { key: 'orderGeneration', number: 2, title: 'Order Generation', colour: '#2b8a3e' },
  { key: 'tradeLifecycle', number: 3, title: 'Trade Lifecycle', colour: '#c2255c' },
  { key: 'sessionInfo', number: 4, title: 'Session Information', colour: '#5f3dc4' },
] as const;
export type FixSpecTabKey = (typeof FIX_SPEC_TABS)[number]['key'];

/** Spec 001 §9: the default client connector of the specification page. */
export const FIX_SPEC_DEFAULT_CONNECTOR = 'SGX_CLIENT_1';

/** Spec 001 §9: the valid-value list in the field table is truncated at 100 characters. */
export const VALID_VALUES_MAX = 100;

export function truncateValidValues(text: string, max = VALID_VALUES_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The two exchanges the freight contracts are offered on (spec 001 §1). */
export const FREIGHT_EXCHANGES: readonly FixSpecExchange[] = [
  { mic: 'SGX', name: 'Singapore Exchange', description: 'SGX: freight futures cleared in Singapore' },
  { mic: 'EEX', name: 'European Energy Exchange', description: 'EEX: freight futures cleared in Europe (Leipzig)' },
];

// ───────────────────────────── the order flows ─────────────────────────────

export type FlowParty = 'client' | 'desk';

export interface FlowStep {
  from: FlowParty;
  msgType: string;
  /** ExecType and OrdStatus of an ExecutionReport. */
  execType?: ExecTypeCode;
  ordStatus?: OrdStatusCode;
  label: string;
  note?: string;
}

export interface OrderFlow {
  key: string;
  title: string;
  description: string;
  steps: FlowStep[];
}

const order = (msgType: 'D' | 'AB' = MsgType.NewOrderSingle): FlowStep => ({
  from: 'client',
  msgType,
  label: msgType === 'D' ? 'NewOrderSingle' : 'NewOrderMultileg',
});
const report = (execType: ExecTypeCode, ordStatus: OrdStatusCode, label: string, note?: string): FlowStep => ({
  from: 'desk',
  msgType: MsgType.ExecutionReport,
  execType,
  ordStatus,
  label,
  ...(note ? { note } : {}),
});
/** An order stored and accepted: the start of every flow that acts on a working order. */
const workingOrder = (): FlowStep[] => [
  order(),
  report(ExecType.PendingNew, OrdStatus.PendingNew, 'Pending New'),
  report(ExecType.New, OrdStatus.New, 'New'),
];

/**
 * The order flows of the Trade Lifecycle tab (spec 001 §4 "Documented lifecycle"), each step an
 * ExecType/OrdStatus pair the transition table of order-state.ts produces (checked by a unit test).
 * FIX 4.4 reports a fill as ExecType F (Trade) with OrdStatus 1 or 2.
 */
export const ORDER_FLOWS: readonly OrderFlow[] = [
  {
    key: 'fill',
    title: 'New order, fills and done for day',
    description: 'D → Pending New (A) → New (0) → Partial Fill (1) → Fill (2) → Done for Day (3)',
    steps: [
      order(),
      report(ExecType.PendingNew, OrdStatus.PendingNew, 'Pending New', 'sent as soon as the order is stored'),
      report(ExecType.New, OrdStatus.New, 'New', 'the broker accepted the order'),
      report(ExecType.Trade, OrdStatus.PartiallyFilled, 'Partial Fill', 'LastQty/LastPx of this fill, CumQty, LeavesQty, AvgPx'),
      report(ExecType.Trade, OrdStatus.Filled, 'Fill', 'LeavesQty 0, CumQty equals OrderQty'),
      report(ExecType.DoneForDay, OrdStatus.DoneForDay, 'Done for Day', 'the broker closes the order for the day'),
    ],
  },
  {
    key: 'reject',
    title: 'Rejected order',
    description:
      'Refused at intake (unknown symbol, limits, duplicate ClOrdID) or rejected by the broker: 150=8, 39=8 with OrdRejReason (103) and Text (58)',
    steps: [
      order(),
      report(ExecType.PendingNew, OrdStatus.PendingNew, 'Pending New'),
      report(ExecType.Rejected, OrdStatus.Rejected, 'Rejected', 'OrdRejReason (103) and Text (58) say why'),
      { from: 'client', msgType: MsgType.NewOrderSingle, label: 'NewOrderSingle (invalid)' },
      report(ExecType.Rejected, OrdStatus.Rejected, 'Rejected at intake', 'no Pending New: refused before it is stored'),
      { from: 'client', msgType: MsgType.NewOrderSingle, label: 'malformed message' },
      { from: 'desk', msgType: MsgType.Reject, label: 'Reject (35=3)', note: 'session-level: RefSeqNum, RefTagID, SessionRejectReason' },
    ],
  },
  {
    key: 'cancel',
    title: 'Cancel',
    description: 'F → Pending Cancel (6) → Canceled (4); fills may still arrive while the cancel is pending',
    steps: [
      ...workingOrder(),
      { from: 'client', msgType: MsgType.OrderCancelRequest, label: 'OrderCancelRequest', note: 'OrigClOrdID (41) names the order' },
      report(ExecType.PendingCancel, OrdStatus.PendingCancel, 'Pending Cancel'),
      report(ExecType.Canceled, OrdStatus.Canceled, 'Canceled', 'LeavesQty 0'),
    ],
  },
  {
    key: 'replace',
    title: 'Replace',
    description: 'G → Pending Replace (E) → Replaced (5, OrdStatus by quantities); possible during partial fills',
    steps: [
      ...workingOrder(),
      {
        from: 'client',
        msgType: MsgType.OrderCancelReplaceRequest,
        label: 'OrderCancelReplaceRequest',
        note: 'new OrderQty (38) and Price (44)',
      },
      report(ExecType.PendingReplace, OrdStatus.PendingReplace, 'Pending Replace'),
      report(ExecType.Replaced, OrdStatus.New, 'Replaced', 'OrdStatus 0, 1 or 2 by the amended quantity'),
    ],
  },
  {
    key: 'cancelReject',
    title: 'Cancel reject',
    description: 'F (or G) refused by the broker: OrderCancelReject (35=9) with the order back in its working status',
    steps: [
      ...workingOrder(),
      { from: 'client', msgType: MsgType.OrderCancelRequest, label: 'OrderCancelRequest' },
      report(ExecType.PendingCancel, OrdStatus.PendingCancel, 'Pending Cancel'),
      {
        from: 'desk',
        msgType: MsgType.OrderCancelReject,
        label: 'OrderCancelReject (35=9)',
        note: 'OrdStatus (39) working status, CxlRejResponseTo (434) 1 or 2, CxlRejReason (102)',
      },
    ],
  },
];

// ───────────────────────────── the 13 execution report variants ─────────────────────────────

export interface ExecutionReportVariant {
  name: string;
  execType: ExecTypeCode;
  ordStatus: string;
  description: string;
}

/** Spec 001 §4: the ExecutionReport variants a client must handle, in lifecycle order. */
export const EXECUTION_REPORT_VARIANTS: readonly ExecutionReportVariant[] = [
  {
    name: 'Pending New',
    execType: ExecType.PendingNew,
    ordStatus: OrdStatus.PendingNew,
    description: 'The order is stored; a broker will accept or reject it',
  },
  { name: 'New', execType: ExecType.New, ordStatus: OrdStatus.New, description: 'The broker accepted the order' },
  {
    name: 'Partial Fill',
    execType: ExecType.Trade,
    ordStatus: OrdStatus.PartiallyFilled,
    description: 'A fill; quantity remains (LastQty, LastPx, CumQty, LeavesQty, AvgPx)',
  },
  {
    name: 'Fill',
    execType: ExecType.Trade,
    ordStatus: OrdStatus.Filled,
    description: 'The last fill: LeavesQty 0, CumQty equals OrderQty',
  },
  {
    name: 'Done for Day',
    execType: ExecType.DoneForDay,
    ordStatus: OrdStatus.DoneForDay,
    description: 'The broker closed the order for the day; the unfilled rest is no longer worked',
  },
  {
    name: 'Rejected',
    execType: ExecType.Rejected,
    ordStatus: OrdStatus.Rejected,
    description: 'Refused: OrdRejReason (103) and Text (58) say why',
  },
  {
    name: 'Pending Cancel',
    execType: ExecType.PendingCancel,
    ordStatus: OrdStatus.PendingCancel,
    description: 'A cancel request is with the broker; fills may still arrive',
  },
  { name: 'Canceled', execType: ExecType.Canceled, ordStatus: OrdStatus.Canceled, description: 'The order is canceled: LeavesQty 0' },
  {
    name: 'Pending Replace',
    execType: ExecType.PendingReplace,
    ordStatus: OrdStatus.PendingReplace,
    description: 'A replace request is with the broker',
  },
  {
    name: 'Replaced',
    execType: ExecType.Replaced,
    ordStatus: '0/1/2',
    description: 'The amended terms are in force; OrdStatus by the quantities',
  },
  {
    name: 'Restated',
    execType: ExecType.Restated,
    ordStatus: OrdStatus.New,
    description: 'The desk restated the order without a client request',
  },
  {
    name: 'Trade Correct',
    execType: ExecType.TradeCorrect,
    ordStatus: OrdStatus.Filled,
    description: 'A previous fill is corrected (ExecRefID names it)',
  },
  {
    name: 'Trade Cancel',
    execType: ExecType.TradeCancel,
    ordStatus: OrdStatus.Filled,
    description: 'A previous fill is canceled (ExecRefID names it)',
  },
];

/**
 * The ExecTypes the desk sends today, read from its order transition table (and the Pending New every
 * stored order gets): a variant outside this set is documented so a client handles it, marked as not sent.
 */
export function execTypesSent(): Set<string> {
  const sent = new Set<string>([
    PENDING_NEW_REPORT.msgType === MsgType.ExecutionReport ? PENDING_NEW_REPORT.execType : ExecType.PendingNew,
    ExecType.Rejected,
  ]);
  for (const t of ORDER_TRANSITIONS) if (t.execType) sent.add(t.execType);
  return sent;
}

// ───────────────────────────── session messages and guidelines ─────────────────────────────

export interface SessionMessageRow {
  msgType: string;
  name: string;
  direction: 'both' | 'in' | 'out';
  usage: string;
}

/** The session messages of FIX 4.4 a client exchanges with us (spec 001 §2: A, 0, 1, 2, 3, 4, 5, j). */
export const SESSION_MESSAGES: readonly SessionMessageRow[] = [
  {
    msgType: 'A',
    name: 'Logon',
    direction: 'both',
    usage: 'First message; HeartBtInt (108), EncryptMethod (98) 0, ResetSeqNumFlag (141) when resetting, Username/Password when configured',
  },
  {
    msgType: '0',
    name: 'Heartbeat',
    direction: 'both',
    usage: 'Sent when nothing else was sent for HeartBtInt seconds, and in answer to a TestRequest (with its TestReqID)',
  },
  {
    msgType: '1',
    name: 'TestRequest',
    direction: 'both',
    usage: 'Sent when nothing was received for HeartBtInt plus a margin; no answer means the connection is closed',
  },
  {
    msgType: '2',
    name: 'ResendRequest',
    direction: 'both',
    usage: 'Asks for messages BeginSeqNo (7) to EndSeqNo (16, 0 = all) after a sequence gap',
  },
  {
    msgType: '3',
    name: 'Reject',
    direction: 'both',
    usage: 'Session-level rejection of a malformed message: RefSeqNum (45), RefTagID (371), SessionRejectReason (373), Text (58)',
  },
  {
    msgType: '4',
    name: 'SequenceReset',
    direction: 'both',
    usage: 'GapFill (123=Y) over administrative messages during a resend, or a reset of the next expected number',
  },
  { msgType: '5', name: 'Logout', direction: 'both', usage: 'Ends the session; Text (58) says why when we refuse or end it' },
  {
    msgType: 'j',
    name: 'BusinessMessageReject',
    direction: 'out',
    usage: 'A well-formed message we do not support (e.g. 35=AC): BusinessRejectReason (380) 3 Unsupported Message Type',
  },
];

export interface Guideline {
  title: string;
  text: string;
}

/** What a client's FIX team must know to connect (spec 001 §2 "connection guidelines"), for this session. */
export function connectionGuidelines(
  s: Pick<FixSpecSession, 'heartBtInt' | 'resetPolicy' | 'schedule' | 'tlsRequired' | 'credentials'>,
): Guideline[] {
  const reset =
    s.resetPolicy.resetFrequency === 'NEVER'
      ? 'never on a schedule'
      : `${s.resetPolicy.resetFrequency.toLowerCase()}, at the start of the trading session`;
  return [
    {
      title: 'Sequence numbers',
      text: `Both sides number their messages from 1; the numbers survive disconnections and restarts. They reset ${reset}${s.resetPolicy.resetOnLogon ? ', and on every Logon (ResetSeqNumFlag 141=Y)' : ''}. A Logon with a number lower than expected is refused.`,
    },
    {
      title: 'Resend and PossDup',
      text: 'On a gap, send a ResendRequest (35=2). Messages resent carry PossDupFlag (43=Y) and OrigSendingTime (122); administrative messages are replaced by a SequenceReset GapFill. Treat a PossDup order message whose ClOrdID you already know as a duplicate, never as a new order.',
    },
    {
      title: 'Heartbeats',
      text: `HeartBtInt (108) is ${s.heartBtInt} seconds. Send a Heartbeat when you have sent nothing for that long; answer a TestRequest with a Heartbeat carrying its TestReqID.`,
    },
    {
      title: 'Outside session hours',
      text: `The session is open ${s.schedule.tradingDays} from ${s.schedule.startTime} to ${s.schedule.endTime} (${s.schedule.timeZone}). A Logon outside these hours is answered with a Logout saying why; a Day order still open at the end of the session expires (ExecType C).`,
    },
    {
      title: 'Validate with a data dictionary',
      text: 'Our reports carry repeating groups (Parties 453, legs 555). Run your engine with the standard FIX 4.4 data dictionary (QuickFIX UseDataDictionary=Y, FIX44.xml); without one a group looks like a repeated tag and the message is rejected.',
    },
    {
      title: 'Refused logons',
      text: `Until you are authenticated (known SenderCompID/TargetCompID, an allowed source address${s.credentials.passwordRequired ? ', Username (553) and Password (554)' : ''}${s.tlsRequired ? ', your client certificate over TLS' : ''}) a refused Logon is answered by closing the connection with nothing sent. No refusal changes a sequence number.`,
    },
    {
      title: 'Transport',
      text: s.tlsRequired
        ? 'TLS is required: connect to the TLS port with the client certificate the desk issued to you; a Logon over plain TCP or with another certificate is refused.'
        : 'Plain TCP. Ask the desk for a client certificate to connect over TLS.',
    },
  ];
}

// ───────────────────────────── sequence diagrams ─────────────────────────────

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The label of a step's arrow: '35=8 150=A 39=A Pending New'. */
function flowStepLabel(s: FlowStep): string {
  const codes = s.execType ? ` 150=${s.execType} 39=${s.ordStatus}` : '';
  return `35=${s.msgType}${codes} ${s.label}`;
}

/**
 * A flow as an SVG sequence diagram (client on the left, the desk on the right), as markup with every
 * text escaped: the page and the client's document draw the same picture from the same data.
 */
export function sequenceDiagramSvg(flow: OrderFlow, opts: { width?: number; clientLabel?: string; deskLabel?: string } = {}): string {
  const width = opts.width ?? 640;
  const left = 90;
  const right = width - 90;
  const rowH = 38;
  const top = 44;
  const height = top + flow.steps.length * rowH + 16;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${escapeXml(flow.title)}" font-family="system-ui, sans-serif" font-size="12">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#495057"/></marker></defs>',
    `<rect x="${left - 70}" y="6" width="140" height="26" rx="4" fill="#e7f5ff" stroke="#1c7ed6"/><text x="${left}" y="23" text-anchor="middle" font-weight="600">${escapeXml(opts.clientLabel ?? 'Client')}</text>`,
    `<rect x="${right - 70}" y="6" width="140" height="26" rx="4" fill="#fff0f6" stroke="#c2255c"/><text x="${right}" y="23" text-anchor="middle" font-weight="600">${escapeXml(opts.deskLabel ?? 'FixDesk')}</text>`,
    `<line x1="${left}" y1="32" x2="${left}" y2="${height - 6}" stroke="#adb5bd" stroke-dasharray="4 3"/>`,
    `<line x1="${right}" y1="32" x2="${right}" y2="${height - 6}" stroke="#adb5bd" stroke-dasharray="4 3"/>`,
  ];
  flow.steps.forEach((s, i) => {
    const y = top + i * rowH + 14;
    const [x1, x2] = s.from === 'client' ? [left, right] : [right, left];
    const colour =
      s.from === 'client'
        ? '#1c7ed6'
        : s.execType === ExecType.Rejected || s.msgType === MsgType.Reject || s.msgType === MsgType.OrderCancelReject
          ? '#e03131'
          : '#2b8a3e';
    parts.push(`<line x1="${x1}" y1="${y}" x2="${x2}" y2="${y}" stroke="${colour}" stroke-width="1.6" marker-end="url(#arrow)"/>`);
    parts.push(
      `<text x="${width / 2}" y="${y - 5}" text-anchor="middle" font-family="ui-monospace, monospace" fill="#212529">${escapeXml(flowStepLabel(s))}</text>`,
    );
    if (s.note)
      parts.push(`<text x="${width / 2}" y="${y + 13}" text-anchor="middle" fill="#868e96" font-size="10.5">${escapeXml(s.note)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

// ───────────────────────────── the export dialog ─────────────────────────────

/** Spec 001 §9: the generated export password's length (the dialog's checks are in packages/protocol). */
const SPEC_EXPORT_PASSWORD_LENGTH = 12;

/** Letters, digits and symbols without look-alikes (no 0/O/o, 1/l/I/i, 5/S, 2/Z, 8/B, |, quotes). */
export const PASSWORD_ALPHABET = 'ACDEFGHJKLMNPQRTUVWXYabcdefghjkmnpqrstuvwxyz34679!@#$%&*?+=';

const CLASSES = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/];

/**
 * A 12-character password from PASSWORD_ALPHABET with at least one capital, small letter, digit and
 * symbol. `randomBelow(n)` must be a uniform cryptographic choice in [0, n) (the caller's, so this stays pure).
 */
export function generateExportPassword(randomBelow: (n: number) => number, length = SPEC_EXPORT_PASSWORD_LENGTH): string {
  for (;;) {
    let out = '';
    for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[randomBelow(PASSWORD_ALPHABET.length)]!;
    if (CLASSES.every((c) => c.test(out))) return out;
  }
}

/** The 13 variants with whether the desk sends each and the fields this client's reports carry for it. */
export function executionReportRows(
  doc: Pick<FixSpecDocument, 'messages'>,
): Array<{ variant: ExecutionReportVariant; sent: boolean; fields: FixSpecField[] }> {
  const sent = execTypesSent();
  return EXECUTION_REPORT_VARIANTS.map((variant) => ({
    variant,
    sent: sent.has(variant.execType),
    fields: doc.messages.find((m) => m.msgType === MsgType.ExecutionReport && m.execType === variant.execType)?.fields ?? [],
  }));
}

/** The session parameters table of the Session Information tab, label and value. */
export function sessionParameterRows(s: FixSpecSession): Array<[string, string]> {
  return [
    ['FIX version', s.fixVersion],
    ['Heartbeat interval', `${s.heartBtInt} seconds`],
    ['Host', s.host],
    ['TCP port', String(s.port)],
    ['TLS port', s.tlsPort === null ? 'not offered' : String(s.tlsPort)],
    ['Transport', s.tlsRequired ? 'TLS required (client certificate)' : 'TCP (TLS on request)'],
    ['SenderCompID (49, yours)', s.senderCompId],
    ['TargetCompID (56, ours)', s.targetCompId],
    ['Trading days', s.schedule.tradingDays],
    ['Session hours', `${s.schedule.startTime} to ${s.schedule.endTime}`],
    ['Time zone', s.schedule.timeZone],
    ['Sequence reset', `${s.resetPolicy.resetFrequency}${s.resetPolicy.resetOnLogon ? ', and on every Logon' : ''}`],
    [
      'Logon credentials',
      s.credentials.username
        ? `Username (553) ${s.credentials.username}${s.credentials.passwordRequired ? ' and Password (554)' : ''}`
        : s.credentials.passwordRequired
          ? 'Password (554)'
          : 'none',
    ],
    ['Order rate limit', s.maxOrdersPerSecond === null ? 'none' : `${s.maxOrdersPerSecond} orders per second`],
  ];
}
