/**
 * Client FIX defaults (spec 001 "Client FIX field defaults", §5 "FIX message building"): the %variables%
 * a default value may use, what each resolves from, and the one substitution used everywhere a default
 * becomes a field value: the FIX Client's order builders (D, AB), the simulated client's cancel and
 * replace requests (F, G), the server's execution reports and cancel rejects (8, 9) and the preview
 * of the FIX Client Defaults screen.
 */
import { formatFixTimestamp } from './format';

/** What the variables resolve from: the client connector (the client is the sender) and its broker. */
export interface ClientData {
  compId: string;
  targetCompId: string;
  clientName?: string | null;
  clientLei?: string | null;
  clientContact?: string | null;
  clientEmail?: string | null;
  clientPhone?: string | null;
  companyName?: string | null;
  executionIdPrefix?: string | null;
  /** The executing broker the connector belongs to (broker_information). */
  brokerName?: string | null;
  brokerLei?: string | null;
  brokerPartyId?: string | null;
}

export interface ClientVariable {
  /** Upper case; written %NAME% in a default (names match case-insensitively). */
  name: string;
  description: string;
  /** Where the value comes from. */
  source: string;
}

/**
 * Every variable, the ones the defaults screen shows first on its chips leading (spec 001 §2: %COMP_ID%,
 * %LEI%, %CONTACT_NAME%, %CLIENT_NAME%). Spec 001 §5 also names them in lower case (timestamp, comp_id,
 * client_name, client_lei, client_contact, target_comp_id, sender_comp_id): the same variables.
 */
export const CLIENT_VARIABLES: readonly ClientVariable[] = [
  { name: 'COMP_ID', description: "The client's comp id (its SenderCompID)", source: 'client connector comp_id' },
  { name: 'LEI', description: "The client's legal entity identifier", source: 'client connector client_lei' },
  { name: 'CONTACT_NAME', description: "The client's contact (its trader)", source: 'client connector client_contact' },
  { name: 'CLIENT_NAME', description: "The client's name", source: 'client connector client_name' },
  {
    name: 'TARGET_COMP_ID',
    description: 'Our comp id as the client addresses us (TargetCompID)',
    source: 'client connector target_comp_id',
  },
  { name: 'SENDER_COMP_ID', description: 'Same as COMP_ID', source: 'client connector comp_id' },
  { name: 'TIMESTAMP', description: 'The time the message is built, UTC YYYYMMDD-HH:MM:SS', source: 'clock' },
  { name: 'CLIENT_LEI', description: 'Same as LEI', source: 'client connector client_lei' },
  { name: 'CLIENT_CONTACT', description: 'Same as CONTACT_NAME', source: 'client connector client_contact' },
  { name: 'CLIENT_EMAIL', description: "The client contact's e-mail", source: 'client connector client_email' },
  { name: 'CLIENT_PHONE', description: "The client contact's phone", source: 'client connector client_phone' },
  { name: 'COMPANY_NAME', description: "The client's company name", source: 'client connector company_name' },
  {
    name: 'EXECUTION_ID_PREFIX',
    description: "The prefix of this client's order and execution ids",
    source: 'client connector execution_id_prefix',
  },
  { name: 'BROKER_NAME', description: 'The executing broker (our company or branch)', source: 'broker information company_name' },
  { name: 'BROKER_LEI', description: "The executing broker's LEI", source: 'broker information lei' },
  { name: 'BROKER_PARTY_ID', description: "The executing broker's FIX party id", source: 'broker information party_id' },
];

const KNOWN = new Set(CLIENT_VARIABLES.map((v) => v.name));
/** Variables whose value is the time of building, so a value using them cannot be resolved ahead. */
const CLOCK = new Set(['TIMESTAMP']);
const VARIABLE = /%([A-Za-z][A-Za-z0-9_]*)%/g;

/**
 * The values of the client's variables by upper-case name. TIMESTAMP only when `now` is given. A variable
 * the client has no data for resolves to '' (a field left empty is then left out, with a warning).
 */
export function clientVariables(client: ClientData, now?: Date): Record<string, string> {
  const v = (s: string | null | undefined) => (s ?? '').trim();
  const out: Record<string, string> = {
    COMP_ID: v(client.compId),
    SENDER_COMP_ID: v(client.compId),
    TARGET_COMP_ID: v(client.targetCompId),
    CLIENT_NAME: v(client.clientName),
    LEI: v(client.clientLei),
    CLIENT_LEI: v(client.clientLei),
    CONTACT_NAME: v(client.clientContact),
    CLIENT_CONTACT: v(client.clientContact),
    CLIENT_EMAIL: v(client.clientEmail),
    CLIENT_PHONE: v(client.clientPhone),
    COMPANY_NAME: v(client.companyName),
    EXECUTION_ID_PREFIX: v(client.executionIdPrefix),
    BROKER_NAME: v(client.brokerName),
    BROKER_LEI: v(client.brokerLei),
    BROKER_PARTY_ID: v(client.brokerPartyId),
  };
  if (now) Object.assign(out, clockVariables(now));
  return out;
}

/** The clock's variables at `now`. */
export function clockVariables(now: Date): Record<string, string> {
  return { TIMESTAMP: formatFixTimestamp(now) };
}

export interface Substitution {
  text: string;
  /** Names (as written) that are not variables: left in the text as written so the mistake shows. */
  unresolved: string[];
  /** Variables (upper case) that resolved to nothing because the client has no such data. */
  empty: string[];
}

/**
 * Replaces every %name% with its value from `variables` (keys upper case; names match case-insensitively).
 * A '%' that does not open a variable name, like '100%', stays as it is.
 */
export function substituteVariables(text: string, variables: Readonly<Record<string, string>>): Substitution {
  const unresolved: string[] = [];
  const empty: string[] = [];
  const out = text.replace(VARIABLE, (whole, name: string) => {
    const key = name.toUpperCase();
    const value = variables[key];
    if (value === undefined) {
      unresolved.push(name);
      return whole;
    }
    if (value === '' && !empty.includes(key)) empty.push(key);
    return value;
  });
  return { text: out, unresolved, empty };
}

/** The variable names (upper case) a text refers to, known or not, each once. */
export function variableNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(VARIABLE)) names.add(m[1]!.toUpperCase());
  return [...names];
}

/** The names written as %name% that are no variable of ours (as written). */
export function unknownVariables(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1]!).filter((name) => !KNOWN.has(name.toUpperCase()));
}

/** True when the value depends on the time of building (so it is resolved per message, not cached). */
export function usesClock(text: string): boolean {
  return variableNames(text).some((n) => CLOCK.has(n));
}

/** A client default for one field: tag and value as configured (may hold %variables%). */
export interface FieldDefault {
  tag: number;
  value: string;
}

/**
 * Instances of one repeating group from the client's defaults (e.g. Parties, counted by 453), each a list
 * of [tag, value] in the group's field order (the delimiter first).
 */
export interface GroupDefault {
  countTag: number;
  instances: ReadonlyArray<ReadonlyArray<FieldDefault>>;
}

/**
 * Resolves a group's instances: values substituted, empty fields left out, and an instance whose first
 * field (the group's delimiter) comes out empty left out whole, since it could not be framed.
 */
export function resolveGroupInstances(
  group: GroupDefault,
  variables: Readonly<Record<string, string>>,
): { entries: Array<Array<[number, string]>>; unresolved: string[]; empty: string[] } {
  const unresolved: string[] = [];
  const empty: string[] = [];
  const resolved = group.instances.map((instance) =>
    instance.map((f): [number, string] => {
      const s = substituteVariables(f.value, variables);
      unresolved.push(...s.unresolved);
      for (const e of s.empty) if (!empty.includes(e)) empty.push(e);
      return [f.tag, s.text];
    }),
  );
  return { entries: frameGroupEntries(resolved), unresolved, empty };
}

/** Group entries with resolved values as they can go on the wire: see resolveGroupInstances. */
export function frameGroupEntries(entries: ReadonlyArray<ReadonlyArray<readonly [number, string]>>): Array<Array<[number, string]>> {
  const out: Array<Array<[number, string]>> = [];
  for (const entry of entries) {
    const first = entry[0];
    if (!first || first[1].trim() === '') continue;
    const kept = entry.map(([tag, value]): [number, string] => [tag, value.trim()]).filter(([, value]) => value !== '');
    out.push(kept);
  }
  return out;
}
