import {
  SessionUserSchema,
  type LoginRequest,
  type LoginResponse,
  type LoginSuccess,
  type MeResponse,
  type SessionUser,
} from '@fixdesk/protocol';
import { ApiError, serverMessage, type ApiClient } from '@fixdesk/client';

/** The texts a failed sign-in can show (spec 000 §8), besides the server's own message. */
export const LOGIN_ERROR_TEXT = {
  rejected: 'Authentication failed',
  rejectedWithStatus: (status: number) => `Authentication failed (${status})`,
  unexpected: 'An unexpected error occurred',
} as const;

/** Thrown by login(); `message` is what the Login Failed box shows. */
export class LoginFailedError extends Error {
  override readonly name = 'LoginFailedError';
  constructor(
    message: string,
    /** HTTP status when the server answered, else null (network failure, unreadable answer). */
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** Maps whatever the sign-in call threw to the text the user sees. */
export function loginErrorText(error: unknown): string {
  if (error instanceof LoginFailedError) return error.message;
  if (error instanceof ApiError) {
    return serverMessage(error.body) ?? LOGIN_ERROR_TEXT.rejectedWithStatus(error.status);
  }
  return LOGIN_ERROR_TEXT.unexpected;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export interface AuthApi {
  login(credentials: LoginRequest): Promise<LoginSuccess>;
  logout(): Promise<void>;
  /** The session behind the current token or cookie; null when the server says there is none. */
  me(): Promise<{ user: SessionUser; expiresAt: string } | null>;
}

export function createAuthApi(api: ApiClient): AuthApi {
  return {
    async login(credentials) {
      let body: LoginResponse;
      try {
        body = await api.post<LoginResponse>('/api/auth/login', credentials, { on401: 'report' });
      } catch (error) {
        throw new LoginFailedError(loginErrorText(error), error instanceof ApiError ? error.status : null);
      }
      if (!isRecord(body) || body.success !== true) {
        throw new LoginFailedError(serverMessage(body) ?? LOGIN_ERROR_TEXT.rejected, 200);
      }
      const user = SessionUserSchema.safeParse(body.user);
      if (!user.success || typeof body.token !== 'string') {
        throw new LoginFailedError(LOGIN_ERROR_TEXT.unexpected, 200);
      }
      return { ...body, user: user.data };
    },

    async logout() {
      await api.post('/api/auth/logout', undefined, { on401: 'report' });
    },

    async me() {
      try {
        const body = await api.get<MeResponse>('/api/auth/me', { on401: 'report' });
        const user = SessionUserSchema.safeParse(isRecord(body) ? body.user : undefined);
        if (!user.success) return null;
        return { user: user.data, expiresAt: body.expiresAt };
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
        throw error;
      }
    },
  };
}
