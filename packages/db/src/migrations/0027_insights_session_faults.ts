// Desk Insights' FIX sessions chart (issue 31) counts the resend requests (35=2) and session rejects
// (35=3) of each client per day. The rare-type index (migration 15) finds them by type only, so a
// month of them was read through a lossy bitmap with the BRIN index on created_at: every heap page of
// the month's messages rechecked (183,000 rows read for 4,870 at 1,000,000 messages; bench/insights.ts).
// This index holds those two types alone, by time, with what the chart reads of them (an index-only
// scan once vacuum has marked the pages visible). Partial: the order intake's messages (D, AB, 8) and
// heartbeats never enter it, so their inserts do not touch it.
export default /* sql */ `
CREATE INDEX fix_messages_session_faults_idx ON fix_messages (created_at) INCLUDE (msg_type, target_comp_id, sender_comp_id)
  WHERE msg_type IN ('2', '3');
`;
