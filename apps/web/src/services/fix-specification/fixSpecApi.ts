import type { FixSpecChange, FixSpecDocument } from '@fixdesk/domain';
import { FIX_SPEC_VERSION_HEADER, type FixSpecVersion, type GenerateClientFixSpecRequest } from '@fixdesk/protocol';
import { api } from '../api/http';

/** The file name the server gives in Content-Disposition, else the fallback. */
function attachmentName(response: Response, fallback: string): string {
  const m = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return m?.[1] ?? fallback;
}

export interface DownloadedFile {
  fileName: string;
  blob: Blob;
}

/** The FIX specification calls over the app's one HTTP client. */
export const fixSpecApi = {
  async document(compId: string, brokerId: number | null, signal?: AbortSignal): Promise<FixSpecDocument> {
    const body = await api.get<{ data: FixSpecDocument }>('/api/fix-specification', {
      signal,
      query: { compId, brokerId: brokerId ?? undefined },
    });
    return body.data;
  },
  async generate(request: GenerateClientFixSpecRequest): Promise<DownloadedFile & { version: number | null }> {
    const r = await api.postForFile('/api/generate-client-fix-spec', request);
    const version = Number(r.headers.get(FIX_SPEC_VERSION_HEADER));
    return {
      fileName: attachmentName(r, `FIX_Specification_${request.senderCompId}.html`),
      blob: await r.blob(),
      version: Number.isFinite(version) && version > 0 ? version : null,
    };
  },
  async versions(compId: string, signal?: AbortSignal): Promise<FixSpecVersion[]> {
    return (await api.get<{ data: FixSpecVersion[] }>(`/api/client-connectors/${encodeURIComponent(compId)}/fix-spec-versions`, { signal }))
      .data;
  },
  async diff(compId: string, from: number, to: number, signal?: AbortSignal): Promise<FixSpecChange[]> {
    const body = await api.get<{ data: { changes: FixSpecChange[] } }>(
      `/api/client-connectors/${encodeURIComponent(compId)}/fix-spec-versions/diff`,
      { signal, query: { from, to } },
    );
    return body.data.changes;
  },
  async orchestra(compId: string): Promise<DownloadedFile> {
    const r = await api.stream(`/api/client-connectors/${encodeURIComponent(compId)}/fix-orchestra`);
    return { fileName: attachmentName(r, `FIX_Orchestra_${compId}.xml`), blob: await r.blob() };
  },
};

/** A uniform choice in [0, n) from the browser's cryptographic generator (rejection sampling, no modulo bias). */
export function cryptoRandomBelow(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0]! < limit) return buf[0]! % n;
  }
}
