// The copies owed to drop copy sessions (docs/adr/0017): one row per report and per drop copy
// connector covering its client, written by the statement that writes the report, so that there is
// no report without its copies and no copy without its report. A copy is numbered and stored in
// fix_messages when the drop copy session sends it (sent_seq_num, sent_at), as a client's report is.
// Copies are compliance records of what was owed: never deleted, and a drop copy connector that has
// copies cannot be deleted (the foreign key).
export default /* sql */ `
CREATE TABLE drop_copies (
  id                      bigserial PRIMARY KEY,
  drop_copy_connector_id  integer NOT NULL REFERENCES client_connectors (id),
  client_comp_id          text NOT NULL,
  source                  text NOT NULL CONSTRAINT drop_copies_source CHECK (source IN ('er', 'cxlrej', 'refusal')),
  exec_report_id          bigint REFERENCES execution_reports (id),
  cancel_reject_id        bigint REFERENCES order_cancel_rejects (id),
  refusal                 jsonb,
  created_at              timestamptz NOT NULL DEFAULT now(),
  sent_seq_num            integer,
  sent_at                 timestamptz,
  CONSTRAINT drop_copies_one_source CHECK (
    (source = 'er') = (exec_report_id IS NOT NULL)
    AND (source = 'cxlrej') = (cancel_reject_id IS NOT NULL)
    AND (source = 'refusal') = (refusal IS NOT NULL))
);
CREATE INDEX drop_copies_unsent_idx ON drop_copies (drop_copy_connector_id, id) WHERE sent_at IS NULL;
CREATE INDEX drop_copies_exec_report_idx ON drop_copies (exec_report_id) WHERE exec_report_id IS NOT NULL;
CREATE INDEX drop_copies_cancel_reject_idx ON drop_copies (cancel_reject_id) WHERE cancel_reject_id IS NOT NULL;
`;
