import type { Queryable } from '@fixdesk/db';

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
  variables: Record<string, string>;
  /** msgType|execType → tag → value (execType '' = any). */
  defaults: Map<string, Map<number, string>>;
  /** msgType|execType → group count tag → entries. */
  groups: Map<string, Map<number, Array<Array<[number, string]>>>>;
  /** msgType|execType → mandatory tags. */
  mandatory: Map<string, number[]>;
}

export const key = (msgType: string, execType: string | null | undefined) => `${msgType}|${execType ?? ''}`;

/** Replaces %NAME% with the client's value; unknown variables stay as written so a mistake is visible. */
export function substitute(value: string, variables: Record<string, string>): string {
  return value.replace(/%([A-Z_]+)%/g, (whole, name: string) => variables[name] ?? whole);
}

/** The variables a default value may use (spec 001 §2: %COMP_ID%, %LEI%, %CONTACT_NAME%, %CLIENT_NAME% …). */
export function connectorVariables(c: {
  comp_id: string;
  target_comp_id: string;
  client_name: string | null;
  client_contact: string | null;
  client_email: string | null;
  client_phone: string | null;
  client_lei: string | null;
  company_name: string | null;
  execution_id_prefix: string;
}, broker: { company_name: string | null; lei: string | null; party_id: string | null } | undefined): Record<string, string> {
  const v: Record<string, string | null | undefined> = {
    COMP_ID: c.comp_id,
    SENDER_COMP_ID: c.comp_id,
    TARGET_COMP_ID: c.target_comp_id,
    CLIENT_NAME: c.client_name,
    CLIENT_CONTACT: c.client_contact,
    CONTACT_NAME: c.client_contact,
    CLIENT_EMAIL: c.client_email,
    CLIENT_PHONE: c.client_phone,
    CLIENT_LEI: c.client_lei,
    LEI: c.client_lei,
    COMPANY_NAME: c.company_name,
    EXECUTION_ID_PREFIX: c.execution_id_prefix,
    BROKER_NAME: broker?.company_name,
    BROKER_LEI: broker?.lei,
    BROKER_PARTY_ID: broker?.party_id,
  };
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (val) out[k] = val;
  return out;
}

export async function loadClientProfile(db: Queryable, connectorId: number): Promise<ClientProfile | undefined> {
  const { rows } = await db.query<{
    id: number; comp_id: string; target_comp_id: string; execution_id_prefix: string; client_name: string | null;
    client_contact: string | null; client_email: string | null; client_phone: string | null; client_lei: string | null;
    company_name: string | null; b_company_name: string | null; b_lei: string | null; b_party_id: string | null;
  }>(
    `SELECT c.id, c.comp_id, c.target_comp_id, c.execution_id_prefix, c.client_name, c.client_contact, c.client_email,
            c.client_phone, c.client_lei, c.company_name, b.company_name AS b_company_name, b.lei AS b_lei, b.party_id AS b_party_id
       FROM client_connectors c LEFT JOIN broker_information b ON b.id = c.broker_id WHERE c.id = $1`,
    [connectorId],
  );
  const c = rows[0];
  if (!c) return undefined;
  const variables = connectorVariables(c, { company_name: c.b_company_name, lei: c.b_lei, party_id: c.b_party_id });

  const defaults = new Map<string, Map<number, string>>();
  const d = await db.query<{ msg_type: string; exec_type: string | null; tag: number; default_value: string }>(
    'SELECT msg_type, exec_type, tag, default_value FROM fix_client_defaults WHERE client_connector_id = $1 ORDER BY tag',
    [connectorId],
  );
  for (const r of d.rows) {
    const k = key(r.msg_type, r.exec_type);
    if (!defaults.has(k)) defaults.set(k, new Map());
    defaults.get(k)!.set(r.tag, substitute(r.default_value, variables));
  }

  const groups = new Map<string, Map<number, Array<Array<[number, string]>>>>();
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
    if (!groups.has(k)) groups.set(k, new Map());
    const byGroup = groups.get(k)!;
    if (!byGroup.has(r.group_field_number)) byGroup.set(r.group_field_number, []);
    const entries = byGroup.get(r.group_field_number)!;
    const idx = r.group_instance_number - 1;
    while (entries.length <= idx) entries.push([]);
    entries[idx]!.push([r.tag, substitute(r.default_value, variables)]);
  }
  for (const byGroup of groups.values()) for (const [tag, entries] of byGroup) byGroup.set(tag, entries.filter((e) => e.length > 0));

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
    variables,
    defaults,
    groups,
    mandatory,
  };
}
