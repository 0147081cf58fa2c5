import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runScript } from './script-runner';

const dir = join(import.meta.dirname, 'definitions');

describe('FIX session scripts (socket level, conformance acceptor)', () => {
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.def'))
    .sort()) {
    it(file.replace(/\.def$/, ''), () => runScript(join(dir, file)));
  }
});
