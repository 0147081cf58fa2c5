import { readFile } from 'node:fs/promises';
import type { Download } from 'playwright-core';

/** A download's text, without the UTF-8 BOM our CSV files start with. */
export async function downloadText(download: Download): Promise<string> {
  const path = await download.path();
  const text = await readFile(path!, 'utf8');
  return text.replace(/^\ufeff/, '');
}
