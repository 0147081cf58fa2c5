import { msgTypeLabel, SIDE_LABELS, type SideCode } from '@fixdesk/domain';
import type { FixMessageRecord, OrderAction } from '@fixdesk/protocol';
import type { CsvField } from './csv';

/** The raw message as shown and exported: SOH as '|'. */
export function rawForDisplay(raw: string | null | undefined): string {
  return (raw ?? '').replaceAll('\x01', '|');
}

/**
 * The FIX Messages export (spec 000 §2): the table's columns in its order, times ISO 8601 UTC, the
 * raw message (SOH as '|') where the table has its View Raw button. The server streams it; the
 * screen's column table (apps/web fixMessageColumns) is tested to match it.
 */
export const FIX_MESSAGE_CSV_FIELDS: readonly CsvField<FixMessageRecord>[] = [
  { id: 'id', header: 'ID', value: (m) => m.id },
  { id: 'transacttime', header: 'TransactTime (UTC)', value: (m) => m.transacttime },
  { id: 'direction', header: 'Direction', value: (m) => m.direction },
  { id: 'msgtype', header: 'Msg Type', value: (m) => msgTypeLabel(m.msgtype) },
  { id: 'msgseqnum', header: 'Seq Num', value: (m) => m.msgseqnum },
  { id: 'sender', header: 'Sender', value: (m) => m.sender_comp_id },
  { id: 'target', header: 'Target', value: (m) => m.target_comp_id },
  { id: 'clordid', header: 'Client Order ID', value: (m) => m.clordid },
  { id: 'brokerorderid', header: 'Broker Order ID', value: (m) => m.brokerorderid },
  { id: 'raw', header: 'Raw Message', value: (m) => rawForDisplay(m.raw_fix) },
];

// ── Order Actions ─────────────────────────────────────────────────────────────────────────────

/** A side code in words (1 → Buy); an unknown code as it is. */
export function sideLabel(side: string | null | undefined): string {
  if (!side) return '';
  return SIDE_LABELS[side as SideCode] ?? side;
}

/** The client's firm as named: company name, else the client's name, else its comp id. */
export function actionClientName(a: OrderAction): string {
  return a.company_name ?? a.client_name ?? a.sendercompid ?? '';
}

function dataValue(a: OrderAction, ...keys: string[]): string | null {
  for (const key of keys) {
    const v = a.action_data?.[key];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return null;
}

/** Fill quantity: the record's own, else what its action data carried (fillQty or fillQuantity). */
export const fillQtyOf = (a: OrderAction) => a.fillQty ?? dataValue(a, 'fillQty', 'fillQuantity');
export const fillPriceOf = (a: OrderAction) => a.fillPrice ?? dataValue(a, 'fillPrice');

export function hasActionData(a: OrderAction): boolean {
  return a.action_data !== null && typeof a.action_data === 'object' && Object.keys(a.action_data).length > 0;
}

/**
 * The Order Actions export (spec 000 §2): the table's columns in its order, the time ISO 8601 UTC, the
 * client with its comp id, codes as stored (quantities, prices, action types), notes whole, the action
 * data as JSON. The server streams it; the screen's column table (apps/web orderActionColumns) is tested
 * to match it.
 */
export const ORDER_ACTION_CSV_FIELDS: readonly CsvField<OrderAction>[] = [
  { id: 'id', header: 'ID', value: (a) => a.id },
  { id: 'timestamp', header: 'Timestamp (UTC)', value: (a) => a.timestamp ?? a.created_at },
  {
    id: 'client',
    header: 'Client',
    value: (a) => {
      const name = actionClientName(a);
      return a.sendercompid && a.sendercompid !== name ? (name ? `${name} (${a.sendercompid})` : `(${a.sendercompid})`) : name;
    },
  },
  { id: 'brokerorderid', header: 'Broker Order ID', value: (a) => a.brokerorderid },
  { id: 'clordid', header: 'Client Order ID', value: (a) => a.clordid },
  { id: 'symbol', header: 'Symbol', value: (a) => a.symbol },
  { id: 'side', header: 'Side', value: (a) => sideLabel(a.side) },
  { id: 'orderqty', header: 'Order Qty', value: (a) => a.orderqty },
  { id: 'price', header: 'Order Price', value: (a) => a.price },
  { id: 'action_type', header: 'Action Type', value: (a) => a.action_type },
  { id: 'user_id', header: 'User ID', value: (a) => a.user_id },
  { id: 'fillqty', header: 'Fill Qty', value: (a) => fillQtyOf(a) },
  { id: 'fillprice', header: 'Fill Price', value: (a) => fillPriceOf(a) },
  { id: 'notes', header: 'Notes', value: (a) => a.notes },
  { id: 'action_data', header: 'Action Data', value: (a) => (hasActionData(a) ? JSON.stringify(a.action_data) : '') },
];
