// A copy's report is named by id without a foreign key (docs/adr/0017, "Open problem" solved): the
// copy trigger writes each copy from the rows its own statement inserted, so the key can only hold, and
// its check was a query per copy inside the report's statement. PostgreSQL prepares that check once per
// connection; prepared while execution_reports was small (a new desk, the benchmark's first orders), it
// scanned the whole table for every copy until the next ANALYZE, and one drop copy session cut the
// intake to a sixth. Reports are never deleted; the connector's key stays (a connector owed copies
// cannot be deleted).
export default /* sql */ `
ALTER TABLE drop_copies
  DROP CONSTRAINT drop_copies_exec_report_id_fkey,
  DROP CONSTRAINT drop_copies_cancel_reject_id_fkey;
`;
