import type { Queryable } from '@fixdesk/db';
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

interface ConnectorAndBroker {
  id: number; comp_id: string; target_comp_id: string; execution_id_prefix: string; client_name: string | null;
  client_contact: string | null; client_email: string | null; client_phone: string | null; client_lei: string | null;
  company_name: string | null; b_company_name: string | null; b_lei: string | null; b_party_id: string | null;
}

function clientDataOf(c: ConnectorAndBroker): ClientData {
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
export async function loadClientData(db: Queryable, connectorId: number): Promise<{ row: ConnectorAndBroker; client: ClientData } | undefined> {
  const { rows } = await db.query<ConnectorAndBroker>(
    `SELECT c.id, c.comp_id, c.target_comp_id, c.execution_id_prefix, c.client_name, c.client_contact, c.client_email,
            c.client_phone, c.client_lei, c.company_name, b.company_name AS b_company_name, b.lei AS b_lei, b.party_id AS b_party_id
       FROM client_connectors c LEFT JOIN broker_information b ON b.id = c.broker_id WHERE c.id = $1`,
    [connectorId],
  );
  const row = rows[0];
  return row ? { row, client: clientDataOf(row) } : undefined;
}

export async function loadClientProfile(db: Queryable, connectorId: number): Promise<ClientProfile | undefined> {
  const loaded = await loadClientData(db, connectorId);
  if (!loaded) return undefined;
  const { row: c, client } = loaded;
  const variables = clientVariables(client);

  const defaults = new Map<string, Map<number, ProfileValue>>();
  const d = await db.query<{ msg_type: string; exec_type: string | null; tag: number; default_value: string }>(
    'SELECT msg_type, exec_type, tag, default_value FROM fix_client_defaults WHERE client_connector_id = $1 ORDER BY tag',
    [connectorId],
  );
  for (const r of d.rows) {
    const k = key(r.msg_type, r.exec_type);
    if (!defaults.has(k)) defaults.set(k, new Map());
    defaults.get(k)!.set(r.tag, prepare(r.default_value, variables));
  }

  const instances = new Map<string, Map<number, Array<Array<[number, ProfileValue]>>>>();
  const g = await db.query<{ msg_type: string; exec_type: string | null; group_field_number: number | null; group_instance_number: number; tag: number; default_value: string; position: number | null }>(
    `SELECT i.msg_type, i.exec_type, b.group_field_number, i.group_instance_number, f.tag, f.default_value, bf.field_position AS position
       FROM fix_client_group_instances i
       JOIN component_blocks b ON b.id = i.component_block_id
       JOIN fix_client_group_fields f ON f.instance_id = i.id
       LEFT JOIN component_block_fields bf ON bf.block_id = b.id AND bf.field_number = f.tag
      WHERE i.client_connector_id = $1
      ORDER BY i.msg_type, i.exec_type NULLS FIRST, b.group_field_number, i.group_instance_number, bf.field_position NULLS LAST, f.tag`,
    [connectorId],
  );
  for (const r of g.rows) {
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
      prepared.set(tag, fixed ? { entries: frameGroupEntries(present.map((e) => e.map(([t, v]) => [t, (v as { value: string }).value] as const))) } : { instances: present });
    }
    groups.set(k, prepared);
  }

  const mandatory = new Map<string, number[]>();
  const m = await db.query<{ msg_type: string; exec_type: string | null; field_number: number }>(
    'SELECT msg_type, exec_type, field_number FROM fix_message_specs WHERE is_mandatory ORDER BY field_position',
  );
  for (const r of m.rows) {
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
