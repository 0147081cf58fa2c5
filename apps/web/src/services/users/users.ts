import type { OrganisationChange, UserSummary, UsersListResponse } from '@fixdesk/protocol';
import { api } from '../api/http';

interface Answer<T> {
  success: boolean;
  message?: string;
  user?: T;
}

export async function fetchUsers(signal?: AbortSignal): Promise<UserSummary[]> {
  const body = await api.get<UsersListResponse>('/api/users', { signal });
  return body.users;
}

/** The users' calls (spec 001 §7 "Users"); answers carry the user, never a password. */
export const usersApi = {
  list: fetchUsers,
  create: (body: Record<string, unknown>) => api.post<Answer<UserSummary>>('/api/users', body),
  update: (id: number, body: Record<string, unknown>) =>
    api.put<Answer<UserSummary> & { sessionsEnded?: number }>(`/api/users/${id}`, body),
  remove: (id: number) => api.delete<{ success: boolean; message?: string; deactivated?: boolean }>(`/api/users/${id}`),
  changes: async (entity: 'users' | 'broker_information' | 'broker_contacts', signal?: AbortSignal) =>
    (await api.get<{ data: OrganisationChange[] }>('/api/users/changes', { query: { entity }, signal })).data,
};
