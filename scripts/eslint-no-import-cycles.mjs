// ESLint rule `fixdesk/no-import-cycles`: a module may not import (directly or through other modules of
// the same package) a module that imports it back. Relative imports only, type-only ones included: a
// cycle of types is still two modules that cannot be read or moved apart. Each file's imports are read
// once per ESLint run with TypeScript's pre-processor (no type checking, no resolver), so the rule
// costs a few milliseconds for a whole package.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];
const importsOf = new Map(); // absolute file -> absolute files it imports (relative specifiers only)

function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => resolve(base, 'index' + e))];
  for (const c of candidates) if (EXTENSIONS.some((e) => c.endsWith(e)) && existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

function importedFiles(file, text) {
  let found = importsOf.get(file);
  if (found) return found;
  if (text === undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = '';
    }
  }
  const { importedFiles: specs } = ts.preProcessFile(text, true, true);
  found = [...new Set(specs.map((s) => resolveSpecifier(file, s.fileName)).filter((f) => f !== null))];
  importsOf.set(file, found);
  return found;
}

/** The shortest chain of imports from `start` back to `target`, or null. */
function pathBack(start, target) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const next of importedFiles(file)) {
      if (next === target) {
        const chain = [file];
        for (let p = previous.get(file); p !== null; p = previous.get(p)) chain.unshift(p);
        return chain;
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid import cycles between the modules of a package' },
    messages: { cycle: 'import cycle: {{chain}}. Move what both sides need into a module they both import.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    importedFiles(file, context.sourceCode.text);
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string') return;
      const target = resolveSpecifier(file, specifier);
      if (!target) return;
      const back = target === file ? [] : pathBack(target, file);
      if (!back) return;
      const chain = [file, ...back, file].map((f) => relative(root, f)).join(' → ');
      context.report({ node: node.source, messageId: 'cycle', data: { chain } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'no-import-cycles': rule } };
