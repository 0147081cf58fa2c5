import type { UserSummary, UsersListResponse } from '@fixdesk/protocol';
import { api } from '../api/http';

export async function fetchUsers(signal?: AbortSignal): Promise<UserSummary[]> {
  const body = await api.get<UsersListResponse>('/api/users', { signal });
  return body.users;
}
