import { msgTypeLabel } from '@fixdesk/domain';
import type { FixMessageRecord, ParsedFixField } from '@fixdesk/protocol';
import { formatLocalTime } from '../../components/time/localTime';
import type { AuditColumn } from '../order-actions/orderActionColumns';

/**
 * The FIX Messages table (spec 000 §2): times in the user's zone. Its file is the server's streamed
 * export, whose columns (FIX_MESSAGE_CSV_FIELDS in @fixdesk/client) follow these one for one (tested):
 * times ISO 8601 UTC there, and the raw message (SOH as '|') where the table has its View Raw button.
 */
export function fixMessageColumns(timeZone: string): AuditColumn<FixMessageRecord>[] {
  return [
    { id: 'id', header: 'ID', value: (m) => m.id, width: 70, numeric: true },
    {
      id: 'transacttime',
      header: 'TransactTime',
      value: (m) => m.transacttime,
      format: (m) => formatLocalTime(m.transacttime, timeZone),
      width: 196,
    },
    { id: 'direction', header: 'Direction', value: (m) => m.direction, width: 84 },
    { id: 'msgtype', header: 'Msg Type', value: (m) => m.msgtype, format: (m) => msgTypeLabel(m.msgtype), width: 200 },
    { id: 'msgseqnum', header: 'Seq Num', value: (m) => m.msgseqnum, width: 80, numeric: true },
    { id: 'sender', header: 'Sender', value: (m) => m.sender_comp_id, width: 130 },
    { id: 'target', header: 'Target', value: (m) => m.target_comp_id, width: 130 },
    { id: 'clordid', header: 'Client Order ID', value: (m) => m.clordid, width: 140 },
    { id: 'brokerorderid', header: 'Broker Order ID', value: (m) => m.brokerorderid, width: 130, grid: { flex: 1, minWidth: 120 } },
    { id: 'raw', header: 'View Raw', value: () => null, format: () => '', width: 96, grid: { sortable: false } },
  ];
}

/** The text filter (spec 000 §2): ClOrdID, sender, target, msg type (code or name) and direction. */
export function matchesFixMessage(m: FixMessageRecord, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return [m.clordid, m.sender_comp_id, m.target_comp_id, m.msgtype, msgTypeLabel(m.msgtype), m.direction].some(
    (v) => v !== null && v.toLowerCase().includes(needle),
  );
}

export interface LegRow {
  leg: number;
  fields: ReadonlyMap<number, ParsedFixField>;
}

/** The entries of the message's legs group (NoLegs 555), each with its own fields by tag. */
export function legsOf(fields: readonly ParsedFixField[]): LegRow[] {
  const legs = new Map<number, Map<number, ParsedFixField>>();
  for (const f of fields) {
    const entry = f.groups[0];
    if (!entry || entry.countTag !== 555 || f.groups.length !== 1) continue;
    let leg = legs.get(entry.entry);
    if (!leg) legs.set(entry.entry, (leg = new Map()));
    if (!leg.has(f.tag)) leg.set(f.tag, f);
  }
  return [...legs.entries()].sort((a, b) => a[0] - b[0]).map(([leg, map]) => ({ leg, fields: map }));
}

/** Valid values, else the description, cut at 100 characters (the full text is the cell's title). */
export const DESCRIPTION_LIMIT = 100;
export function validValuesOrDescription(f: ParsedFixField): string {
  return f.validValues ?? f.description ?? '';
}
