import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from '@fixdesk/domain';
import { trimDecimal } from './present';

describe('trimDecimal', () => {
  it('gives what Decimal gives, for database text and odd input alike', () => {
    const cases = [
      '0',
      '0.000',
      '-0.00',
      '27000',
      '27000.500',
      '27000.5',
      '-150.25',
      '-150.2500',
      '10.0',
      '007.50',
      '00',
      '-000.010',
      '1e3',
      '.5',
      '123456789012345678901234.5678900',
    ];
    for (let k = 0; k < 500; k++) {
      const int = String(Math.floor(Math.random() * 1e6));
      const frac =
        Math.random() < 0.5
          ? ''
          : `.${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}${'0'.repeat(Math.floor(Math.random() * 3))}`;
      cases.push(`${Math.random() < 0.3 ? '-' : ''}${int}${frac}`);
    }
    for (const c of cases) {
      let expected: string;
      try {
        expected = Decimal.from(c).stripTrailingZeros().toString();
      } catch {
        assert.throws(() => trimDecimal(c), c);
        continue;
      }
      assert.equal(trimDecimal(c), expected, c);
    }
  });
});
