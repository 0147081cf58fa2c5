#!/usr/bin/env node
// Every workspace declares the @fixdesk/* packages its sources import (part of npm run lint).
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

let problems = 0;
for (const ws of workspaces) {
  const dir = join(root, ws);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
  const used = new Set();
  for (const f of sources(dir)) {
    for (const m of readFileSync(f, 'utf8').matchAll(/from '(@fixdesk\/[a-z-]+)/g)) if (m[1] !== pkg.name) used.add(m[1]);
  }
  for (const u of used) {
    if (!declared.has(u)) {
      console.error(`${ws}/package.json: imports ${u} but does not declare it in dependencies`);
      problems++;
    }
  }
}
process.exit(problems ? 1 : 0);
