#!/usr/bin/env node
// Every workspace declares the @fixdesk/* packages its sources import, and declares and imports only
// those its layer allows (docs/ARCHITECTURE.md; part of npm run lint). Generated sources are read too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx)$/.test(name)) out.push(p);
  }
  return out;
}

// The workspace packages each one may depend on: imports flow downward only. eslint.config.js says the
// same per import; this checks the declarations, and reads every file whatever eslint ignores.
const MAY_DEPEND_ON = {
  '@fixdesk/protocol': [],
  '@fixdesk/fix-codes': [],
  '@fixdesk/domain': ['@fixdesk/fix-codes', '@fixdesk/protocol'],
  '@fixdesk/fix': ['@fixdesk/fix-codes'],
  '@fixdesk/db': ['@fixdesk/fix-codes', '@fixdesk/domain', '@fixdesk/fix', '@fixdesk/protocol'],
  '@fixdesk/client': ['@fixdesk/fix-codes', '@fixdesk/domain', '@fixdesk/protocol'],
  '@fixdesk/server': ['@fixdesk/fix-codes', '@fixdesk/domain', '@fixdesk/fix', '@fixdesk/db', '@fixdesk/protocol', '@fixdesk/client'],
  '@fixdesk/web': ['@fixdesk/fix-codes', '@fixdesk/domain', '@fixdesk/protocol', '@fixdesk/client'],
};
const IMPORT = /(?:from|import)\s*\(?\s*['"](@fixdesk\/[a-z-]+)/g;

let problems = 0;
for (const ws of workspaces) {
  const dir = join(root, ws);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
  const allowed = MAY_DEPEND_ON[pkg.name];
  if (!allowed) {
    console.error(`${ws}/package.json: ${pkg.name} has no entry in MAY_DEPEND_ON (scripts/check-workspace-deps.mjs)`);
    problems++;
    continue;
  }
  const used = new Map();
  for (const f of sources(dir)) {
    for (const m of readFileSync(f, 'utf8').matchAll(IMPORT))
      if (m[1] !== pkg.name && !used.has(m[1])) used.set(m[1], f.slice(root.length));
  }
  for (const [u, file] of used) {
    if (!declared.has(u)) {
      console.error(`${ws}/package.json: imports ${u} (${file}) but does not declare it in dependencies`);
      problems++;
    }
  }
  for (const d of declared) {
    if (d.startsWith('@fixdesk/') && !allowed.includes(d)) {
      console.error(`${ws}/package.json: ${pkg.name} may not depend on ${d} (imports flow downward only: docs/ARCHITECTURE.md)`);
      problems++;
    }
  }
}
process.exit(problems ? 1 : 0);
