import { USER_FIELDS, USER_TYPE_LABELS, type UserSummary } from '@fixdesk/protocol';
import type { ColDef } from 'ag-grid-community';
import { RoleCell } from './RoleCell';
import { activeStatusColumn } from '../../components/admin/activeStatusColumn';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatWhen(iso: string | null | undefined): string {
  return iso ? when.format(new Date(iso)) : 'Never';
}

/** The user table's columns (Actions added by the table). */
export const USER_COLUMNS: ColDef<UserSummary>[] = [
  { headerName: 'ID', field: 'user_id', width: 64, type: 'numericColumn', sort: 'asc' },
  { headerName: USER_FIELDS.username.label, field: 'username', width: 120, cellStyle: { fontWeight: 600 } },
  {
    headerName: 'Name',
    colId: 'name',
    flex: 1,
    minWidth: 120,
    valueGetter: (p) => [p.data?.first_name, p.data?.last_name].filter(Boolean).join(' '),
  },
  { headerName: USER_FIELDS.email.label, field: 'email', flex: 1, minWidth: 170 },
  {
    headerName: USER_FIELDS.role.label,
    field: 'role',
    width: 100,
    cellRenderer: RoleCell,
    cellStyle: { display: 'flex', alignItems: 'center' },
  },
  {
    headerName: 'Type',
    colId: 'user_type',
    width: 115,
    valueGetter: (p) => (p.data ? (USER_TYPE_LABELS[p.data.user_type] ?? p.data.user_type) : ''),
  },
  { headerName: USER_FIELDS.broker_branch_id.label, field: 'broker_company_name', flex: 1, minWidth: 130 },
  { headerName: USER_FIELDS.trader_id.label, field: 'trader_id', width: 100 },
  activeStatusColumn({ isActive: (u) => u.is_active, width: 90 }),
  {
    headerName: 'Last Login',
    colId: 'last_login',
    width: 160,
    valueGetter: (p) => formatWhen(p.data?.last_login),
    comparator: (_a, _b, na, nb) => String(na.data?.last_login ?? '').localeCompare(String(nb.data?.last_login ?? '')),
  },
];
