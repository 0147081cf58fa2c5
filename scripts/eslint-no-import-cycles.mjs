// ESLint rule `fixdesk/no-import-cycles`: a module may not import (directly or through other modules of
// the same package) a module that imports it back. Relative imports only, type-only ones included: a
// cycle of types is still two modules that cannot be read or moved apart. Each file's imports are read
// once per ESLint run with TypeScript's pre-processor (no type checking, no resolver) and the cycles
// found once (strongly connected components), so the rule costs a few milliseconds for a package.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];
const importsOf = new Map(); // absolute file -> absolute files it imports (relative specifiers only)
const resolved = new Map(); // directory + specifier -> file | null

function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  let file = resolved.get(base);
  if (file === undefined) resolved.set(base, (file = resolveFile(base)));
  return file;
}

function resolveFile(base) {
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

// Strongly connected components (Tarjan, iterative), computed once over every file reached: a file is
// on a cycle exactly when its component has another file in it.
const component = new Map(); // file -> its component (a Set of files)
let nextIndex = 0;
const indexOf = new Map();
const lowOf = new Map();

function computeComponents(root) {
  if (indexOf.has(root)) return;
  const stack = [];
  const onStack = new Set();
  const work = [[root, 0]];
  indexOf.set(root, nextIndex);
  lowOf.set(root, nextIndex++);
  stack.push(root);
  onStack.add(root);
  while (work.length) {
    const frame = work[work.length - 1];
    const [file, i] = frame;
    const next = importedFiles(file)[i];
    if (next !== undefined) {
      frame[1]++;
      if (!indexOf.has(next)) {
        indexOf.set(next, nextIndex);
        lowOf.set(next, nextIndex++);
        stack.push(next);
        onStack.add(next);
        work.push([next, 0]);
      } else if (onStack.has(next)) lowOf.set(file, Math.min(lowOf.get(file), indexOf.get(next)));
      continue;
    }
    work.pop();
    if (work.length) {
      const parent = work[work.length - 1][0];
      lowOf.set(parent, Math.min(lowOf.get(parent), lowOf.get(file)));
    }
    if (lowOf.get(file) === indexOf.get(file)) {
      const members = new Set();
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        members.add(member);
      } while (member !== file);
      for (const m of members) component.set(m, members);
    }
  }
}

/** The shortest chain of imports from `start` back to `target` (both in one component). */
function pathBack(start, target) {
  const within = component.get(target);
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
      if (within.has(next) && !previous.has(next)) {
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
    const own = importedFiles(file, context.sourceCode.text);
    if (!own.length) return {};
    computeComponents(file);
    const members = component.get(file);
    if (members.size === 1 && !own.includes(file)) return {}; // on no cycle: nothing to look at
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string') return;
      const target = resolveSpecifier(file, specifier);
      if (!target || !members.has(target)) return;
      const back = target === file ? [] : pathBack(target, file);
      if (!back) return;
      const chain = [file, ...back, file].map((f) => relative(root, f)).join(' → ');
      context.report({ node: node.source, messageId: 'cycle', data: { chain } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'no-import-cycles': rule } };
