#!/usr/bin/env node
// Part of `npm run lint`: the typecheck and eslint in one process, over the same TypeScript programs.
// The typecheck builds three programs (tsconfig.node.json for the Node side, packages/client's and
// apps/web's for the browser side) and checks every file of each, as `tsc -p` does; eslint's typed
// rules (no-floating-promises, no-misused-promises) then take their types from those very programs
// (parserOptions.programs; eslint.config.js finds them on globalThis), where on their own they built
// the programs again and type-checked the linted sources a second time.
// The typecheck's output is tsc's (file(line,col): error TSnnnn: ...), eslint's its stylish format (the
// output of `tsc -p` and of `eslint .`, which stay the commands to run either alone).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const { ESLint } = require('eslint');

/** The programs of the typecheck, by their tsconfig (relative to the root, as eslint.config.js names them). */
const PROJECTS = [
  { name: 'types (node)', tsconfig: './tsconfig.node.json' },
  { name: 'types (browser)', tsconfig: './packages/client/tsconfig.json' },
  { name: 'types (browser)', tsconfig: './apps/web/tsconfig.json' },
];

const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
let failed = false;
const programs = new Map();
globalThis[Symbol.for('fixdesk.typecheckedPrograms')] = programs;

for (const { name, tsconfig } of PROJECTS) {
  const started = process.cpuUsage();
  const configFile = join(root, tsconfig);
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.formatDiagnostics([d], formatHost));
    },
  });
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  // What `tsc -p` reports with noEmit: the config's and options' problems, syntax, then the types.
  const diagnostics = ts.getPreEmitDiagnostics(program);
  process.stdout.write(`${diagnostics.length ? 'FAILED' : 'ok'}: ${name}, tsc -p ${tsconfig} (${cpuSince(started)} s CPU)\n`);
  if (diagnostics.length) {
    process.stdout.write(ts.formatDiagnostics(diagnostics, formatHost));
    failed = true;
  }
  programs.set(tsconfig, program);
}

const started = process.cpuUsage();
const eslint = new ESLint({ cwd: root });
const results = await eslint.lintFiles(['.']);
const output = await (await eslint.loadFormatter('stylish')).format(results);
const errors = results.reduce((n, r) => n + r.errorCount, 0);
process.stdout.write(`${errors ? 'FAILED' : 'ok'}: eslint (${cpuSince(started)} s CPU)\n${output}`);
process.exit(failed || errors ? 1 : 0);

function cpuSince(started) {
  const { user, system } = process.cpuUsage(started);
  return ((user + system) / 1e6).toFixed(1);
}
