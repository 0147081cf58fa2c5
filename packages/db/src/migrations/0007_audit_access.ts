// Who looked at the compliance record: every export and every detail view of the audit
// screens, with the user, the time, the range and the filter. Append-only like the record itself.
export default /* sql */ `
CREATE TABLE audit_access (
  id           bigserial PRIMARY KEY,
  user_id      integer REFERENCES users (user_id) ON DELETE SET NULL,
  username     text NOT NULL,
  role         text NOT NULL,
  action       text NOT NULL CHECK (action IN ('export_fix_messages', 'export_order_actions', 'view_fix_message', 'view_order_action')),
  subject_id   bigint,
  range_start  timestamptz,
  range_end    timestamptz,
  filter       jsonb NOT NULL DEFAULT '{}'::jsonb,
  row_count    integer,
  ip           text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_access_created_idx ON audit_access (created_at DESC);

CREATE TRIGGER audit_access_append_only BEFORE UPDATE OR DELETE ON audit_access
  FOR EACH ROW EXECUTE FUNCTION fixdesk_append_only('user_id');
CREATE TRIGGER audit_access_no_truncate BEFORE TRUNCATE ON audit_access
  FOR EACH STATEMENT EXECUTE FUNCTION fixdesk_append_only();
`;
