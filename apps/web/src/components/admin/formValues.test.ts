import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CreateSecuritySchema, SECURITY_FIELDS, UpdateSecuritySchema } from '@fixdesk/protocol';
import { initialValues, toPayload, validate } from './formValues';

const FIELDS = Object.values(SECURITY_FIELDS);

describe('admin form values', () => {
  it('starts a new record from the descriptors\u2019 defaults and an existing one from the record', () => {
    const fresh = initialValues(FIELDS);
    assert.equal(fresh.currency, 'USD');
    assert.equal(fresh.exchange_mics, 'SGX,EEX');
    assert.equal(fresh.is_active, true);
    assert.equal(fresh.symbol, '');
    const edit = initialValues(FIELDS, { symbol: 'C5TC', is_active: false, contract_size: null, settlement_days: 2 });
    assert.equal(edit.symbol, 'C5TC');
    assert.equal(edit.is_active, false);
    assert.equal(edit.contract_size, '');
    assert.equal(edit.settlement_days, '2');
  });

  it('checks with the same schema as the server and words each problem with its label', () => {
    const values = initialValues(FIELDS);
    const problems = validate(CreateSecuritySchema, FIELDS, toPayload(FIELDS, values));
    assert.equal(problems?.symbol, 'Symbol is required');
    assert.equal(problems?.instrument_name, 'Instrument Name is required');
    values.symbol = ' c5tc ';
    values.instrument_name = 'Capesize';
    values.price_tick_size = '0';
    assert.equal(
      validate(CreateSecuritySchema, FIELDS, toPayload(FIELDS, values))?.price_tick_size,
      'Price Tick Size must be a tick size greater than 0, e.g. 0.01',
    );
    values.price_tick_size = '0.5';
    assert.equal(validate(CreateSecuritySchema, FIELDS, toPayload(FIELDS, values)), null);
    assert.equal(toPayload(FIELDS, values).symbol, 'c5tc', 'trimmed; the schema upper-cases it');
    assert.equal(
      validate(UpdateSecuritySchema, FIELDS, { series_months: 'x' })?.series_months,
      'Series Months must be a whole number of months',
    );
  });

  it('leaves out the fields a screen omits', () => {
    const payload = toPayload(FIELDS, initialValues(FIELDS), ['symbol']);
    assert.equal('symbol' in payload, false);
  });
});
