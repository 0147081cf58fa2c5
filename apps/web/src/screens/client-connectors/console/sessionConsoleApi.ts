import type { SessionActionInput, SessionConsoleView } from '@fixdesk/protocol';
import { api } from '../../../services/api/http';

interface Answer<T> {
  success: boolean;
  data: T;
  message?: string;
}

/** The live session console's calls (admin only). */
export const sessionConsoleApi = {
  get: async (compId: string, signal?: AbortSignal) =>
    (await api.get<Answer<SessionConsoleView>>(`/api/client-connectors/${encodeURIComponent(compId)}/session`, { signal })).data,
  act: (compId: string, body: SessionActionInput) =>
    api.post<Answer<SessionConsoleView>>(`/api/client-connectors/${encodeURIComponent(compId)}/session/actions`, body),
};
