import { Readable } from 'node:stream';
import { csvChunk, type CsvField } from '@fixdesk/client';
import type { FastifyReply } from 'fastify';

/**
 * Rows per database read of a streamed export (read one page ahead: never the whole range in memory).
 * A thousand rather than more: a page's garbage then dies young, and the server spends a quarter less
 * CPU per row than with pages of 5,000 (bench/audit-scale.ts).
 */
export const EXPORT_PAGE_ROWS = 1000;

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
  // The next page is asked for as soon as a page arrives, so the database reads it while this one is
  // written out (two pages in memory at most).
  const read = (beforeId: number | undefined) => {
    const page = file.page(beforeId, EXPORT_PAGE_ROWS);
    page.catch(() => undefined); // awaited below, unless the client went away meanwhile
    return page;
  };
  async function* chunks(): AsyncGenerator<string> {
    yield `\ufeff${csvChunk(file.fields, [], true)}`;
    let next = read(undefined);
    for (;;) {
      const rows = await next;
      if (!rows.length) return;
      const more = rows.length === EXPORT_PAGE_ROWS;
      if (more) next = read(rows.reduce((min, r) => Math.min(min, r.id), Number.MAX_SAFE_INTEGER));
      yield csvChunk(file.fields, rows);
      if (!more) return;
    }
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('x-export-rows', String(file.total))
    .send(Readable.from(chunks()));
}
