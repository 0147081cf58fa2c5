import type { ClientResumeInput, ClientStopInput, ClientStopResult } from '@fixdesk/protocol';
import { api } from '../api/http';

/** What the kill switch's calls answer: what was done, and the server's sentence for the toast. */
export interface KillSwitchAnswer {
  success: boolean;
  data: ClientStopResult;
  message: string;
}

const path = (compId: string, what: 'stop' | 'resume') => `/api/client-connectors/${encodeURIComponent(compId)}/${what}`;

/** The kill switch per client: brokers and administrators; the server refuses anyone else (403). */
export const killSwitchApi = {
  stop: (compId: string, body: ClientStopInput) => api.post<KillSwitchAnswer>(path(compId, 'stop'), body),
  resume: (compId: string, body: ClientResumeInput) => api.post<KillSwitchAnswer>(path(compId, 'resume'), body),
};
