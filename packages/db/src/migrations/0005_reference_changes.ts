// Who changed the reference data, when, and from what to what: every create, update and delete of a
// security or a FIX message specification, written in the same transaction as the change itself, so
// compliance can reconstruct what an order was checked against at any time.
export default /* sql */ `
CREATE TABLE reference_changes (
  id           bigserial PRIMARY KEY,
  entity       text NOT NULL CHECK (entity IN ('security_master', 'fix_message_specs')),
  entity_id    integer NOT NULL,
  action       text NOT NULL CHECK (action IN ('CREATE', 'UPDATE', 'DELETE')),
  changed_by   text NOT NULL,
  user_ref     integer REFERENCES users (user_id) ON DELETE SET NULL,
  before       jsonb,
  after        jsonb,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reference_changes_entity_idx ON reference_changes (entity, entity_id, id);
`;
