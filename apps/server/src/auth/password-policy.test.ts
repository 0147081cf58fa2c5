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

test('a password may not contain the username (of three characters or more)', () => {
  assert.equal(passwordProblem('my-JTAN-Evening-Tide', 'jtan'), UserText.passwordIsUsername);
  assert.equal(passwordProblem('Evening-Tide-jtan', ' JTan '), UserText.passwordIsUsername);
  assert.equal(passwordProblem('Evening-Tide-admin-2031', 'admin'), UserText.passwordIsUsername);
  // A one- or two-letter username is in too many words to forbid: only the whole password.
  assert.equal(passwordProblem('Evening-Tide-2031', 'ti'), null);
  assert.equal(passwordProblem('Evening-Tide-2031', 'tid'), UserText.passwordIsUsername);
});

test('a password may not be one character repeated, nor only spaces', () => {
  assert.equal(passwordProblem('aaaaaaaaaaaa', 'jtan'), UserText.passwordRepeated);
  assert.equal(passwordProblem('aAaAaAaAaAaA', 'jtan'), UserText.passwordRepeated);
  assert.equal(passwordProblem('############', 'jtan'), UserText.passwordRepeated);
  assert.equal(passwordProblem('\u{1F511}'.repeat(12), 'jtan'), UserText.passwordRepeated);
  assert.equal(passwordProblem(' '.repeat(12), 'jtan'), UserText.passwordBlank);
  assert.equal(passwordProblem(' \t \u00A0 \u3000      ', 'jtan'), UserText.passwordBlank);
  assert.equal(passwordProblem('aaaaaaaaaaab', 'jtan'), null);
  assert.equal(passwordProblem('   Evening Tide 2031   ', 'jtan'), null);
});

test('a password on the common list, or one of them with digits or punctuation added, is refused', () => {
  assert.equal(passwordProblem('qwertyuiop12', 'jtan'), UserText.passwordCommon); // on the list as is
  assert.equal(passwordProblem('Password1234!', 'jtan'), UserText.passwordCommon); // "password" plus a suffix
  assert.equal(passwordProblem('BASEBALL2024!!', 'jtan'), UserText.passwordCommon);
  assert.equal(passwordProblem('correct horse battery staple', 'jtan'), null);
});
