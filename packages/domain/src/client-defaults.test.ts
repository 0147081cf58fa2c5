import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CLIENT_VARIABLES,
  clientVariables,
  resolveGroupInstances,
  substituteVariables,
  unknownVariables,
  usesClock,
  variableNames,
  type ClientData,
} from './client-defaults';

const now = new Date('2025-09-05T07:08:09.123Z');
const client: ClientData = {
  compId: 'ACME',
  targetCompId: 'BROKER',
  clientName: 'Acme Shipping',
  clientLei: '5493001KJTIIGC8Y1R12',
  clientContact: 'Jane Trader',
  clientEmail: 'jane@acme.example',
  executionIdPrefix: 'ACM',
  brokerName: 'FixDesk Brokers',
  brokerLei: '5493009BROKER0000001',
};

describe('client variables', () => {
  it('has a value for every listed variable, and nothing unlisted', () => {
    const vars = clientVariables(client, now);
    assert.deepEqual(Object.keys(vars).sort(), CLIENT_VARIABLES.map((v) => v.name).sort());
    // The defaults screen's chips show the first twelve; the spec's examples lead.
    assert.deepEqual(
      CLIENT_VARIABLES.slice(0, 4).map((v) => v.name),
      ['COMP_ID', 'LEI', 'CONTACT_NAME', 'CLIENT_NAME'],
    );
    assert.equal(clientVariables(client).TIMESTAMP, undefined, 'no clock without a time');
  });

  it('substitutes client data, case-insensitively, by the chip names and the spec 001 §5 names', () => {
    const vars = clientVariables(client, now);
    assert.deepEqual(substituteVariables('%COMP_ID%/%target_comp_id%/%Sender_Comp_Id%', vars), {
      text: 'ACME/BROKER/ACME',
      unresolved: [],
      empty: [],
    });
    assert.equal(
      substituteVariables('%LEI% %CONTACT_NAME% %CLIENT_LEI% %client_contact%', vars).text,
      '5493001KJTIIGC8Y1R12 Jane Trader 5493001KJTIIGC8Y1R12 Jane Trader',
    );
    assert.equal(substituteVariables('%timestamp%', vars).text, '20250905-07:08:09');
    assert.equal(
      substituteVariables('%client_name% via %BROKER_NAME% (%broker_lei%)', vars).text,
      'Acme Shipping via FixDesk Brokers (5493009BROKER0000001)',
    );
    assert.equal(substituteVariables('%EXECUTION_ID_PREFIX%-%CLIENT_EMAIL%', vars).text, 'ACM-jane@acme.example');
  });

  it('leaves unknown names as written and reports them; a lone % is text', () => {
    const vars = clientVariables(client, now);
    assert.deepEqual(substituteVariables('100% sure %X% %', vars), { text: '100% sure %X% %', unresolved: ['X'], empty: [] });
    assert.deepEqual(substituteVariables('no variables here', vars), { text: 'no variables here', unresolved: [], empty: [] });
    assert.deepEqual(unknownVariables('%comp_id% %Nope% %LEI% %x1%'), ['Nope', 'x1']);
  });

  it('resolves a variable without client data to nothing and says which', () => {
    const vars = clientVariables({ compId: 'BARE', targetCompId: 'FIXDESK' }, now);
    assert.deepEqual(substituteVariables('%LEI%', vars), { text: '', unresolved: [], empty: ['LEI'] });
    assert.deepEqual(substituteVariables('%CLIENT_NAME%-desk %client_name%', vars), {
      text: '-desk ',
      unresolved: [],
      empty: ['CLIENT_NAME'],
    });
  });

  it('does not substitute inside a substituted value', () => {
    const vars = clientVariables({ ...client, clientName: '%COMP_ID%' }, now);
    assert.equal(substituteVariables('%CLIENT_NAME%', vars).text, '%COMP_ID%');
  });

  it('knows which values depend on the clock', () => {
    assert.equal(usesClock('sent %Timestamp%'), true);
    assert.equal(usesClock('%COMP_ID%'), false);
    assert.deepEqual(variableNames('%lei% %LEI% %comp_id%'), ['LEI', 'COMP_ID']);
  });
});

describe('group instances', () => {
  it('resolves each instance, dropping empty fields and instances without their delimiter', () => {
    const vars = clientVariables({ compId: 'BARE', targetCompId: 'FIXDESK', clientContact: 'Joe' }, now);
    const r = resolveGroupInstances(
      {
        countTag: 453,
        instances: [
          [
            { tag: 448, value: '%LEI%' },
            { tag: 447, value: 'D' },
            { tag: 452, value: '7' },
          ],
          [
            { tag: 448, value: '%CONTACT_NAME%' },
            { tag: 447, value: '%NOPE%' },
            { tag: 452, value: '11' },
            { tag: 802, value: '%CLIENT_NAME%' },
          ],
        ],
      },
      vars,
    );
    assert.deepEqual(r.entries, [
      [
        [448, 'Joe'],
        [447, '%NOPE%'],
        [452, '11'],
      ],
    ]);
    assert.deepEqual(r.unresolved, ['NOPE']);
    assert.deepEqual(r.empty, ['LEI', 'CLIENT_NAME']);
  });
});
