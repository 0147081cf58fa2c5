import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactFix } from './redact-fix';

const fix = (...fields: string[]) => fields.join('\x01') + '\x01';

test('Password, NewPassword and RawData are masked, every other field kept', () => {
  assert.equal(
    redactFix(fix('8=FIX.4.4', '9=60', '35=A', '553=alice', '554=s3cret', '925=n3w', '95=6', '96=abcdef', '108=30', '10=123')),
    fix('8=FIX.4.4', '9=60', '35=A', '553=alice', '554=********', '925=********', '95=6', '96=******', '108=30', '10=123'),
  );
  // A tag that merely ends in 96 or 554 is not one of them.
  assert.equal(redactFix(fix('35=8', '1554=x', '196=y')), fix('35=8', '1554=x', '196=y'));
});

test('RawData is masked by the length in RawDataLength (95), an SOH inside it included', () => {
  // The key after the SOH must not show, nor be read as a field (554=, 58=).
  const raw = fix('8=FIX.4.4', '35=A', '95=27', '96=KEY-1\x01554=x\x0158=KEY-2-SECRET', '98=0', '10=001');
  const out = redactFix(raw);
  assert.equal(out, fix('8=FIX.4.4', '35=A', '95=27', `96=${'*'.repeat(27)}`, '98=0', '10=001'));
  for (const leak of ['KEY-1', 'KEY-2', 'SECRET', '554=']) assert.ok(!out.includes(leak), `${leak} in ${JSON.stringify(out)}`);
});

test('a RawData whose length does not fit is masked to the next SOH after it, or to the end', () => {
  // Shorter than the value: masked on to the next SOH (never less than the declared length).
  assert.equal(redactFix(fix('95=2', '96=abcdef', '10=1')), fix('95=2', '96=********', '10=1'));
  // Longer than the message: masked to the end.
  assert.equal(redactFix('95=900\x0196=abc\x0110=1\x01'), '95=900\x0196=********');
  // Without its length: up to the SOH, as before.
  assert.equal(redactFix(fix('96=abc', '10=1')), fix('96=********', '10=1'));
  // Text that is no field is kept, and what follows it still masked.
  assert.equal(redactFix('garbage\x01554=pw\x01'), 'garbage\x01554=********\x01');
});
