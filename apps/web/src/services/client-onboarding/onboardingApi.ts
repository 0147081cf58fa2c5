import type { ClientCapabilityRecord, ClientConnector, ClientSessionRecord, FixAcceptorInfo } from '@fixdesk/protocol';
import { api } from '../api/http';

interface Answer<T> {
  success: boolean;
  data: T;
  message?: string;
}

const q = (compId?: string) => (compId ? `?comp_id=${encodeURIComponent(compId)}` : '');
const path = (compId: string) => `/api/client-connectors/${encodeURIComponent(compId)}`;

/** The client connectors' calls (spec 001 §7). The list carries no secrets; `get` (admin) does. */
export const connectorsApi = {
  list: async (signal?: AbortSignal) => (await api.get<Answer<ClientConnector[]>>('/api/client-connectors', { signal })).data,
  get: async (compId: string, signal?: AbortSignal) => (await api.get<Answer<ClientConnector>>(path(compId), { signal })).data,
  create: (body: Record<string, unknown>) => api.post<Answer<ClientConnector>>('/api/client-connectors', body),
  update: (compId: string, body: Record<string, unknown>) => api.put<Answer<ClientConnector>>(path(compId), body),
  remove: (compId: string) => api.delete<Answer<unknown>>(path(compId)),
  /** The desk's FIX acceptor: the host and port every client connects to. */
  acceptor: async (signal?: AbortSignal) => (await api.get<Answer<FixAcceptorInfo>>('/api/fix-acceptor', { signal })).data,
};

/** The client capabilities' calls (spec 001 §7). */
export const capabilitiesApi = {
  list: async (compId?: string, signal?: AbortSignal) =>
    (await api.get<Answer<ClientCapabilityRecord[]>>(`/api/client-capabilities${q(compId)}`, { signal })).data,
  create: (body: Record<string, unknown>) => api.post<Answer<ClientCapabilityRecord>>('/api/client-capabilities', body),
  update: (id: number, body: Record<string, unknown>) => api.put<Answer<ClientCapabilityRecord>>(`/api/client-capabilities/${id}`, body),
  remove: (id: number) => api.delete<Answer<{ id: number }>>(`/api/client-capabilities/${id}`),
};

/** The client sessions' calls (spec 001 §7). */
export const sessionsApi = {
  list: async (compId?: string, signal?: AbortSignal) =>
    (await api.get<Answer<ClientSessionRecord[]>>(`/api/client-sessions${q(compId)}`, { signal })).data,
  create: (body: Record<string, unknown>) => api.post<Answer<ClientSessionRecord>>('/api/client-sessions', body),
  update: (id: number, body: Record<string, unknown>) => api.put<Answer<ClientSessionRecord>>(`/api/client-sessions/${id}`, body),
  remove: (id: number) => api.delete<Answer<{ id: number }>>(`/api/client-sessions/${id}`),
};
