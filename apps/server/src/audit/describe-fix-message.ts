// A stored FIX message read with the engine's own dictionary (the one the sessions validate with), as
// the FIX Messages audit screen shows it (spec 000 §2): every field with its name, type, whether it is
// required where it stands, its enumerated values, grouped into header, body and trailer, with the
// members of repeating groups labelled by entry (Leg 1, Party 2).
import { Dictionary, FixParser, type FieldScope, type FieldView } from '@fixdesk/fix';
import type { FixSection, ParsedFixField, ParsedFixGroupEntry } from '@fixdesk/protocol';

export interface DescribedFixMessage {
  msgType: string;
  msgName: string | null;
  fields: ParsedFixField[];
  problem: string | null;
}

/** 'NoLegs' → 'Leg', 'NoPartyIDs' → 'Party', 'NoNestedPartyIDs' → 'Nested Party', 'NoLegStipulations' → 'Leg Stipulation'. */
export function groupEntryName(groupName: string): string {
  const core = groupName
    .replace(/^No(?=[A-Z])/, '')
    .replace(/IDs?$/, '')
    .replace(/ies$/, 'y')
    .replace(/([^s])s$/, '$1');
  return core.replace(/([a-z0-9])([A-Z])/g, '$1 $2') || groupName;
}

let shared: { dictionary: Dictionary; parser: FixParser } | undefined;

function engine(): { dictionary: Dictionary; parser: FixParser } {
  if (!shared) {
    const dictionary = Dictionary.fix44();
    shared = { dictionary, parser: new FixParser(dictionary) };
  }
  return shared;
}

function validValuesOf(dictionary: Dictionary, tag: number): string | null {
  const enums = dictionary.field(tag)?.enums;
  if (!enums || enums.size === 0) return null;
  return [...enums].map(([value, meaning]) => `${value}=${meaning}`).join(', ');
}

/**
 * Parses `raw` (SOH-separated text as stored) and lists its fields in wire order. `descriptions`
 * gives each tag's description from the field specs; a tag without one gets none.
 */
export function describeFixMessage(raw: string, descriptions: ReadonlyMap<number, string> = new Map()): DescribedFixMessage {
  const { dictionary, parser } = engine();
  const message = parser.parse(Buffer.from(raw, 'latin1'));
  const fields: ParsedFixField[] = [];

  const field = (tag: number, value: string, required: boolean, section: FixSection, groups: ParsedFixGroupEntry[]): ParsedFixField => {
    const def = dictionary.field(tag);
    return {
      tag,
      value,
      name: def?.name ?? null,
      type: def?.type ?? null,
      required,
      valueName: def?.enums?.get(value) ?? null,
      validValues: validValuesOf(dictionary, tag),
      description: descriptions.get(tag) ?? null,
      section,
      groups,
    };
  };

  // One level (the header, the body, the trailer or one group entry): its fields, and after each
  // NumInGroup field the entries of its group, each read with the group's own scope.
  const walk = (view: FieldView, scope: FieldScope | undefined, section: FixSection, groups: ParsedFixGroupEntry[]) => {
    const required = new Set(scope?.requiredTags ?? []);
    for (const [tag, value] of view.fields()) {
      fields.push(field(tag, value, required.has(tag), section, groups));
      const group = scope?.group(tag);
      if (!group) continue;
      const name = groupEntryName(group.name);
      view.getGroup(tag).forEach((entry, i) => {
        walk(entry, group, section, [...groups, { countTag: tag, entry: i + 1, label: `${name} ${i + 1}` }]);
      });
    }
  };

  if (message.garbled === undefined) {
    walk(message.header, dictionary.header, 'header', []);
    walk(message.body, message.definition?.body, 'body', []);
    walk(message.trailer, dictionary.trailer, 'trailer', []);
  } else {
    // Unreadable as FIX: whatever fields were split before the fault, flat, in wire order.
    for (const [tag, value] of message.allFields()) {
      const section: FixSection = dictionary.isHeaderTag(tag) ? 'header' : dictionary.isTrailerTag(tag) ? 'trailer' : 'body';
      fields.push(field(tag, value, false, section, []));
    }
  }

  let problem: string | null = null;
  if (message.garbled !== undefined) problem = `Not a readable FIX message: ${message.garbled}`;
  else if (message.rejection) {
    const r = message.rejection;
    problem = `${r.text}${r.refTagId !== undefined ? ` (tag ${r.refTagId}${dictionary.field(r.refTagId) ? ` ${dictionary.field(r.refTagId)!.name}` : ''})` : ''}`;
  }
  return { msgType: message.msgType, msgName: message.definition?.name ?? null, fields, problem };
}
