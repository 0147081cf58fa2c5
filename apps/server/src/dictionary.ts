import type { DictionaryData } from '@fixdesk/db';
import FIX44 from '@fixdesk/fix/fix44.json' with { type: 'json' };

/** The FIX 4.4 dictionary data generated from the QuickFIX XML and shipped with the engine. */
export function loadDictionaryData(): DictionaryData {
  return FIX44 as DictionaryData;
}
