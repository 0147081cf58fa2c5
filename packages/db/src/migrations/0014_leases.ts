// Leases with a fencing term (docs/adr/0012): one row per thing that exactly one node may
// own at a time: a client's FIX session ('fix:…') or a desk-wide job ('job:…'). The owner holds it
// until expires_at (the database's clock, never a node's); another node takes it over only after
// that. term grows by one at every acquisition, so (name, term) names one holding: each write the
// owner makes to what the lease guards is conditional on that pair still being the row's, and a
// node that lost its lease while paused can never write after the new owner started. Rows are never
// deleted (a release only ends the holding), so a term is never reused.
export default /* sql */ `
CREATE TABLE leases (
  name        text PRIMARY KEY,
  owner       text NOT NULL,
  term        bigint NOT NULL CHECK (term >= 1),
  acquired_at timestamptz NOT NULL DEFAULT now(),
  renewed_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
`;
