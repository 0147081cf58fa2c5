import type { HealthResponse } from '@fixdesk/protocol';
import { api } from './http';

export function fetchHealth(signal?: AbortSignal): Promise<HealthResponse> {
  return api.get<HealthResponse>('/api/health', { signal, on401: 'report' });
}
