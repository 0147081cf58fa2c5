// @fixdesk/fix public API.

// Codec and dictionary
export { Dictionary, FieldScope, GroupDef, MemberKind, Placement, ValueType, msgTypeKey } from './dictionary/dictionary';
export type { DictionaryData, DictionaryItem, FieldDef, MessageDef } from './dictionary/dictionary';
export * from './dictionary/tags.generated';
export { FixFramer } from './codec/framer';
export type { Frame, FramerOptions } from './codec/framer';
export { FixParser, isValidFormat } from './codec/parser';
export { FieldView, FixFieldMissingError, FixGroupEntry, FixMessage } from './codec/message';
export { FixEncodeError, FixEncoder, FixMessageBuilder } from './codec/encoder';
export type { EncoderOptions, FieldValue, GroupEntryInput } from './codec/encoder';
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
