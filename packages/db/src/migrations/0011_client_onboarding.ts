// Client onboarding: capability and session changes join the reference-data trail, and a
// recorded FIX session keeps what the acceptor recorded when an administrator corrects it. The
// correction is stored beside the original (correction: the corrected fields, who and when), so the
// automatic values stay visible; a session added by hand (recorded = false) has no original to keep.
export default /* sql */ `
ALTER TABLE reference_changes DROP CONSTRAINT reference_changes_entity_check;
ALTER TABLE reference_changes ADD CONSTRAINT reference_changes_entity_check
  CHECK (entity IN ('security_master', 'fix_message_specs', 'users', 'broker_information', 'broker_contacts', 'client_capabilities', 'client_sessions'));

ALTER TABLE client_sessions
  ADD COLUMN recorded      boolean NOT NULL DEFAULT true,
  ADD COLUMN correction    jsonb,
  ADD COLUMN corrected_by  text,
  ADD COLUMN corrected_at  timestamptz;
`;
