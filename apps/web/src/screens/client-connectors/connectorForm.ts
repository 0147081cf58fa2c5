import { CONNECTOR_FIELDS, type ClientConnector } from '@fixdesk/protocol';

/** The connector dialog's fields in form order, each on its tab (the notes under the tabs). */
export const CONNECTOR_FORM_FIELDS = Object.values(CONNECTOR_FIELDS);

/**
 * What the dialog sends beyond the descriptors' own rules (pure; unit-tested): the execution ID prefix
 * upper-cased; a new connector's empty FIX password left out (none asked), an edited one's sent empty
 * (which clears it); an order-entry connector's list of clients copied sent empty (a drop copy turned
 * back into a client names none).
 */
export function finishConnectorPayload(payload: Record<string, unknown>, editing: boolean): Record<string, unknown> {
  const out = { ...payload };
  if (typeof out['execution_id_prefix'] === 'string') out['execution_id_prefix'] = out['execution_id_prefix'].toUpperCase();
  if (!editing && out['fix_password'] === '') delete out['fix_password'];
  if (out['session_type'] !== 'drop_copy' && (editing || out['session_type'] !== undefined)) out['drop_copy_of'] = [];
  return out;
}

/**
 * The clients a drop copy session may name: every order-entry connector but the one edited, by comp id
 * with its client's name; a name already chosen stays offered even if it no longer qualifies (the
 * server then says why).
 */
export function dropCopyChoices(connectors: readonly ClientConnector[], self: string | undefined): { value: string; label: string }[] {
  return connectors
    .filter((c) => c.session_type === 'order_entry' && c.comp_id !== self)
    .map((c) => ({ value: c.comp_id, label: c.client_name ? `${c.comp_id} (${c.client_name})` : c.comp_id }));
}
