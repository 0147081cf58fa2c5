import {
  getConnectorAndBroker,
  listMandatoryFields,
  listProfileDefaults,
  listProfileGroupFields,
  type ConnectorAndBrokerRow,
  type Queryable,
} from '@fixdesk/db';
import { clientVariables, clockVariables, frameGroupEntries, substituteVariables, usesClock, type ClientData } from '@fixdesk/domain';

/**
 * What shapes the messages we send one client: its connector data (for %VARIABLES%), the field
 * defaults and repeating-group instances configured for each message type (spec 001 "Client FIX field
 * defaults"), and the mandatory fields of our message specs.
 */
export interface ClientProfile {
  connectorId: number;
  compId: string;
  targetCompId: string;
  executionIdPrefix: string;
  client: ClientData;
  /** The client's variables without the clock's (those are resolved per message). */
  variables: Record<string, string>;
  /** msgType|execType → tag → value (execType '' = any). */
  defaults: Map<string, Map<number, ProfileValue>>;
  /** msgType|execType → group count tag → its instances. */
  groups: Map<string, Map<number, ProfileGroup>>;
  /** msgType|execType → mandatory tags. */
  mandatory: Map<string, number[]>;
}

/**
 * A default's value: resolved when the profile loads, unless it uses the clock (%TIMESTAMP%), which is
 * resolved for each message (see valueAt).
 */
export type ProfileValue = { value: string } | { raw: string };

/**
 * A group's instances, each [tag, value] in the group's field order: framed once when no value uses the
 * clock, else resolved per message (see entriesAt).
 */
export type ProfileGroup = { entries: Array<Array<[number, string]>> } | { instances: Array<Array<[number, ProfileValue]>> };

export const key = (msgType: string, execType: string | null | undefined) => `${msgType}|${execType ?? ''}`;

function prepare(raw: string, variables: Record<string, string>): ProfileValue {
  return usesClock(raw) ? { raw } : { value: substituteVariables(raw, variables).text.trim() };
}

/** The value of a default for a message built at `now` ('' when it resolves to nothing: left out). */
export function valueAt(v: ProfileValue, profile: ClientProfile, now: Date): string {
  if ('value' in v) return v.value;
  return substituteVariables(v.raw, { ...profile.variables, ...clockVariables(now) }).text.trim();
}

/** A group's entries for a message built at `now`. */
export function entriesAt(g: ProfileGroup, profile: ClientProfile, now: Date): Array<Array<[number, string]>> {
  if ('entries' in g) return g.entries;
  return frameGroupEntries(g.instances.map((fields) => fields.map(([tag, v]) => [tag, valueAt(v, profile, now)] as const)));
}

/** What the %variables% resolve from: a connector with its (executing) broker's columns. */
export function clientDataOf(c: ConnectorAndBrokerRow): ClientData {
  return {
    compId: c.comp_id,
    targetCompId: c.target_comp_id,
    clientName: c.client_name,
    clientLei: c.client_lei,
    clientContact: c.client_contact,
    clientEmail: c.client_email,
    clientPhone: c.client_phone,
    companyName: c.company_name,
    executionIdPrefix: c.execution_id_prefix,
    brokerName: c.b_company_name,
    brokerLei: c.b_lei,
    brokerPartyId: c.b_party_id,
  };
}

/** What the %variables% of a client resolve from: its connector and the connector's broker. */
export async function loadClientData(
  db: Queryable,
  connectorId: number,
): Promise<{ row: ConnectorAndBrokerRow; client: ClientData } | undefined> {
  const row = await getConnectorAndBroker(db, connectorId);
  return row ? { row, client: clientDataOf(row) } : undefined;
}

export async function loadClientProfile(db: Queryable, connectorId: number): Promise<ClientProfile | undefined> {
  const loaded = await loadClientData(db, connectorId);
  if (!loaded) return undefined;
  const { row: c, client } = loaded;
  const variables = clientVariables(client);

  const defaults = new Map<string, Map<number, ProfileValue>>();
  for (const r of await listProfileDefaults(db, connectorId)) {
    const k = key(r.msg_type, r.exec_type);
    if (!defaults.has(k)) defaults.set(k, new Map());
    defaults.get(k)!.set(r.tag, prepare(r.default_value, variables));
  }

  const instances = new Map<string, Map<number, Array<Array<[number, ProfileValue]>>>>();
  for (const r of await listProfileGroupFields(db, connectorId)) {
    if (r.group_field_number === null) continue;
    const k = key(r.msg_type, r.exec_type);
    if (!instances.has(k)) instances.set(k, new Map());
    const byGroup = instances.get(k)!;
    if (!byGroup.has(r.group_field_number)) byGroup.set(r.group_field_number, []);
    const entries = byGroup.get(r.group_field_number)!;
    const idx = r.group_instance_number - 1;
    while (entries.length <= idx) entries.push([]);
    entries[idx]!.push([r.tag, prepare(r.default_value, variables)]);
  }
  const groups = new Map<string, Map<number, ProfileGroup>>();
  for (const [k, byGroup] of instances) {
    const prepared = new Map<number, ProfileGroup>();
    for (const [tag, entries] of byGroup) {
      const present = entries.filter((e) => e.length > 0);
      const fixed = present.every((e) => e.every(([, v]) => 'value' in v));
      prepared.set(
        tag,
        fixed
          ? { entries: frameGroupEntries(present.map((e) => e.map(([t, v]) => [t, (v as { value: string }).value] as const))) }
          : { instances: present },
      );
    }
    groups.set(k, prepared);
  }

  const mandatory = new Map<string, number[]>();
  for (const r of await listMandatoryFields(db)) {
    const k = key(r.msg_type, r.exec_type);
    if (!mandatory.has(k)) mandatory.set(k, []);
    mandatory.get(k)!.push(r.field_number);
  }

  return {
    connectorId,
    compId: c.comp_id,
    targetCompId: c.target_comp_id,
    executionIdPrefix: c.execution_id_prefix,
    client,
    variables,
    defaults,
    groups,
    mandatory,
  };
}
