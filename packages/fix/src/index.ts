// @fixdesk/fix public API.

// Codec and dictionary
export { Dictionary, FieldScope, GroupDef, MemberKind, Placement, ValueType, msgTypeKey } from './dictionary/dictionary';
export type { DictionaryData, DictionaryItem, FieldDef, MessageDef } from './dictionary/dictionary';
export * from '@fixdesk/fix-codes';
export { FixFramer } from './codec/framer';
export type { Frame, FramerOptions } from './codec/framer';
export { FixParser } from './codec/parser';
export { isValidFormat } from './codec/format';
export { FieldView, FixFieldMissingError, FixGroupEntry, FixMessage } from './codec/message';
export { FixEncodeError, FixEncoder, FixMessageBuilder } from './codec/encoder';
export type { EncoderOptions, FieldValue, GroupEntryInput } from './codec/encoder';
export { inQuickFixOrder } from './codec/field-order';
export { DEFAULT_VALIDATION, REJECT_REASON_TEXT, RejectReason, USER_DEFINED_TAG_MIN, rejection } from './codec/rejection';
export type { FixRejection, ValidationOptions } from './codec/rejection';
export {
  FixTimestamp,
  FixValueError,
  compareDecimals,
  decimalToScaled,
  formatUtcDate,
  formatUtcTimestamp,
  isFixDate,
  isFixDecimal,
  normalizeDecimal,
  parseMonthYear,
  parseUtcTimeOnly,
  parseUtcTimestamp,
  scaledToDecimal,
} from './codec/values';
export type { FixMonthYear } from './codec/values';

// Session layer: state machine, stores, transport, acceptor/initiator
export { Session, ADMIN_MSG_TYPES } from './session/session';
export type { SendReservation, SessionDeps, SessionStatus, SessionTransport } from './session/session';
export type { SessionID } from './session/session-id';
export { sameSessionID, sessionIdToString } from './session/session-id';
export { DEFAULT_SESSION_SETTINGS, sessionSettings } from './session/session-settings';
export type { SessionSettings } from './session/session-settings';
export type { StateName, SessionEvent, SessionState } from './session/session-state';
export { TRANSITIONS, isAllowedTransition } from './session/transitions';
export { BusinessRejectError, DoNotSend, RejectLogon, SessionRejectError } from './session/application';
export type { Application, AppReceipt } from './session/application';
export { CounterpartyAuthenticator, heartBtIntProblem, ipAllowed, safeEqual } from './session/authenticator';
export type { Authenticator, CounterpartyConfig, HeartBtIntRange, LogonDecision, LogonRequest } from './session/authenticator';
export { ManualClock, systemClock, systemTimers } from './session/clock';
export type { Clock, TimerHandle, Timers } from './session/clock';
export { MemoryLogFactory, nullLog, nullLogFactory } from './session/log';
export type { LogFactory, LogLine, SessionLog } from './session/log';
export { getField, outgoing, setField } from './session/message';
export type { InboundMessage, OutgoingMessage, SessionCodec, ValidationIssue } from './session/message';
export { createSessionCodec } from './session/codec-adapter';
export {
  RESET_FREQUENCIES,
  isResetDue,
  isWithinSchedule,
  lastResetBoundary,
  parseResetFrequency,
  localParts,
  parseTimeOfDay,
  parseTradingDays,
} from './session/schedule';
export type { ResetFrequency, SessionSchedule } from './session/schedule';
export { StoreClosedError } from './store/message-store';
export type { MessageDirection, MessageStore, MessageStoreFactory, SequenceState, StoredMessage } from './store/message-store';
export { MemoryStoreFactory } from './store/memory-store';
export { FixConnection } from './transport/connection';
export type { AcceptorTlsConfig, InitiatorTlsConfig, PeerCertificate, TransportInfo } from './transport/tls';
export { Acceptor } from './engine/acceptor';
export type { AcceptorOptions } from './engine/acceptor';
export { Initiator } from './engine/initiator';
export type { InitiatorOptions, ReconnectPolicy } from './engine/initiator';
export {
  startConformanceAcceptor,
  EchoApplication,
  conformanceAuthenticator,
  CONFORMANCE_COMP_ID,
  CONFORMANCE_CLIENTS,
} from './conformance/conformance-acceptor';
export { parseConformanceArgs, runConformanceCli } from './conformance/cli';
export { messageTrace, traceBytes, traceNow } from './trace';
export type { TraceSink } from './trace';
