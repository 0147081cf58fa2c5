// Pre-trade risk and the kill switch (docs/adr/0013).
// A client stopped by the desk: every new order of it is refused until a broker resumes it. Kept on the
// connector, so it holds on every node (the connector-changed event renews their caches) and across
// restarts. The stop and the resume are order actions of their own, with who and why (no order: the
// cancels they caused are the orders' own CANCEL actions).
export default /* sql */ `
ALTER TABLE client_connectors
  ADD COLUMN trading_stopped_at timestamptz,
  ADD COLUMN trading_stopped_by text,
  ADD COLUMN trading_stop_reason text;

ALTER TABLE order_actions DROP CONSTRAINT order_actions_action_type_check;
ALTER TABLE order_actions ADD CONSTRAINT order_actions_action_type_check
  CHECK (action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL', 'DONE_FOR_DAY', 'CANCEL',
                         'CANCEL_CONFIRM', 'CANCEL_REFUSE', 'REPLACE_CONFIRM', 'REPLACE_REFUSE', 'EXPIRE',
                         'CLIENT_STOP', 'CLIENT_RESUME'));
`;
