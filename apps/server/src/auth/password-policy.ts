import { PASSWORD_MAX, PASSWORD_MIN, UserText } from '@fixdesk/protocol';
import COMMON_PASSWORDS_TEXT from './common-passwords';

// The password policy a broker's security officer expects (issue 18), checked on the server for every
// new password (an administrator's create or reset, a user's own change): at least PASSWORD_MIN
// characters, not the username, and not a commonly used password. A common password with digits or
// punctuation added at its end ("qwertyuiop123!") is as quick to guess as the password itself.

let common: ReadonlySet<string> | undefined;
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(COMMON_PASSWORDS_TEXT.split('\n'));
  return common;
}

/** Why the password is refused (the reason of a 400 on the password field), or null when it passes. */
export function passwordProblem(password: string, username: string): string | null {
  if (password.length < PASSWORD_MIN) return UserText.passwordTooShort;
  if (password.length > PASSWORD_MAX) return `has at most ${PASSWORD_MAX} characters`;
  const lower = password.toLowerCase();
  const name = username.trim().toLowerCase();
  if (name && (lower === name || lower.replace(/[\d\W_]+$/u, '') === name)) return UserText.passwordIsUsername;
  const list = commonPasswords();
  const stem = lower.replace(/[\d\W_]+$/u, '');
  if (list.has(lower) || (stem.length >= 4 && list.has(stem))) return UserText.passwordCommon;
  return null;
}
