// Execution reports are the outbox of the FIX session: written in the order's transaction, sent
// after the commit, and marked with the sequence number they went out with. A report committed but
// not yet sent when a node stops is sent when the client's session is next logged on.
export default /* sql */ `
CREATE SEQUENCE exec_id_seq;

ALTER TABLE execution_reports ADD COLUMN sent_seq_num integer;
ALTER TABLE execution_reports ADD COLUMN sent_at timestamptz;
ALTER TABLE execution_reports ADD COLUMN sendercompid text;
CREATE INDEX execution_reports_unsent_idx ON execution_reports (sendercompid, id) WHERE sent_at IS NULL;

-- Order cancel rejects (35=9) are sent the same way.
CREATE TABLE order_cancel_rejects (
  id              bigserial PRIMARY KEY,
  order_id        bigint REFERENCES orders (id) ON DELETE CASCADE,
  sendercompid    text NOT NULL,
  clordid         text NOT NULL,
  origclordid     text NOT NULL,
  orderid         text NOT NULL,
  ordstatus       char(1) NOT NULL,
  cxl_rej_response_to char(1) NOT NULL,
  cxl_rej_reason  integer,
  text            text,
  transacttime    timestamptz NOT NULL DEFAULT now(),
  sent_seq_num    integer,
  sent_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_cancel_rejects_unsent_idx ON order_cancel_rejects (sendercompid, id) WHERE sent_at IS NULL;
`;
