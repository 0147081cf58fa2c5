import type { ClientConnector, GenerateCertsInput, GenerateCertsResult, SessionConfig } from '@fixdesk/protocol';
import { api } from '../../../services/api/http';

interface Answer<T> {
  success: boolean;
  data: T;
  message?: string;
}

const path = (compId: string) => `/api/client-connectors/${encodeURIComponent(compId)}`;

/** The TLS/SSL tab's calls (spec 001 §7): the connector with its TLS material, certificates, session config. */
export const tlsApi = {
  connector: async (compId: string, signal?: AbortSignal) => (await api.get<Answer<ClientConnector>>(path(compId), { signal })).data,
  generate: (compId: string, body: GenerateCertsInput) => api.post<Answer<GenerateCertsResult>>(`${path(compId)}/generate-certs`, body),
  sessionConfig: async (compId: string, signal?: AbortSignal) =>
    (await api.get<Answer<SessionConfig>>(`${path(compId)}/session-config`, { signal })).data,
};
