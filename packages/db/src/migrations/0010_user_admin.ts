// User administration and broker information: their changes join the reference data's
// change trail (who changed whom or what, from what to what, when), e-mail addresses are unique, and
// a session records why it was ended (signed out, password changed, deactivated by an administrator),
// and an execution report a broker-type user's action produced keeps that user's trader party (what
// the report names as the executing trader, PartyRole 12).
export default /* sql */ `
ALTER TABLE reference_changes DROP CONSTRAINT IF EXISTS reference_changes_entity_check;
ALTER TABLE reference_changes ADD CONSTRAINT reference_changes_entity_check
  CHECK (entity IN ('security_master', 'fix_message_specs', 'users', 'broker_information', 'broker_contacts'));

CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL;

ALTER TABLE auth_sessions ADD COLUMN revoked_reason text;
ALTER TABLE execution_reports ADD COLUMN executing_trader_id text,
  ADD COLUMN executing_trader_source text,
  ADD COLUMN executing_trader_name text;

CREATE INDEX auth_sessions_live_user_idx ON auth_sessions (user_id) WHERE revoked_at IS NULL;
`;
