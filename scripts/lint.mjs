#!/usr/bin/env node
// `npm run lint`: the static checks, two at a time (the machines this runs on have two cores and each
// check is one single-threaded process): the types and eslint, Prettier and the workspace dependency
// rules. The types and eslint are one process (scripts/typecheck-and-eslint.mjs), so that eslint's typed
// rules read the programs the typecheck built and checked instead of building and checking them again:
// the types of the Node side (every package, the server, the tests and the tools: one program,
// tsconfig.node.json, so each file is checked once) and of the browser side (packages/client and
// apps/web, with the DOM). Each check's output is printed whole when it ends; the run fails if any
// failed.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => `${root}node_modules/.bin/${name}`;

/** Longest first, so the two slots finish close together. */
const CHECKS = [
  { name: 'types and eslint', cmd: [process.execPath, 'scripts/typecheck-and-eslint.mjs'] },
  { name: 'formatting', cmd: [bin('prettier'), '--check', '--log-level', 'warn', '**/*.{ts,tsx,js,mjs,cjs,css}'] },
  { name: 'workspace dependencies', cmd: [process.execPath, 'scripts/check-workspace-deps.mjs'] },
];

function run({ name, cmd }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) => (out += `${err.message}\n`));
    child.on('close', (code) => {
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${name} (${secs} s)\n${out}`);
      resolve(code === 0);
    });
  });
}

const queue = [...CHECKS];
const results = [];
await Promise.all(
  [0, 1].map(async () => {
    for (let c = queue.shift(); c; c = queue.shift()) results.push(await run(c));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
