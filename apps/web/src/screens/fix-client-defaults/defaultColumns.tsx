import { isDropdownControlledTag, type ClientFieldDefault } from '@fixdesk/protocol';
import { Badge, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { mandatoryColumn } from '../../components/admin/activeStatusColumn';

function TagCell({ data }: ICellRendererParams<ClientFieldDefault>) {
  if (!data) return null;
  return (
    <Group gap={6} wrap="nowrap" h="100%" align="center">
      <Text fz={12} fw={600} className="fd-numeric">
        {data.tag}
      </Text>
      {isDropdownControlledTag(data.tag) && (
        <Badge
          size="xs"
          variant="light"
          color="gray"
          leftSection={<IconLock size={10} />}
          title="Set by a dropdown in the order forms: not editable here"
        >
          Locked
        </Badge>
      )}
    </Group>
  );
}

/** Spec 001 §2: tag, field name, description, default value, notes, mandatory (Actions added by the table). */
export const DEFAULT_COLUMNS: ColDef<ClientFieldDefault>[] = [
  { headerName: 'Tag', field: 'tag', width: 110, cellRenderer: TagCell, sort: 'asc', cellStyle: { display: 'flex', alignItems: 'center' } },
  { headerName: 'Field Name', field: 'field_name', width: 170, cellStyle: { fontWeight: 600 } },
  { headerName: 'Description', field: 'field_description', flex: 1, minWidth: 160, tooltipField: 'field_description' },
  {
    headerName: 'Default Value',
    field: 'default_value',
    flex: 1,
    minWidth: 180,
    cellStyle: { fontFamily: 'var(--mantine-font-family-monospace)' },
  },
  { headerName: 'Notes', field: 'notes', flex: 1, minWidth: 140, tooltipField: 'notes' },
  { headerName: 'Exec Type', field: 'exec_type', width: 100, valueFormatter: (p) => p.value ?? 'All' },
  mandatoryColumn<ClientFieldDefault>({ headerName: 'Mandatory', field: 'is_mandatory', width: 110 }),
];
