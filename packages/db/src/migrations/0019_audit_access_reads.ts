// Who looked: the audit lists' reads, which take up to 100,000 rows at once as an export
// does, and an order's timeline (its FIX messages, reports and actions) are recorded too. Version 19:
// 18 is taken by another change in progress (the client kill switch).
export default /* sql */ `
ALTER TABLE audit_access DROP CONSTRAINT audit_access_action_check;
ALTER TABLE audit_access ADD CONSTRAINT audit_access_action_check CHECK (action IN (
  'export_fix_messages', 'export_order_actions', 'view_fix_message', 'view_order_action',
  'list_fix_messages', 'list_order_actions', 'view_order_timeline'
));
`;
