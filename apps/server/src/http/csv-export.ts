import { Readable } from 'node:stream';
import { csvChunk, type CsvField } from '@fixdesk/client';
import type { FastifyReply } from 'fastify';

/**
 * Rows per database read of a streamed export (read one page ahead: never the whole range in memory).
 * Five hundred: the page being written and the one being read are then small enough to die young.
 * With pages of 1,000 each young-generation collection promoted megabytes of rows still in use to the
 * old generation, which only a full collection empties, and a million-row export grew the process by
 * up to 200 MB; pages of 5,000 also cost a quarter more CPU per row (bench/audit-scale.ts).
 */
export const EXPORT_PAGE_ROWS = 500;

/**
 * Rows per piece of text written. A page as one string (100-200 kB) would be a large object to V8,
 * which, too, only a full collection frees; pieces of 250 rows (50-100 kB) are ordinary young objects.
 */
const CHUNK_ROWS = 250;

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
      for (let i = 0; i < rows.length; i += CHUNK_ROWS) yield csvChunk(file.fields, rows.slice(i, i + CHUNK_ROWS));
      if (!more) return;
    }
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('x-export-rows', String(file.total))
    .send(Readable.from(chunks()));
}
