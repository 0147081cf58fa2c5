import {
  CreateMessageSpecSchema,
  isHeaderTypeField,
  isSystemControlledField,
  MESSAGE_SPEC_FIELDS,
  MessageSpecText,
  UpdateMessageSpecSchema,
  type FixField,
  type MessageSpec,
} from '@fixdesk/protocol';
import { Button, Container, Group, Select, Tabs, TextInput } from '@mantine/core';
import { IconBook, IconFileCode, IconPlus, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { ReferenceLoadNotice } from '../../components/reference/ReferenceLoadNotice';
import { useReferenceErrors } from '../../components/reference/useReferenceErrors';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { initialValues, type FormValue } from '../../components/admin/formValues';
import { useAdminResource } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { useConfirm } from '../../components/confirm/useConfirm';
import { messageSpecsApi } from '../../services/fix-message-specs/messageSpecsApi';
import { FIELD_COLUMNS, SPEC_COLUMNS } from './specColumns';

const FIELDS = Object.values(MESSAGE_SPEC_FIELDS);
/** FIX 4.4 message types a specification is commonly written for (the list adds any others in use). */
const MESSAGE_TYPES: Record<string, string> = {
  D: 'NewOrderSingle',
  AB: 'NewOrderMultileg',
  F: 'OrderCancelRequest',
  G: 'OrderCancelReplaceRequest',
  H: 'OrderStatusRequest',
  AC: 'MultilegOrderCancelReplace',
  '8': 'ExecutionReport',
  '9': 'OrderCancelReject',
  j: 'BusinessMessageReject',
  '3': 'Reject',
  A: 'Logon',
  '5': 'Logout',
  '0': 'Heartbeat',
  '1': 'TestRequest',
  '2': 'ResendRequest',
  '4': 'SequenceReset',
};

const FAILED = [MessageSpecText.operationFailed, MessageSpecText.error] as const;
const TEXTS = {
  loadFailed: FAILED,
  created: MessageSpecText.created,
  updated: MessageSpecText.updated,
  createFailed: FAILED,
  updateFailed: FAILED,
  deleted: () => MessageSpecText.deleted,
  deleteFailed: [MessageSpecText.deleteFailed, MessageSpecText.error],
} as const;

/** FIX Message Specifications Management (spec 001 §2), admin only. */
export default function FixMessageSpecsScreen() {
  const banners = useBanners();
  const reference = useReferenceErrors();
  const referenceFailed = reference.failed;
  const [fields, setFields] = useState<FixField[] | null>(null);
  const [execTypes, setExecTypes] = useState<Array<{ enum_value: string; description: string }>>([]);
  const [msgFilter, setMsgFilter] = useState<string | null>(null);
  const [execFilter, setExecFilter] = useState<string | null>(null);
  const [fieldFilter, setFieldFilter] = useState('');
  const resource = useAdminResource<MessageSpec>({
    ...messageSpecsApi,
    banners,
    fields: FIELDS,
    texts: TEXTS,
    toValues: (spec) => {
      const start = initialValues(FIELDS, spec);
      // A new specification is for the message type (and ExecType) the list is filtered on.
      if (!spec && msgFilter) {
        start.msg_type = msgFilter;
        if (msgFilter === '8' && execFilter) start.exec_type = execFilter;
      }
      return start;
    },
  });
  const { rows: specs, editingRow, setValues, values } = resource;

  useEffect(() => {
    const controller = new AbortController();
    // The screen works on without them (no field names from the dictionary, no ExecType list) and says which failed.
    const failed = (key: string) => (err: unknown) => !controller.signal.aborted && referenceFailed(key, err);
    messageSpecsApi.fields(controller.signal).then(setFields, (err: unknown) => {
      failed('fields')(err);
      if (!controller.signal.aborted) setFields([]);
    });
    messageSpecsApi.execTypes(controller.signal).then(setExecTypes, failed('execTypes'));
    return () => controller.abort();
  }, [referenceFailed]);

  const fieldByNumber = useMemo(() => new Map((fields ?? []).map((f) => [f.field_number, f])), [fields]);
  const msgOptions = useMemo(() => {
    const types = new Map(Object.entries(MESSAGE_TYPES));
    for (const s of specs ?? []) if (!types.has(s.msg_type)) types.set(s.msg_type, s.msg_name ?? s.msg_type);
    return [...types].map(([value, name]) => ({ value, label: `${value} · ${name}` }));
  }, [specs]);
  const execOptions = useMemo(
    () => execTypes.map((e) => ({ value: e.enum_value, label: `${e.enum_value} · ${e.description}` })),
    [execTypes],
  );

  const visible = useMemo(
    () =>
      specs === null
        ? null
        : specs.filter((s) => (!msgFilter || s.msg_type === msgFilter) && (msgFilter !== '8' || !execFilter || s.exec_type === execFilter)),
    [specs, msgFilter, execFilter],
  );
  const visibleFields = useMemo(() => {
    const n = fieldFilter.trim().toLowerCase();
    return fields === null
      ? null
      : fields.filter(
          (f) =>
            !n || String(f.field_number) === n || f.field_name.toLowerCase().includes(n) || (f.description ?? '').toLowerCase().includes(n),
        );
  }, [fields, fieldFilter]);

  // The field's name and type come from the dictionary as the number is typed; ExecType only for 8.
  const change = (name: string, value: FormValue) =>
    setValues((v) => {
      const next = { ...v, [name]: value };
      if (name === 'field_number') {
        const f = fieldByNumber.get(Number(value));
        next.field_name = f?.field_name ?? '';
        next.field_type = f?.field_type ?? '';
      }
      if (name === 'msg_type' && value !== '8') next.exec_type = '';
      return next;
    });

  // Spec 001 §5: the delete of a specification asks for confirmation (a Mantine modal, as every delete).
  const { confirm, dialog: confirmDialog } = useConfirm();
  const remove = async (spec: MessageSpec) => {
    const what = `${spec.field_name} (${spec.field_number}) for ${spec.msg_name ?? spec.msg_type}${spec.exec_type ? ` ExecType ${spec.exec_type}` : ''}`;
    if (!(await confirm({ title: 'Delete specification', message: `Delete the specification of ${what}?`, confirmLabel: 'Delete' })))
      return;
    void resource.remove(spec);
  };

  const editBlocked = useCallback((s: MessageSpec) => (isSystemControlledField(s.field_number) ? 'System controlled' : null), []);
  const deleteBlocked = useCallback(
    (s: MessageSpec) => (isSystemControlledField(s.field_number) || isHeaderTypeField(s.field_number) ? 'Locked' : null),
    [],
  );
  const rowName = useCallback(
    (s: MessageSpec) => `specification ${s.msg_type}${s.exec_type ? `/${s.exec_type}` : ''} ${s.field_name} (${s.field_number})`,
    [],
  );
  const specId = useCallback((s: MessageSpec) => String(s.id), []);
  const fieldId = useCallback((f: FixField) => String(f.field_number), []);
  const fieldName = useCallback((f: FixField) => f.field_name, []);

  const editingHeader = editingRow !== null && isHeaderTypeField(editingRow.field_number);
  const locked: Record<string, string> = { field_name: 'From the dictionary', field_type: 'From the dictionary' };
  if (editingHeader) {
    locked.field_number = 'Header-type field: locked';
    locked.field_position = 'Header-type field: position locked';
  }

  return (
    <Container size="xl" py="lg" w="100%">
      <AdminPageHeader
        icon={IconFileCode}
        title="FIX Message Specifications"
        description="The fields we promise per message type (and per ExecType for execution reports); outbound reports are checked against the mandatory ones."
        count={specs?.length}
      >
        <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)}>
          Add Specification
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <ReferenceLoadNotice errors={reference.errors} />
      <Tabs defaultValue="specs" keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="specs" leftSection={<IconFileCode size={15} />}>
            Message Specifications
          </Tabs.Tab>
          <Tabs.Tab value="fields" leftSection={<IconBook size={15} />}>
            FIX Fields Reference
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="specs">
          <Group gap="md" mb="sm" align="flex-end">
            <Select
              label="Message type"
              placeholder="All message types"
              data={msgOptions}
              value={msgFilter}
              onChange={(v) => {
                setMsgFilter(v);
                setExecFilter(null);
              }}
              clearable
              searchable
              w={300}
            />
            {msgFilter === '8' && (
              <Select
                label="ExecType"
                placeholder="All ExecTypes"
                data={execOptions}
                value={execFilter}
                onChange={setExecFilter}
                clearable
                searchable
                w={260}
              />
            )}
          </Group>
          <AdminTable<MessageSpec>
            label="Message specifications"
            rows={visible}
            columns={SPEC_COLUMNS}
            getRowId={specId}
            rowName={rowName}
            onEdit={resource.open}
            onDelete={(spec) => void remove(spec)}
            editBlocked={editBlocked}
            deleteBlocked={deleteBlocked}
            height="calc(100vh - 330px)"
            emptyText="No specifications for this filter"
          />
        </Tabs.Panel>
        <Tabs.Panel value="fields">
          <TextInput
            aria-label="Filter fields"
            placeholder="Filter by number, name or description…"
            leftSection={<IconSearch size={15} />}
            value={fieldFilter}
            onChange={(e) => setFieldFilter(e.currentTarget.value)}
            w={320}
            mb="sm"
          />
          <AdminTable<FixField>
            label="FIX fields"
            rows={visibleFields}
            columns={FIELD_COLUMNS}
            getRowId={fieldId}
            rowName={fieldName}
            height="calc(100vh - 330px)"
            emptyText="No field matches the filter"
          />
        </Tabs.Panel>
      </Tabs>
      <AdminFormModal
        {...resource.formProps}
        title={
          editingRow
            ? `Edit specification ${editingRow.msg_type} ${editingRow.field_name} (${editingRow.field_number})`
            : 'Add Message Specification'
        }
        fields={FIELDS}
        schema={editingRow ? UpdateMessageSpecSchema : CreateMessageSpecSchema}
        onChange={change}
        locked={locked}
        hidden={values.msg_type === '8' ? [] : ['exec_type']}
        options={{ msg_type: msgOptions, exec_type: execOptions }}
        submitLabel={editingRow ? 'Save Changes' : 'Create Specification'}
      />
      {confirmDialog}
    </Container>
  );
}
