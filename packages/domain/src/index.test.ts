import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as domain from './index';

describe('package entry', () => {
  it('exports every module through index', () => {
    const expected = [
      'OrdStatus', // codes
      'Decimal', // decimal
      'applyEvent', // order-state
      'checkFillQuantity', // fill-validation
      'validateNewOrderSingle', // order-intake
      'generateMultileg', // instruments
      'formatPrice', // format
      'buildNewOrderSingle', // fix-order-builder
    ];
    for (const name of expected) assert.ok(name in domain, name);
  });
});
