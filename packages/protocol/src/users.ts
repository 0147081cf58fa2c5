import type { Role } from './auth';

/** Kinds of account (spec 001 §6). */
export const USER_TYPES = ['client', 'broker', 'admin', 'system'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const USER_TYPE_LABELS: Record<UserType, string> = {
  client: 'Client',
  broker: 'Broker/Trader',
  admin: 'Admin',
  system: 'System',
};

export const TRADER_ID_SOURCES = ['PROPRIETARY', 'LICENSE', 'REGULATORY', 'EXCHANGE'] as const;
export type TraderIdSource = (typeof TRADER_ID_SOURCES)[number];

/** One row of GET /api/users (admin only). Timestamps are ISO strings. */
export interface UserSummary {
  user_id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  whatsapp_number: string | null;
  role: Role;
  user_type: UserType;
  is_active: boolean;
  last_login: string | null;
  broker_branch_id: number | null;
  broker_company_name: string | null;
  trader_id: string | null;
  trader_license: string | null;
  trader_full_name: string | null;
  trader_party_id_source: TraderIdSource | null;
  created_at: string;
  updated_at: string;
}

export interface UsersListResponse {
  success: true;
  users: UserSummary[];
}
