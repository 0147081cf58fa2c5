// BENCHMARKS.md holds one section per benchmark writer, each between its own markers:
//   <!-- bench:NAME:start -->  ...  <!-- bench:NAME:end -->
// A writer replaces only its section and leaves the rest of the file (other sections, any prose) as is.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, totalmem } from 'node:os';

const TITLE = '# Benchmarks\n\nWritten by `npm run bench`; each section is replaced by the script that owns it, the rest is kept.\n';

export function replaceSection(document: string, name: string, body: string): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`section name must be lowercase letters, digits and dashes: ${name}`);
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from >= 0 && to > from) return document.slice(0, from) + section + document.slice(to + end.length);
  if (from >= 0 || to >= 0) throw new Error(`BENCHMARKS.md has an unmatched marker for section "${name}"; fix the file by hand`);
  const base = document.trim() ? document.trimEnd() : TITLE.trimEnd();
  return `${base}\n\n${section}\n`;
}

/** Replaces (or appends) one section of the file, writing atomically. */
export function writeSection(path: string, name: string, body: string): void {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const next = replaceSection(current, name, body);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, next.endsWith('\n') ? next : next + '\n');
  renameSync(tmp, path);
}

/** The machine line every section starts with. */
export function machineDescription(): { cpu: string; cores: number; memoryGiB: number; node: string; os: string } {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown CPU',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${arch()}`,
  };
}
