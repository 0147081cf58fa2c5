// The HeartBtInt (108) a client connector's Logon may ask for: 5-120 s by default, 0 (no
// heartbeats) only where the connector allows it. The connector's own heartbeatint (what the desk's
// documents and simulator use) must lie in the range.
export default /* sql */ `
ALTER TABLE client_connectors
  ADD COLUMN heartbeat_min_sec    integer NOT NULL DEFAULT 5   CHECK (heartbeat_min_sec BETWEEN 1 AND 3600),
  ADD COLUMN heartbeat_max_sec    integer NOT NULL DEFAULT 120 CHECK (heartbeat_max_sec BETWEEN 1 AND 3600),
  ADD COLUMN heartbeat_allow_zero boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT client_connectors_heartbeat_range CHECK (heartbeat_min_sec <= heartbeat_max_sec);
`;
