// Indexes for the audit screens' filters at scale (bench/audit-scale.ts). A page is the
// newest rows by id, so a filter walks down the ids until it has a page: quick for common rows,
// a walk over the whole record for rare ones.
//
// One order's actions by its broker order id (Order Info in the blotter, the Order Actions filter):
// 60 to 120 ms at a million actions without it, growing with the years kept. Order actions are
// written by broker actions, not by the order intake. Partial, like fix_messages' own.
//
// FIX messages of a rare type (session messages, cancel and replace requests, rejects…): a type with
// few rows or none walked all of a year's five million messages (0.6 s). The index leaves out what
// the order intake writes with every order (NewOrderSingle D, NewOrderMultileg AB, execution
// reports 8) and heartbeats, which a walk finds at once anyway, so the intake's inserts do not touch it.
export default /* sql */ `
CREATE INDEX order_actions_brokerorderid_idx ON order_actions (brokerorderid) WHERE brokerorderid IS NOT NULL;
CREATE INDEX fix_messages_rare_type_idx ON fix_messages (msg_type, id) WHERE msg_type NOT IN ('0', '8', 'D', 'AB');
`;
