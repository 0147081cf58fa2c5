import { CONNECTOR_FIELDS } from '@fixdesk/protocol';

/** The connector dialog's fields in form order, each on its tab (the notes under the tabs). */
export const CONNECTOR_FORM_FIELDS = Object.values(CONNECTOR_FIELDS);

/**
 * What the dialog sends beyond the descriptors' own rules (pure; unit-tested): the execution ID prefix
 * upper-cased; a new connector's empty FIX password left out (none asked), an edited one's sent empty
 * (which clears it).
 */
export function finishConnectorPayload(payload: Record<string, unknown>, editing: boolean): Record<string, unknown> {
  const out = { ...payload };
  if (typeof out['execution_id_prefix'] === 'string') out['execution_id_prefix'] = out['execution_id_prefix'].toUpperCase();
  if (!editing && out['fix_password'] === '') delete out['fix_password'];
  return out;
}
