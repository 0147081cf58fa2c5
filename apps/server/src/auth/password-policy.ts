import { PASSWORD_MAX, PASSWORD_MIN, UserText } from '@fixdesk/protocol';
import COMMON_PASSWORDS_TEXT from './common-passwords';

// The password policy a broker's security officer expects, checked on the server for every
// new password (an administrator's create or reset, a user's own change): at least PASSWORD_MIN
// characters, not containing the username, not one character repeated nor only spaces, and not a
// commonly used password. A common password with digits or punctuation added at its end
// ("qwertyuiop123!") is as quick to guess as the password itself.

let common: ReadonlySet<string> | undefined;
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(COMMON_PASSWORDS_TEXT.split('\n'));
  return common;
}

/** A username this long or longer may not appear anywhere in the password; a shorter one only not as all of it. */
const NAME_INSIDE_MIN = 3;

/** Why the password is refused (the reason of a 400 on the password field), or null when it passes. */
export function passwordProblem(password: string, username: string): string | null {
  if (password.length < PASSWORD_MIN) return UserText.passwordTooShort;
  if (password.length > PASSWORD_MAX) return `has at most ${PASSWORD_MAX} characters`;
  // Twelve spaces, "aaaaaaaaaaaa" and "jtan-password" must not pass.
  if (/^[\s\p{Z}\u200B\uFEFF]+$/u.test(password)) return UserText.passwordBlank;
  const lower = password.toLowerCase();
  if (new Set(lower).size === 1) return UserText.passwordRepeated;
  const name = username.trim().toLowerCase();
  if (name && (lower === name || lower.replace(/[\d\W_]+$/u, '') === name || (name.length >= NAME_INSIDE_MIN && lower.includes(name))))
    return UserText.passwordIsUsername;
  const list = commonPasswords();
  const stem = lower.replace(/[\d\W_]+$/u, '');
  if (list.has(lower) || (stem.length >= 4 && list.has(stem))) return UserText.passwordCommon;
  return null;
}
