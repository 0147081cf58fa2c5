import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CreateConnectorSchema, UpdateConnectorSchema, type ClientConnector } from '@fixdesk/protocol';
import { validate } from '../../components/admin/formValues';
import { CONNECTOR_ADMIN_FIELDS, connectorPayload, connectorValues } from './connectorForm';

describe('connector form', () => {
  it("starts a new connector with spec 001 §9's defaults, which the shared schema accepts", () => {
    const v = connectorValues(null);
    assert.equal(v.fix_version, 'FIX.4.4');
    assert.equal(v.target_comp_id, 'FIXDESK');
    assert.equal('port' in v, false, "no port of its own: every client connects to the desk's");
    assert.equal(v.heartbeatint, '30');
    assert.equal(v.timezone, 'Asia/Singapore');
    assert.equal(v.trading_days, 'M,T,W,T,F');
    assert.equal(v.start_time, '09:00:00');
    assert.equal(v.is_active, true);
    assert.equal(v.enabletrace, false);
    const payload = connectorPayload({ ...v, comp_id: 'NEW_1', execution_id_prefix: 'n1' }, false);
    assert.equal(payload.execution_id_prefix, 'N1');
    assert.equal('test_port' in payload && payload.test_port, null);
    assert.equal('fix_password' in payload, false);
    assert.equal(validate(CreateConnectorSchema, CONNECTOR_ADMIN_FIELDS, payload), null);
  });

  it('names the field and the reason: required ids, prefix ≤ 3, a 20-character LEI, e-mail and url', () => {
    const v = connectorValues(null);
    const errors = validate(
      CreateConnectorSchema,
      CONNECTOR_ADMIN_FIELDS,
      connectorPayload(
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
    const existing = { ...connectorValues(null), comp_id: 'SGX_CLIENT_1', execution_id_prefix: 'SGX', client_name: '', fix_password: 'pw' };
    const payload = connectorPayload(existing, true);
    assert.equal('comp_id' in payload, false);
    assert.equal('execution_id_prefix' in payload, false);
    assert.equal(payload.client_name, '');
    assert.equal(payload.fix_password, 'pw');
    assert.equal(validate(UpdateConnectorSchema, CONNECTOR_ADMIN_FIELDS, payload), null);
    assert.equal(
      connectorValues({ comp_id: 'X', notes: 'n', host: 'fix.example', is_active: false } as unknown as ClientConnector).host,
      'fix.example',
    );
  });
});
