// The copies owed to drop copy sessions (docs/adr/0017): one row per report and per drop copy
// connector covering its client. Triggers on the two report tables write them, in the statement that
// writes the reports, whatever path wrote them (the intake's statements, a broker action, an answer to
// a client's request, an expiry, a kill switch): there is no report without its copies and no copy
// without its report. A copy is numbered and stored in fix_messages when its drop copy session sends
// it (sent_seq_num, sent_at), as a client's report is. Copies are compliance records of what was owed:
// never deleted, and a drop copy connector owed copies cannot be deleted (the foreign key).
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

-- One copy of each new report per active drop copy connector whose list names the report's client or
-- is empty (every client), in the reports' order. The lists are read in the report's own statement:
-- a change counts from the next report, with no backfill. With no drop copy connector it inserts
-- nothing (one look at client_connectors per statement).
CREATE FUNCTION fixdesk_copy_reports() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  report_source text := CASE TG_TABLE_NAME WHEN 'execution_reports' THEN 'er' ELSE 'cxlrej' END;
BEGIN
  INSERT INTO drop_copies (drop_copy_connector_id, client_comp_id, source, exec_report_id, cancel_reject_id)
  SELECT d.id, r.sendercompid, report_source,
         CASE WHEN report_source = 'er' THEN r.id END, CASE WHEN report_source = 'cxlrej' THEN r.id END
    FROM new_reports r
    JOIN client_connectors d ON d.session_type = 'drop_copy' AND d.is_active
                            AND (cardinality(d.drop_copy_of) = 0 OR r.sendercompid = ANY (d.drop_copy_of))
   ORDER BY r.id, d.id;
  RETURN NULL;
END $$;
CREATE TRIGGER execution_reports_drop_copies AFTER INSERT ON execution_reports
  REFERENCING NEW TABLE AS new_reports FOR EACH STATEMENT EXECUTE FUNCTION fixdesk_copy_reports();
CREATE TRIGGER order_cancel_rejects_drop_copies AFTER INSERT ON order_cancel_rejects
  REFERENCING NEW TABLE AS new_reports FOR EACH STATEMENT EXECUTE FUNCTION fixdesk_copy_reports();
`;
