import { Readable } from 'node:stream';
import { csvChunk, type CsvField } from '@fixdesk/client';
import type { FastifyReply } from 'fastify';

/** Rows per database read of a streamed export: one page in memory at a time. */
export const EXPORT_PAGE_ROWS = 5000;

/**
 * Sends a CSV file streamed page by page, newest first, keyset by id (`page(beforeId)` reads the rows
 * below an id), never the whole range in memory. X-Export-Rows announces the total for the browser's
 * progress; a UTF-8 BOM lets spreadsheets read accents; cells are neutralised against formulas by the
 * writer (@fixdesk/client).
 */
export function sendCsvExport<T extends { id: number }>(
  reply: FastifyReply,
  file: { fileName: string; total: number; fields: readonly CsvField<T>[]; page: (beforeId: number | undefined, limit: number) => Promise<T[]> },
): FastifyReply {
  async function* chunks(): AsyncGenerator<string> {
    yield `\ufeff${csvChunk(file.fields, [], true)}`;
    let beforeId: number | undefined;
    for (;;) {
      const rows = await file.page(beforeId, EXPORT_PAGE_ROWS);
      if (!rows.length) return;
      yield csvChunk(file.fields, rows);
      if (rows.length < EXPORT_PAGE_ROWS) return;
      beforeId = rows.reduce((min, r) => Math.min(min, r.id), Number.MAX_SAFE_INTEGER);
    }
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('x-export-rows', String(file.total))
    .send(Readable.from(chunks()));
}
