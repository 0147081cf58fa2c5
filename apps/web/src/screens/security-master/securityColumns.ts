import { SECURITY_FIELDS, type Security } from '@fixdesk/protocol';
import type { ColDef } from 'ag-grid-community';
import { activeStatusColumn } from '../../components/admin/activeStatusColumn';

/** Spec 001 §2: ID, Symbol, Instrument Name, Type, Exchange MICs, Status (Actions added by the table). */
export const SECURITY_COLUMNS: ColDef<Security>[] = [
  { headerName: 'ID', field: 'id', width: 80, type: 'numericColumn', sort: 'asc' },
  { headerName: SECURITY_FIELDS.symbol.label, field: 'symbol', width: 130, cellStyle: { fontWeight: 600 } },
  { headerName: SECURITY_FIELDS.instrument_name.label, field: 'instrument_name', flex: 2, minWidth: 220, tooltipField: 'description' },
  { headerName: 'Type', field: 'instrument_type', width: 140 },
  { headerName: SECURITY_FIELDS.exchange_mics.label, field: 'exchange_mics', width: 150 },
  { headerName: SECURITY_FIELDS.price_tick_size.label, field: 'price_tick_size', width: 130, type: 'numericColumn' },
  { headerName: SECURITY_FIELDS.currency.label, field: 'currency', width: 100 },
  activeStatusColumn({ isActive: (s) => s.is_active, width: 110 }),
];
