import type { OrganisationChange } from '@fixdesk/protocol';
import { Alert, Paper } from '@mantine/core';
import type { ColDef } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useState } from 'react';
import { deskGridTheme } from '../grid/gridTheme';
import { usersApi } from '../../services/users/users';
import { adminErrorText } from './errors';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The record a change was about, by its name at the time (username, company or contact name). */
function subject(c: OrganisationChange): string {
  const r = c.after ?? c.before ?? {};
  const name = r['username'] ?? r['company_name'] ?? r['contact_name'];
  return typeof name === 'string' ? `${name} (#${c.entity_id})` : `#${c.entity_id}`;
}

const COLUMNS: ColDef<OrganisationChange>[] = [
  {
    headerName: 'When',
    colId: 'when',
    width: 190,
    valueGetter: (p) => (p.data ? when.format(new Date(p.data.created_at)) : ''),
    sort: 'desc',
    comparator: (_a, _b, na, nb) => (na.data?.id ?? 0) - (nb.data?.id ?? 0),
  },
  { headerName: 'Changed By', field: 'changed_by', width: 140 },
  { headerName: 'Action', field: 'action', width: 100 },
  { headerName: 'Record', colId: 'subject', flex: 1, minWidth: 180, valueGetter: (p) => (p.data ? subject(p.data) : '') },
  {
    headerName: 'Fields Changed',
    colId: 'fields',
    flex: 2,
    minWidth: 240,
    valueGetter: (p) => (p.data?.action === 'UPDATE' ? p.data.fields.join(', ') : p.data?.action === 'CREATE' ? 'created' : 'deleted'),
  },
];

/** Who changed which record, what and when (admin only), newest first; cells are text, never markup. */
export function ChangeHistory({
  entity,
  reloadKey,
  height = 'calc(100vh - 300px)',
}: {
  entity: 'users' | 'broker_information' | 'broker_contacts';
  reloadKey: number;
  height?: string;
}) {
  const [rows, setRows] = useState<OrganisationChange[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setRows(null);
    setError(null);
    usersApi
      .changes(entity, controller.signal)
      .then(setRows)
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setRows([]);
        setError(adminErrorText(err, 'Failed to fetch the change history', (m) => `Error fetching the change history: ${m}`));
      });
    return () => controller.abort();
  }, [entity, reloadKey]);
  return (
    <>
      {error && (
        <Alert color="red" variant="light" mb="sm" role="alert">
          {error}
        </Alert>
      )}
      <Paper withBorder style={{ height }} role="region" aria-label="Change history">
        <AgGridReact<OrganisationChange>
          theme={deskGridTheme}
          rowData={rows}
          columnDefs={COLUMNS}
          getRowId={(p) => String(p.data.id)}
          defaultColDef={{ sortable: true, resizable: true }}
          loading={rows === null}
          overlayNoRowsTemplate="<span>No changes recorded yet</span>"
          enableCellTextSelection
          animateRows={false}
        />
      </Paper>
    </>
  );
}
