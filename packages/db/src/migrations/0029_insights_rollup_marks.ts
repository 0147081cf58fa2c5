// Desk Insights roll-up (docs/adr/0019, amendment 1): the order actions' sequence as each step found it
// ({at, seq}: every id up to seq was taken at or before at), so that a step folds no action id that a
// transaction still open may hold (one that began before the mark's time holds none of them).
export default /* sql */ `
ALTER TABLE insights_rollup_state ADD COLUMN action_marks jsonb NOT NULL DEFAULT '[]';
`;
