import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UserText } from '@fixdesk/protocol';
import { passwordProblem } from './password-policy';

test('a password needs at least 12 characters', () => {
  assert.equal(passwordProblem('Xk9#mq2!Lp4', 'jtan'), UserText.passwordTooShort);
  assert.equal(passwordProblem('Xk9#mq2!Lp4z', 'jtan'), null);
});

test('a password may not be the username, whatever its case or a digit suffix', () => {
  assert.equal(passwordProblem('Trader.Singapore', 'trader.singapore'), UserText.passwordIsUsername);
  assert.equal(passwordProblem('trader.singapore2024', 'Trader.Singapore'), UserText.passwordIsUsername);
});

test('a password on the common list, or one of them with digits or punctuation added, is refused', () => {
  assert.equal(passwordProblem('qwertyuiop12', 'jtan'), UserText.passwordCommon); // on the list as is
  assert.equal(passwordProblem('Password1234!', 'jtan'), UserText.passwordCommon); // "password" plus a suffix
  assert.equal(passwordProblem('BASEBALL2024!!', 'jtan'), UserText.passwordCommon);
  assert.equal(passwordProblem('correct horse battery staple', 'jtan'), null);
});
