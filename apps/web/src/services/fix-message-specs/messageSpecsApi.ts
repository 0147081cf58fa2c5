import type { FixField, MessageSpec } from '@fixdesk/protocol';
import { loadReference } from '@fixdesk/client';
import { api } from '../api/http';

interface Answer<T> {
  success: boolean;
  data: T;
  message?: string;
}

/** The FIX Message Specifications screen's calls (spec 001 §7). */
export const messageSpecsApi = {
  list: async (signal?: AbortSignal) => (await api.get<Answer<MessageSpec[]>>('/api/fix-message-specs', { signal })).data,
  fields: (signal?: AbortSignal) =>
    loadReference('fixFields', async () => (await api.get<Answer<FixField[]>>('/api/fix-fields', { signal })).data),
  execTypes: (signal?: AbortSignal) =>
    loadReference(
      'fixEnums',
      async () =>
        (
          await api.get<Answer<Array<{ enum_value: string; description: string }>>>('/api/fix-enums', {
            query: { field_number: 150 },
            signal,
          })
        ).data,
    ),
  create: (body: Record<string, unknown>) => api.post<Answer<MessageSpec>>('/api/fix-message-specs', body),
  update: (id: number, body: Record<string, unknown>) => api.put<Answer<MessageSpec>>(`/api/fix-message-specs/${id}`, body),
  remove: (id: number) => api.delete<Answer<{ id: number }>>(`/api/fix-message-specs/${id}`),
};
