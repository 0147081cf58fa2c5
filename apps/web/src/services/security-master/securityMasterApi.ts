import type { Security } from '@fixdesk/protocol';
import { api } from '../api/http';

interface Answer<T> {
  success: boolean;
  data: T;
  message?: string;
}

/** The security master's calls (spec 001 §7). */
export const securityMasterApi = {
  list: async (signal?: AbortSignal) => (await api.get<Answer<Security[]>>('/api/security-master', { signal })).data,
  create: (body: Record<string, unknown>) => api.post<Answer<Security>>('/api/security-master', body),
  update: (id: number, body: Record<string, unknown>) => api.put<Answer<Security>>(`/api/security-master/${id}`, body),
  remove: (id: number) => api.delete<Answer<{ id: number }>>(`/api/security-master/${id}`),
};
