// Day orders expire at the end of their client's trading session (ExecType/OrdStatus C): the sweep
// that does it records an order action like a broker's, of its own type.
export default /* sql */ `
ALTER TABLE order_actions DROP CONSTRAINT order_actions_action_type_check;
ALTER TABLE order_actions ADD CONSTRAINT order_actions_action_type_check
  CHECK (action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL', 'DONE_FOR_DAY', 'CANCEL',
                         'CANCEL_CONFIRM', 'CANCEL_REFUSE', 'REPLACE_CONFIRM', 'REPLACE_REFUSE', 'EXPIRE'));
-- The sweep looks for open Day orders.
CREATE INDEX orders_open_day_idx ON orders (sendercompid, created_at) WHERE timeinforce = '0' AND ordstatus IN ('A', '0', '1', '6', 'E');

-- Time-range reads of the two append-only tables written for every order (the audit's date filters,
-- today's orders) need no B-tree: rows arrive in time order, and a BRIN index costs the intake almost
-- nothing to maintain where a B-tree costs an insertion per row.
DROP INDEX fix_messages_created_idx;
CREATE INDEX fix_messages_created_brin ON fix_messages USING brin (created_at);
DROP INDEX orders_created_idx;
CREATE INDEX orders_created_brin ON orders USING brin (created_at);
`;
