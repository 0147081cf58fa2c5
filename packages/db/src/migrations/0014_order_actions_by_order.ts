// One order's actions by its broker order id (Order Info in the blotter, the Order Actions screen's
// filter): without an index that read walks the whole table, 60 to 120 ms at a million actions and
// growing with the years kept. Partial, like fix_messages' own. Order actions are written by broker
// actions, not by the order intake: the index costs the intake nothing.
export default /* sql */ `
CREATE INDEX order_actions_brokerorderid_idx ON order_actions (brokerorderid) WHERE brokerorderid IS NOT NULL;
`;
