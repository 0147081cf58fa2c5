import type { Broker, BrokerContact } from '@fixdesk/protocol';
import { api } from '../api/http';

interface Answer<T> {
  success: boolean;
  data: T;
  message?: string;
}

/** Broker information and contacts (spec 001 §7 "Broker information"). */
export const brokersApi = {
  list: async (signal?: AbortSignal) => (await api.get<Answer<Broker[]>>('/api/broker-information', { signal })).data,
  create: (body: Record<string, unknown>) => api.post<Answer<Broker>>('/api/broker-information', body),
  update: (id: number, body: Record<string, unknown>) => api.put<Answer<Broker>>(`/api/broker-information/${id}`, body),
  remove: (id: number) => api.delete<Answer<{ id: number }>>(`/api/broker-information/${id}`),
  contacts: async (id: number, signal?: AbortSignal) =>
    (await api.get<Answer<BrokerContact[]>>(`/api/broker-information/${id}/contacts`, { signal })).data,
  addContact: (id: number, body: Record<string, unknown>) =>
    api.post<Answer<BrokerContact>>(`/api/broker-information/${id}/contacts`, body),
  updateContact: (id: number, contactId: number, body: Record<string, unknown>) =>
    api.put<Answer<BrokerContact>>(`/api/broker-information/${id}/contacts/${contactId}`, body),
  removeContact: (id: number, contactId: number) =>
    api.delete<Answer<{ id: number }>>(`/api/broker-information/${id}/contacts/${contactId}`),
};
