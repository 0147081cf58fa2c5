import { Alert, Box, Loader, Modal, Text } from '@mantine/core';
import type { ColDef } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useMemo, useState } from 'react';
import { formatLocalTime, timeZoneLabel, userTimeZone } from '../../components/time/localTime';
import { loadErrorText, type AuditAccessEntry } from '../../services/audit/auditApi';
import { auditApi } from '../../services/audit/http';
import { deskGridTheme } from '../../components/grid/gridTheme';

const ACTION_LABEL: Record<AuditAccessEntry['action'], string> = {
  export_fix_messages: 'Exported FIX messages',
  export_order_actions: 'Exported order actions',
  view_fix_message: 'Opened a FIX message',
  view_order_action: 'Opened an order action',
  list_fix_messages: 'Listed FIX messages',
  list_order_actions: 'Listed order actions',
  view_order_timeline: "Opened an order's timeline",
};

/**
 * Who looked: every export, list and detail view of the audit screens and every order
 * timeline opened, newest first, for
 * administrators (the server answers 403 to anyone else).
 */
export function WhoLookedModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [rows, setRows] = useState<AuditAccessEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const zone = userTimeZone();

  useEffect(() => {
    if (!opened) return;
    const controller = new AbortController();
    setRows(null);
    setError(null);
    auditApi
      .auditAccess(controller.signal)
      .then(setRows)
      .catch((err: unknown) => !controller.signal.aborted && setError(loadErrorText(err)));
    return () => controller.abort();
  }, [opened]);

  const columns = useMemo<ColDef<AuditAccessEntry>[]>(
    () => [
      {
        headerName: `Time (${timeZoneLabel(zone)})`,
        field: 'timestamp',
        width: 190,
        valueFormatter: (p) => formatLocalTime(p.value as string, zone),
      },
      { headerName: 'User', field: 'username', width: 110 },
      { headerName: 'Role', field: 'role', width: 80 },
      {
        headerName: 'What',
        field: 'action',
        width: 190,
        valueFormatter: (p) => ACTION_LABEL[p.value as AuditAccessEntry['action']] ?? String(p.value),
      },
      { headerName: 'Record', field: 'subject_id', width: 90 },
      {
        headerName: 'Range',
        colId: 'range',
        width: 360,
        valueGetter: (p) =>
          p.data?.range_start ? `${formatLocalTime(p.data.range_start, zone)} – ${formatLocalTime(p.data.range_end, zone)}` : '',
      },
      { headerName: 'Rows', field: 'row_count', width: 80, type: 'rightAligned' },
      { headerName: 'Filter', colId: 'filter', flex: 1, minWidth: 140, valueGetter: (p) => (p.data ? JSON.stringify(p.data.filter) : '') },
      { headerName: 'Address', field: 'ip', width: 120 },
    ],
    [zone],
  );

  return (
    <Modal opened={opened} onClose={onClose} title="Who looked at the audit record" size="95%" centered data-testid="who-looked-modal">
      <Text fz="xs" c="dimmed" mb={8}>
        Every export and every record opened on the Order Actions and FIX Messages screens, newest first.
      </Text>
      {error ? (
        <Alert color="red" title="Error Loading Access Log">
          {error}
        </Alert>
      ) : rows === null ? (
        <Loader size="sm" />
      ) : (
        <Box h={420} data-testid="who-looked-grid">
          <AgGridReact<AuditAccessEntry>
            theme={deskGridTheme}
            columnDefs={columns}
            rowData={rows}
            getRowId={(p) => String(p.data.id)}
            suppressCellFocus
            enableCellTextSelection
          />
        </Box>
      )}
    </Modal>
  );
}
