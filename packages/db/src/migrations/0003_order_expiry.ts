// Day orders expire at the end of their client's trading session (ExecType/OrdStatus C): the sweep
// that does it records an order action like a broker's, of its own type.
export default /* sql */ `
ALTER TABLE order_actions DROP CONSTRAINT order_actions_action_type_check;
ALTER TABLE order_actions ADD CONSTRAINT order_actions_action_type_check
  CHECK (action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL', 'DONE_FOR_DAY', 'CANCEL',
                         'CANCEL_CONFIRM', 'CANCEL_REFUSE', 'REPLACE_CONFIRM', 'REPLACE_REFUSE', 'EXPIRE'));
-- (The sweep for open Day orders reads the open orders through orders_open_idx.)

-- Time-range reads of the two append-only tables written for every order (the audit's date filters,
-- today's orders) need no B-tree: rows arrive in time order, and a BRIN index costs the intake almost
-- nothing to maintain where a B-tree costs an insertion per row.
DROP INDEX fix_messages_created_idx;
CREATE INDEX fix_messages_created_brin ON fix_messages USING brin (created_at);
DROP INDEX orders_created_idx;
CREATE INDEX orders_created_brin ON orders USING brin (created_at);

-- Every order writes these rows; an index that no read needs is pure cost on that path.
-- Resends read outbound messages only: inbound ones need no entry in the resend index.
DROP INDEX fix_messages_resend_idx;
CREATE INDEX fix_messages_resend_idx ON fix_messages (sender_comp_id, target_comp_id, store_epoch, msg_seq_num) WHERE direction = 'TX';
-- A symbol filter reads today's and the open orders (or a date range through the BRIN index) and
-- filters them; a B-tree on symbol alone served no query.
DROP INDEX orders_symbol_idx;
`;
