// The compliance screens' records (spec 000 §2 "Order Actions audit screen", "FIX Messages audit
// screen", §3 "FIX message record"). Order actions are `OrderAction` (orders.ts).

/** One FIX message in or out, as GET /api/fix-messages and /api/fix-messages/export answer it. */
export interface FixMessageRecord {
  id: number;
  /** When the row was stored (ISO 8601 UTC). */
  timestamp: string;
  /** When the message crossed the wire on our clock (SendingTime of ours, arrival of theirs). */
  transacttime: string;
  direction: 'TX' | 'RX';
  msgtype: string;
  msgseqnum: number;
  sender_comp_id: string;
  target_comp_id: string;
  clordid: string | null;
  brokerorderid: string | null;
  poss_dup: boolean;
  /** The message as sent or received, SOH separated, credentials masked. */
  raw_fix: string;
}

export type FixSection = 'header' | 'body' | 'trailer';

/** One field of a stored FIX message read with the engine's FIX 4.4 dictionary. */
export interface ParsedFixField {
  tag: number;
  value: string;
  /** The dictionary's name (ClOrdID); null for a tag the dictionary does not define. */
  name: string | null;
  /** The dictionary's type (STRING, PRICE, ...); null when unknown. */
  type: string | null;
  /** Required where it stands: in the header, the message body or its repeating-group entry. */
  required: boolean;
  /** What this value means when the field has enumerated values (8 → Execution Report). */
  valueName: string | null;
  /** The field's enumerated values as 'value=meaning, ...', or null when it has none. */
  validValues: string | null;
  /** The field's description from the FIX field specs (reference data). */
  description: string | null;
  section: FixSection;
  /** Group entries the field sits in, outermost first; empty for a field outside any group. */
  groups: ParsedFixGroupEntry[];
}

export interface ParsedFixGroupEntry {
  /** NumInGroup tag that opened the group (555 NoLegs, 453 NoPartyIDs). */
  countTag: number;
  /** 1-based entry number. */
  entry: number;
  /** 'Leg 1', 'Party 2'. */
  label: string;
}

/** GET /api/fix-messages/:id/parsed */
export interface ParsedFixMessage {
  id: number;
  msgType: string;
  /** The dictionary's message name (ExecutionReport), null for an unknown MsgType. */
  msgName: string | null;
  fields: ParsedFixField[];
  /** Why the message does not read cleanly (garbled, or what the dictionary rejects), else null. */
  problem: string | null;
}
