// The package must stay pure: its sources import only each other (no node:, no npm packages, no other
// @fixdesk package except @fixdesk/protocol), and touch no process, network, timers or storage.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as domain from './index';

const dir = new URL('.', import.meta.url).pathname;
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('package boundaries', () => {
  it('has sources to check', () => assert.ok(sources.length >= 8));
  for (const file of sources) {
    it(`${file} imports only its siblings`, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
      for (const s of specifiers) assert.ok(s.startsWith('./') || s === '@fixdesk/protocol', `${file} imports ${s}`);
      assert.doesNotMatch(text, /\b(process\.|fetch\(|setTimeout|setInterval|localStorage|Math\.random|Date\.now\(|new Date\(\))/, `${file} reaches outside`);
    });
  }
  it('index exports every module', () => {
    for (const name of ['Decimal', 'applyEvent', 'checkFillQuantity', 'validateNewOrderSingle', 'generateMultileg', 'formatPrice', 'buildNewOrderSingle', 'OrdStatus']) {
      assert.ok(name in domain, name);
    }
  });
});
