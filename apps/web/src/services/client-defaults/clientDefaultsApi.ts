import type {
  ClientConnector,
  ClientDefaultsPreview,
  ClientFieldDefault,
  ClientGroupDefaults,
  ClientVariableInfo,
  ComponentBlock,
  ComponentBlockField,
} from '@fixdesk/protocol';
import { loadReference } from '@fixdesk/client';
import { api } from '../api/http';

interface Answer<T> {
  success: boolean;
  data: T;
  message?: string;
}

const q = (execType: string | null) => (execType ? { execType } : undefined);

/** The FIX Client Defaults screen's calls (spec 001 §7 "Client FIX defaults"). */
export const clientDefaultsApi = {
  connectors: (signal?: AbortSignal) =>
    loadReference('clientConnectors', async () => (await api.get<Answer<ClientConnector[]>>('/api/client-connectors', { signal })).data),
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
  variables: async (signal?: AbortSignal) =>
    (await api.get<Answer<{ variables: ClientVariableInfo[] }>>('/api/fix-client-defaults/variables', { signal })).data.variables,
  defaults: async (clientId: number, msgType: string, execType: string | null, signal?: AbortSignal) =>
    (
      await api.get<Answer<ClientFieldDefault[]>>(`/api/fix-client-defaults/${clientId}/${encodeURIComponent(msgType)}`, {
        query: q(execType),
        signal,
      })
    ).data,
  groups: async (clientId: number, msgType: string, execType: string | null, signal?: AbortSignal) =>
    (
      await api.get<Answer<ClientGroupDefaults[]>>(`/api/fix-client-defaults/${clientId}/${encodeURIComponent(msgType)}/groups`, {
        query: q(execType),
        signal,
      })
    ).data,
  blocks: async (msgType: string, signal?: AbortSignal) =>
    (await api.get<Answer<ComponentBlock[]>>(`/api/component-blocks/by-message/${encodeURIComponent(msgType)}`, { signal })).data,
  blockFields: async (blockId: number, signal?: AbortSignal) =>
    (await api.get<Answer<ComponentBlockField[]>>(`/api/component-blocks/${blockId}/fields`, { signal })).data,
  preview: async (body: { client_connector_id: number; msg_type: string; exec_type: string | null }) =>
    (await api.post<Answer<ClientDefaultsPreview>>('/api/fix-client-defaults/preview', body)).data,
  create: (body: Record<string, unknown>) => api.post<Answer<ClientFieldDefault>>('/api/fix-client-defaults', body),
  update: (id: number, body: Record<string, unknown>) => api.put<Answer<ClientFieldDefault>>(`/api/fix-client-defaults/${id}`, body),
  remove: (id: number) => api.delete<Answer<unknown>>(`/api/fix-client-defaults/${id}`),
  saveGroup: (body: Record<string, unknown>) => api.post<Answer<{ group_instance_number: number }>>('/api/fix-client-defaults/group', body),
  removeGroup: (connectorId: number, msgType: string, blockId: number, instance: number, execType: string | null) =>
    api.delete<Answer<unknown>>(`/api/fix-client-defaults/group/${connectorId}/${encodeURIComponent(msgType)}/${blockId}/${instance}`, {
      query: q(execType),
    }),
};
