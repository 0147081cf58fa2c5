import type { AccountProfile, AccountSession } from '@fixdesk/protocol';
import { api } from '../api/http';

/** The signed-in user's own account. */
export const accountApi = {
  profile: async (signal?: AbortSignal) => (await api.get<{ data: AccountProfile }>('/api/account', { signal })).data,
  sessions: async (signal?: AbortSignal) => (await api.get<{ data: AccountSession[] }>('/api/account/sessions', { signal })).data,
  endSession: (id: number) => api.delete<{ success: boolean; message: string; current: boolean }>(`/api/account/sessions/${id}`),
  changePassword: (body: { current_password: string; new_password: string }) =>
    api.post<{ success: boolean; message: string; sessionsEnded: number }>('/api/account/password', body),
};
