// Every client FIX specification document generated for a client. The password never
// reaches this table: a row keeps who generated which version for which client and when, the
// SHA-256 of the file handed out (to tell a document in the wild is ours), and the document model it
// was rendered from, so two versions can be compared. The row outlives its connector (compliance
// keeps what was handed to whom); the connector id is cleared when the connector is deleted.
export default /* sql */ `
CREATE TABLE fix_spec_documents (
  id                   serial PRIMARY KEY,
  client_connector_id  integer REFERENCES client_connectors (id) ON DELETE SET NULL,
  comp_id              text NOT NULL,
  version              integer NOT NULL CHECK (version >= 1),
  client_name          text NOT NULL,
  client_contact       text NOT NULL,
  generated_by         text NOT NULL,
  generated_by_user_id integer REFERENCES users (user_id) ON DELETE SET NULL,
  generated_at         timestamptz NOT NULL DEFAULT now(),
  file_sha256          text NOT NULL,
  model                jsonb NOT NULL,
  UNIQUE (comp_id, version)
);
`;
