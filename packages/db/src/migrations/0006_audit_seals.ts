// The compliance record is append-only and tamper-evident (docs/adr/0010). order_actions and
// fix_messages take no UPDATE, DELETE or TRUNCATE: triggers refuse them on both databases. The only
// update let through is the one a foreign key's ON DELETE SET NULL makes (order_actions.order_id and
// user_ref), which the seals do not cover. audit_seals chains blocks of those records: each seal holds
// the SHA-256 of its block's rows and of the seal before it; `npm run audit:verify` recomputes them.
export default /* sql */ `
CREATE TABLE audit_seals (
  table_name  text NOT NULL CHECK (table_name IN ('order_actions', 'fix_messages')),
  block_no    bigint NOT NULL,
  first_id    bigint NOT NULL,
  last_id     bigint NOT NULL,
  row_count   integer NOT NULL,
  rows_hash   text NOT NULL,
  chain_hash  text NOT NULL,
  sealed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, block_no)
);

CREATE FUNCTION fixdesk_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  nullable text[] := TG_ARGV;
  changed text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- Only a foreign key set to NULL by ON DELETE SET NULL; every other column must stay as it was.
    SELECT string_agg(key, ', ') INTO changed
      FROM jsonb_each(to_jsonb(NEW)) n
     WHERE n.value IS DISTINCT FROM to_jsonb(OLD) -> n.key
       AND NOT (n.key = ANY (nullable) AND n.value = 'null'::jsonb);
    IF changed IS NULL THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION '% is append-only: UPDATE of % refused', TG_TABLE_NAME, changed USING ERRCODE = 'insufficient_privilege';
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER order_actions_append_only BEFORE UPDATE OR DELETE ON order_actions
  FOR EACH ROW EXECUTE FUNCTION fixdesk_append_only('order_id', 'user_ref');
CREATE TRIGGER order_actions_no_truncate BEFORE TRUNCATE ON order_actions
  FOR EACH STATEMENT EXECUTE FUNCTION fixdesk_append_only();
CREATE TRIGGER fix_messages_append_only BEFORE UPDATE OR DELETE ON fix_messages
  FOR EACH ROW EXECUTE FUNCTION fixdesk_append_only();
CREATE TRIGGER fix_messages_no_truncate BEFORE TRUNCATE ON fix_messages
  FOR EACH STATEMENT EXECUTE FUNCTION fixdesk_append_only();
CREATE TRIGGER audit_seals_append_only BEFORE UPDATE OR DELETE ON audit_seals
  FOR EACH ROW EXECUTE FUNCTION fixdesk_append_only();
CREATE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON audit_seals
  FOR EACH STATEMENT EXECUTE FUNCTION fixdesk_append_only();
`;
