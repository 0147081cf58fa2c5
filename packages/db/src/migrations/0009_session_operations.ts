// The desk's own certificate authority and the FIX acceptor's server certificate (created
// once, kept here; the private keys never leave the server), and the audit trail of what operators did
// to live FIX sessions from the session console and of every certificate issued: who, when, why, the
// numbers before and after. Append-only like the rest of the compliance record.
export default /* sql */ `
CREATE TABLE desk_pki (
  kind        text PRIMARY KEY CHECK (kind IN ('ca', 'server')),
  cert_pem    text NOT NULL,
  key_pem     text NOT NULL,
  fingerprint text NOT NULL,
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE session_operations (
  id          bigserial PRIMARY KEY,
  comp_id     text NOT NULL,
  action      text NOT NULL CHECK (action IN ('LOGOUT', 'DISCONNECT', 'RESET_SEQNUMS', 'SET_NEXT_SENDER', 'SET_NEXT_TARGET', 'GENERATE_CERTS')),
  reason      text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  before      jsonb,
  after       jsonb,
  changed_by  text NOT NULL,
  user_ref    integer REFERENCES users (user_id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_operations_comp_idx ON session_operations (comp_id, id DESC);

CREATE TRIGGER session_operations_append_only BEFORE UPDATE OR DELETE ON session_operations
  FOR EACH ROW EXECUTE FUNCTION fixdesk_append_only('user_ref');
CREATE TRIGGER session_operations_no_truncate BEFORE TRUNCATE ON session_operations
  FOR EACH STATEMENT EXECUTE FUNCTION fixdesk_append_only();
`;
