import { ROLE_LABELS, type Role, type SessionUser } from '@fixdesk/protocol';

/** Role badge colours (spec 001 §6): red admin, green broker, blue viewer, grey user. */
export const ROLE_COLORS: Record<Role, string> = {
  admin: 'red',
  broker: 'green',
  viewer: 'blue',
  user: 'gray',
};

/** An account without a role is treated as the fallback role `user` (spec 000 §1). */
export function roleOf(user: Pick<SessionUser, 'role'> | null | undefined): Role {
  return user?.role ?? 'user';
}

export function roleLabel(role: Role): string {
  return ROLE_LABELS[role];
}

/** "Ada Lovelace", else the username: what the UI calls a person. */
export function displayName(user: Pick<SessionUser, 'first_name' | 'last_name' | 'username'>): string {
  const full = [user.first_name, user.last_name].filter((part) => part && part.trim() !== '').join(' ');
  return full || user.username;
}

export function initials(user: Pick<SessionUser, 'first_name' | 'last_name' | 'username'>): string {
  const first = user.first_name?.trim()?.[0];
  const last = user.last_name?.trim()?.[0];
  if (first && last) return (first + last).toUpperCase();
  return user.username.slice(0, 2).toUpperCase();
}
