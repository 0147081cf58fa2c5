// Refusal copies (docs/adr/0017 point 2): a refusal at intake has no report row, so its drop copies are
// written by the intake's own statement (a CTE in the shapes of batches that hold a refusal), each
// carrying the refusal's facts in drop_copies.refusal. Which drop copy connectors cover a client is now
// one function, used by the report copies' trigger and by that CTE alike (a plain SQL expression the
// planner inlines: the trigger's plan is the one it had). The index finds a refusal's copies by its
// ExecID (the refused order's timeline).
export default /* sql */ `
CREATE FUNCTION fixdesk_drop_copy_covers(d client_connectors, client text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT d.session_type = 'drop_copy' AND d.is_active AND (cardinality(d.drop_copy_of) = 0 OR client = ANY (d.drop_copy_of))
$$;

CREATE OR REPLACE FUNCTION fixdesk_copy_reports() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  report_source text := CASE TG_TABLE_NAME WHEN 'execution_reports' THEN 'er' ELSE 'cxlrej' END;
BEGIN
  INSERT INTO drop_copies (drop_copy_connector_id, client_comp_id, source, exec_report_id, cancel_reject_id)
  SELECT d.id, r.sendercompid, report_source,
         CASE WHEN report_source = 'er' THEN r.id END, CASE WHEN report_source = 'cxlrej' THEN r.id END
    FROM new_reports r
    JOIN client_connectors d ON fixdesk_drop_copy_covers(d, r.sendercompid)
   ORDER BY r.id, d.id;
  RETURN NULL;
END $$;

CREATE INDEX drop_copies_refusal_execid_idx ON drop_copies ((refusal ->> 'execId')) WHERE source = 'refusal';
`;
