import { isHeaderTypeField, isSystemControlledField, MESSAGE_SPEC_FIELDS, type FixField, type MessageSpec } from '@fixdesk/protocol';
import { Badge, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { mandatoryColumn } from '../../components/admin/activeStatusColumn';

function FieldCell({ data }: ICellRendererParams<MessageSpec>) {
  if (!data) return null;
  const system = isSystemControlledField(data.field_number);
  const header = isHeaderTypeField(data.field_number);
  return (
    <Group gap={6} wrap="nowrap" h="100%" align="center">
      <Text fz={12} fw={600} className="fd-numeric">
        {data.field_number}
      </Text>
      {system && (
        <Badge size="xs" variant="light" color="gray" leftSection={<IconLock size={10} />} title="System controlled: no edit or delete">
          System
        </Badge>
      )}
      {header && (
        <Badge size="xs" variant="light" color="blue" title="Header-type field: position locked, no delete">
          Header
        </Badge>
      )}
    </Group>
  );
}

export const SPEC_COLUMNS: ColDef<MessageSpec>[] = [
  { headerName: 'ID', field: 'id', width: 70, type: 'numericColumn' },
  { headerName: 'Msg Type', field: 'msg_type', width: 95 },
  { headerName: MESSAGE_SPEC_FIELDS.msg_name.label, field: 'msg_name', width: 190 },
  { headerName: 'ExecType', field: 'exec_type', width: 95, valueFormatter: (p) => p.value ?? '' },
  { headerName: 'Field', field: 'field_number', width: 150, cellRenderer: FieldCell, cellStyle: { display: 'flex', alignItems: 'center' } },
  { headerName: MESSAGE_SPEC_FIELDS.field_name.label, field: 'field_name', width: 170, cellStyle: { fontWeight: 600 } },
  { headerName: 'Type', field: 'field_type', width: 110 },
  { headerName: MESSAGE_SPEC_FIELDS.field_position.label, field: 'field_position', width: 95, type: 'numericColumn' },
  mandatoryColumn<MessageSpec>({ headerName: MESSAGE_SPEC_FIELDS.is_mandatory.label, field: 'is_mandatory', width: 105 }),
  { headerName: MESSAGE_SPEC_FIELDS.description.label, field: 'description', flex: 1, minWidth: 180, tooltipField: 'description' },
];

/** Spec 001 §9: a valid-value list is truncated at 100 characters. */
export const VALID_VALUES_MAX = 100;
const truncate = (s: string | null | undefined) => (!s ? '' : s.length > VALID_VALUES_MAX ? `${s.slice(0, VALID_VALUES_MAX)}…` : s);

export const FIELD_COLUMNS: ColDef<FixField>[] = [
  { headerName: 'Field #', field: 'field_number', width: 95, type: 'numericColumn', sort: 'asc' },
  { headerName: 'Field Name', field: 'field_name', width: 220, cellStyle: { fontWeight: 600 } },
  { headerName: 'Type', field: 'field_type', width: 130 },
  { headerName: 'Description', field: 'description', flex: 1, minWidth: 220 },
  {
    headerName: 'Valid Values',
    field: 'valid_values_display',
    flex: 2,
    minWidth: 280,
    valueFormatter: (p) => truncate(p.value as string | null),
    tooltipField: 'valid_values_display',
  },
];
