import { BROKER_FIELDS, type Broker } from '@fixdesk/protocol';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { logoSrc } from './logo';
import { activeStatusColumn } from '../../components/admin/activeStatusColumn';

/** The stored (sanitised) logo as an image: never inline markup. */
function LogoCell({ data }: ICellRendererParams<Broker>) {
  const src = logoSrc(data?.company_logo);
  return src ? (
    <img
      src={src}
      alt={`${data!.company_name} logo`}
      width={80}
      height={24}
      style={{ objectFit: 'contain', objectPosition: 'left center', display: 'block' }}
    />
  ) : null;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const BROKER_COLUMNS: ColDef<Broker>[] = [
  { headerName: 'ID', field: 'id', width: 70, type: 'numericColumn', sort: 'asc' },
  {
    headerName: 'Logo',
    colId: 'logo',
    width: 96,
    sortable: false,
    cellRenderer: LogoCell,
    cellStyle: { display: 'flex', alignItems: 'center' },
  },
  { headerName: BROKER_FIELDS.company_name.label, field: 'company_name', flex: 2, minWidth: 180, cellStyle: { fontWeight: 600 } },
  { headerName: 'Type', colId: 'branch_type', width: 110, valueGetter: (p) => (p.data ? cap(p.data.branch_type) : '') },
  { headerName: BROKER_FIELDS.parent_company_id.label, field: 'parent_company_name', flex: 1, minWidth: 130 },
  {
    headerName: 'Location',
    colId: 'location',
    flex: 1,
    minWidth: 120,
    valueGetter: (p) => [p.data?.city, p.data?.country].filter(Boolean).join(', '),
  },
  { headerName: BROKER_FIELDS.lei.label, field: 'lei', width: 185 },
  {
    headerName: 'Party ID',
    colId: 'party',
    width: 160,
    valueGetter: (p) => (p.data?.party_id ? `${p.data.party_id} (${p.data.party_id_source})` : ''),
  },
  activeStatusColumn({ isActive: (b) => b.is_active, width: 100 }),
];
