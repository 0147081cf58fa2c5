import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadDictionaryData } from '../dictionary';
import { messageStructure } from './message-structure';

describe('message structure from the FIX 4.4 dictionary', () => {
  const data = loadDictionaryData();

  it('lists the components of NewOrderSingle in order, nested ones too, and every tag it may carry', () => {
    const s = messageStructure(data, 'D')!;
    const names = s.components.map((c) => c.name);
    assert.ok(names.includes('Parties'));
    assert.ok(names.includes('Instrument'));
    assert.ok(names.indexOf('Parties') < names.indexOf('Instrument'), 'in the order the message names them');
    assert.ok(names.includes('PtysSubGrp'), 'nested components follow their parent');
    assert.equal(s.components.find((c) => c.name === 'Instrument')!.required, true);
    assert.equal(s.components.find((c) => c.name === 'Parties')!.required, false);
    for (const tag of [8, 35, 49, 10, 11, 55, 453, 448, 452]) assert.ok(s.tags.has(tag), `tag ${tag}`);
    assert.equal(s.tags.has(150), false, 'ExecType is not a field of an order');
  });

  it('knows a Heartbeat has no Symbol and an unknown type has no structure', () => {
    assert.equal(messageStructure(data, '0')!.tags.has(55), false);
    assert.equal(messageStructure(data, 'ZZ'), undefined);
  });
});
