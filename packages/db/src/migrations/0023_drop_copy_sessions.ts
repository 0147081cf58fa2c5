// A connector's session type (docs/adr/0017): an order-entry session (every connector until now) or a
// drop copy session, which receives a copy of the reports sent to the clients it names in
// drop_copy_of (client comp ids; empty: every client) and never trades.
export default /* sql */ `
ALTER TABLE client_connectors
  ADD COLUMN session_type text NOT NULL DEFAULT 'order_entry'
    CONSTRAINT client_connectors_session_type CHECK (session_type IN ('order_entry', 'drop_copy')),
  ADD COLUMN drop_copy_of text[] NOT NULL DEFAULT '{}',
  ADD CONSTRAINT client_connectors_drop_copy_of CHECK (session_type = 'drop_copy' OR cardinality(drop_copy_of) = 0);
`;
