import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CreateConnectorSchema, UpdateConnectorSchema, type ClientConnector } from '@fixdesk/protocol';
import { initialValues, toPayload, validate, type FormValues } from '../../components/admin/formValues';
import { CONNECTOR_FORM_FIELDS as FIELDS, dropCopyChoices, finishConnectorPayload } from './connectorForm';

const LOCKED_ON_EDIT = FIELDS.filter((f) => f.lockedOnEdit).map((f) => f.name);
/** What the dialog sends (useAdminForm's steps): the descriptors' payload, then the connector's own rules. */
const payloadOf = (values: FormValues, editing: boolean) =>
  finishConnectorPayload(toPayload(FIELDS, values, editing ? LOCKED_ON_EDIT : []), editing);

describe('connector form', () => {
  it("starts a new connector with spec 001 §9's defaults, which the shared schema accepts", () => {
    const v = initialValues(FIELDS);
    assert.equal(v.fix_version, 'FIX.4.4');
    assert.equal(v.target_comp_id, 'FIXDESK');
    assert.equal('port' in v, false, "no port of its own: every client connects to the desk's");
    assert.equal(v.heartbeatint, '30');
    assert.equal(v.timezone, 'Asia/Singapore');
    assert.equal(v.trading_days, 'M,T,W,T,F');
    assert.equal(v.start_time, '09:00:00');
    assert.equal(v.is_active, true);
    assert.equal(v.enabletrace, false);
    assert.equal(v.notes, '');
    const payload = payloadOf({ ...v, comp_id: 'NEW_1', execution_id_prefix: 'n1' }, false);
    assert.equal(payload.execution_id_prefix, 'N1');
    assert.equal('test_port' in payload && payload.test_port, null);
    assert.equal('fix_password' in payload, false);
    assert.equal(validate(CreateConnectorSchema, FIELDS, payload), null);
  });

  it('names the field and the reason: required ids, prefix ≤ 3, a 20-character LEI, e-mail and url', () => {
    const v = initialValues(FIELDS);
    const errors = validate(
      CreateConnectorSchema,
      FIELDS,
      payloadOf(
        { ...v, execution_id_prefix: 'ABCD', client_lei: 'L'.repeat(21), client_email: 'nope', company_website: 'javascript:alert(1)' },
        false,
      ),
    )!;
    assert.equal(errors.comp_id, 'Component ID is required');
    assert.match(errors.execution_id_prefix!, /at most 3 characters/);
    assert.match(errors.client_lei!, /20-character LEI/);
    assert.match(errors.client_email!, /e-mail/);
    assert.match(errors.company_website!, /http/);
  });

  it('on edit sends neither the component ID nor the prefix, and an emptied field clears it', () => {
    const existing = { ...initialValues(FIELDS), comp_id: 'SGX_CLIENT_1', execution_id_prefix: 'SGX', client_name: '', fix_password: 'pw' };
    const payload = payloadOf(existing, true);
    assert.equal('comp_id' in payload, false);
    assert.equal('execution_id_prefix' in payload, false);
    assert.equal(payload.client_name, '');
    assert.equal(payload.fix_password, 'pw');
    assert.equal(payloadOf({ ...existing, fix_password: '' }, true).fix_password, '', 'an emptied password clears it');
    assert.equal(validate(UpdateConnectorSchema, FIELDS, payload), null);
    const stored: Pick<ClientConnector, 'comp_id' | 'notes' | 'host' | 'is_active'> = {
      comp_id: 'X',
      notes: 'n',
      host: 'fix.example',
      is_active: false,
    };
    assert.equal(initialValues(FIELDS, stored).host, 'fix.example');
  });

  it('reads and sends a drop copy session and its clients; an order-entry connector sends none', () => {
    const stored = { ...initialValues(FIELDS), session_type: 'drop_copy', drop_copy_of: ['SGX_CLIENT_1'] };
    assert.deepEqual(initialValues(FIELDS, { session_type: 'drop_copy', drop_copy_of: ['SGX_CLIENT_1'] }).drop_copy_of, ['SGX_CLIENT_1']);
    assert.deepEqual(initialValues(FIELDS).drop_copy_of, [], 'a new connector copies nobody');
    assert.equal(initialValues(FIELDS).session_type, 'order_entry');
    const payload = payloadOf(stored, true);
    assert.deepEqual(payload.drop_copy_of, ['SGX_CLIENT_1']);
    assert.equal(validate(UpdateConnectorSchema, FIELDS, payload), null);
    // Turned back into a client: its list goes empty.
    assert.deepEqual(payloadOf({ ...stored, session_type: 'order_entry' }, true).drop_copy_of, []);
    const errors = validate(UpdateConnectorSchema, FIELDS, { drop_copy_of: ['bad id!'] })!;
    assert.match(errors.drop_copy_of!, /letters, digits/);
  });

  it('offers the order-entry connectors but the one edited as clients to copy', () => {
    const c = (comp_id: string, session_type: ClientConnector['session_type'], client_name: string | null = null) =>
      ({ comp_id, session_type, client_name }) as ClientConnector;
    const choices = dropCopyChoices(
      [c('A', 'order_entry', 'Alpha'), c('B', 'drop_copy'), c('SELF', 'order_entry'), c('D', 'order_entry')],
      'SELF',
    );
    assert.deepEqual(choices, [
      { value: 'A', label: 'A (Alpha)' },
      { value: 'D', label: 'D' },
    ]);
  });
});
