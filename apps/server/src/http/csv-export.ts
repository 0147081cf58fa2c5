import { Readable } from 'node:stream';
import { csvChunk, type CsvField } from '@fixdesk/client';
import type { FastifyReply } from 'fastify';

/*
 * Memory: what an export holds must die young (in V8's young generation, emptied by every cheap
 * collection). Whatever outlives two young collections moves to the old generation, which only a full
 * collection empties: the process then grew by 100-200 MB over a million-row export, all of it
 * garbage (bench/audit-scale.ts). Three things keep it young:
 */

/**
 * Rows per database read (read one page ahead: never the whole range in memory). Five hundred: pages
 * of 1,000 lived long enough to be moved, and cost more CPU per row.
 */
export const EXPORT_PAGE_ROWS = 500;

/** Rows per piece of text written: 50-100 kB, an ordinary object (a page as one string is a large object, kept until a full collection). */
const CHUNK_ROWS = 250;

/** Pieces of text waiting for the socket: one (a stream's default of 16 held 4,000 rows of text long enough to be moved). */
const PIECES_AHEAD = 1;

/**
 * Sends a CSV file streamed page by page, newest first, keyset by id (`page(beforeId)` reads the rows
 * below an id), never the whole range in memory. X-Export-Rows announces the total for the browser's
 * progress; a UTF-8 BOM lets spreadsheets read accents; cells are neutralised against formulas by the
 * writer (@fixdesk/client).
 */
export function sendCsvExport<T extends { id: number }>(
  reply: FastifyReply,
  file: {
    fileName: string;
    total: number;
    fields: readonly CsvField<T>[];
    page: (beforeId: number | undefined, limit: number) => Promise<T[]>;
  },
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
    .send(Readable.from(chunks(), { highWaterMark: PIECES_AHEAD }));
}
