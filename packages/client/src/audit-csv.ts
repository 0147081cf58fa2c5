import { msgTypeLabel } from '@fixdesk/domain';
import type { FixMessageRecord } from '@fixdesk/protocol';
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
