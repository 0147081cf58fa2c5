// Session-level reject reasons (373) and the standard texts (58) QuickFIX sends with them.

export const RejectReason = {
  InvalidTagNumber: 0,
  RequiredTagMissing: 1,
  TagNotDefinedForThisMessageType: 2,
  UndefinedTag: 3,
  TagSpecifiedWithoutAValue: 4,
  ValueIsIncorrect: 5,
  IncorrectDataFormatForValue: 6,
  DecryptionProblem: 7,
  SignatureProblem: 8,
  CompIdProblem: 9,
  SendingTimeAccuracyProblem: 10,
  InvalidMsgType: 11,
  XmlValidationError: 12,
  TagAppearsMoreThanOnce: 13,
  TagSpecifiedOutOfRequiredOrder: 14,
  RepeatingGroupFieldsOutOfOrder: 15,
  IncorrectNumInGroupCountForRepeatingGroup: 16,
  NonDataValueIncludesFieldDelimiter: 17,
  Other: 99,
} as const;
export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

export const REJECT_REASON_TEXT: Readonly<Record<RejectReason, string>> = {
  0: 'Invalid tag number',
  1: 'Required tag missing',
  2: 'Tag not defined for this message type',
  3: 'Undefined Tag',
  4: 'Tag specified without a value',
  5: 'Value is incorrect (out of range) for this tag',
  6: 'Incorrect data format for value',
  7: 'Decryption problem',
  8: 'Signature problem',
  9: 'CompID problem',
  10: 'SendingTime accuracy problem',
  11: 'Invalid MsgType',
  12: 'XML Validation error',
  13: 'Tag appears more than once',
  14: 'Tag specified out of required order',
  15: 'Repeating group fields out of order',
  16: 'Incorrect NumInGroup count for repeating group',
  17: 'Non Data value includes field delimiter (SOH character)',
  99: 'Other',
};

/** Why a well-framed message must be rejected: SessionRejectReason (373), RefTagID (371) and Text (58). */
export interface FixRejection {
  readonly reason: RejectReason;
  /** The offending tag; undefined when no tag can be named (e.g. a non-numeric tag). */
  readonly refTagId: number | undefined;
  readonly text: string;
}

export function rejection(reason: RejectReason, refTagId?: number): FixRejection {
  return { reason, refTagId, text: REJECT_REASON_TEXT[reason] };
}

/**
 * Validation switches, named after the QuickFIX session settings they mirror. All checks are on by
 * default; a counterparty that sends custom tags is accommodated per session, not globally.
 */
export interface ValidationOptions {
  /** Master switch (QuickFIX UseDataDictionary/Validate): false parses groups but reports nothing. */
  validate: boolean;
  /** ValidateFieldsOutOfOrder: header fields after the body, body fields after the trailer → 14. */
  validateFieldsOutOfOrder: boolean;
  /** ValidateFieldsHaveValues: an empty value (tag=) → 4. */
  validateFieldsHaveValues: boolean;
  /** ValidateUserDefinedFields: when false, tags ≥ 5000 are accepted without any check. */
  validateUserDefinedFields: boolean;
  /** AllowUnknownMsgFields: tags < 5000 unknown to the dictionary or to the message type are accepted. */
  allowUnknownMessageFields: boolean;
  /** ValidateUnorderedGroupFields: group entry members must follow the dictionary order → 15. */
  validateUnorderedGroupFields: boolean;
}

export const DEFAULT_VALIDATION: Readonly<ValidationOptions> = {
  validate: true,
  validateFieldsOutOfOrder: true,
  validateFieldsHaveValues: true,
  validateUserDefinedFields: true,
  allowUnknownMessageFields: false,
  validateUnorderedGroupFields: true,
};

/** First tag number of the user-defined range (QuickFIX FIELD::UserMin). */
export const USER_DEFINED_TAG_MIN = 5000;
