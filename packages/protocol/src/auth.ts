import { z } from 'zod';

/** Roles, most privileged first. `user` is the fallback for an account without a role (spec 000 §1). */
export const ROLES = ['admin', 'broker', 'viewer', 'user'] as const;
export type Role = (typeof ROLES)[number];
const RoleSchema = z.enum(ROLES);

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  broker: 'Broker',
  viewer: 'Viewer',
  user: 'User',
};

/** The roles that may take trading actions (accept, reject, fill, done for day, cancel): the server's `trade` access. */
export const TRADING_ROLES: readonly Role[] = ['admin', 'broker'];

/** A sign-in lasts 24 hours (spec 000 §9), on the server (token expiry) and in the browser (stored user). */
export const SESSION_TTL_MS = 86_400_000;

export const USERNAME_MAX = 64;
export const PASSWORD_MAX = 256;

export const LoginRequestSchema = z.strictObject({
  username: z.string().trim().min(1, 'Username is required').max(USERNAME_MAX),
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const SessionUserSchema = z.object({
  user_id: z.number().int(),
  username: z.string(),
  role: RoleSchema,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export interface LoginSuccess {
  success: true;
  user: SessionUser;
  token: string;
  /** ISO timestamp at which the token stops being accepted. */
  expiresAt: string;
  message: string;
}
export interface LoginFailure {
  success: false;
  message: string;
}
export type LoginResponse = LoginSuccess | LoginFailure;

export interface MeResponse {
  success: true;
  user: SessionUser;
  expiresAt: string;
}

/** Name of the HttpOnly cookie that carries the session token (the cookie policy lists it). */
export const AUTH_COOKIE = 'authToken';

/**
 * Why a change signed in by the session cookie alone was refused: it was not sent as JSON, so
 * it may come from a form or a plain request another page made in the user's name.
 */
export const COOKIE_CHANGE_NEEDS_JSON_MESSAGE =
  'A change signed in by the session cookie must be sent as JSON (Content-Type: application/json) or with an Authorization: Bearer token';
