import { ROLE_LABELS, TRADING_ROLES, type Role } from '@fixdesk/protocol';
import type { LiveStatus } from '@fixdesk/client';
import { useAuth } from '../auth/AuthProvider';
import { roleOf } from '../auth/roles';
import { live } from '../live/live';
import { useLiveSelect } from '../live/useLive';

/** Why a role may not trade, or null when it may. The server's 403 stays the authority. */
function roleTradeBlock(role: Role): string | null {
  if (TRADING_ROLES.includes(role)) return null;
  return `Your role (${ROLE_LABELS[role]}) is read-only: trading actions need the Broker or Administrator role.`;
}

/** Why nothing can be done while the live connection is down, or null when it is up (or not in use). */
export function offlineTradeBlock(status: LiveStatus): string | null {
  if (status === 'reconnecting' || status === 'refused') {
    return 'Offline: the desk has lost its connection to the server. Actions come back when it reconnects.';
  }
  return null;
}

/** Why the signed-in user's role may not trade (the simulators' sends and sessions), or null. */
export function useRoleTradeBlock(): string | null {
  const { user } = useAuth();
  return roleTradeBlock(roleOf(user));
}

/**
 * Why the signed-in user cannot take a trading action right now (role first, then the connection), or
 * null. Controls that trade are disabled with this as their tooltip.
 */
export function useTradeBlock(): string | null {
  const { user } = useAuth();
  const liveStatus = useLiveSelect((s) => s.status, live);
  return roleTradeBlock(roleOf(user)) ?? offlineTradeBlock(liveStatus);
}
