// node:test reporter (scripts/test.mjs): after the run, one line per failed test with its file and
// the first line of its error, so the end of a long CI log names what failed.
import { relative } from 'node:path';

export default async function* reporter(source) {
  const failed = [];
  for await (const ev of source) {
    if (ev.type !== 'test:fail') continue;
    const err = ev.data.details?.error;
    const cause = err?.cause ?? err;
    // A suite fails when a test inside it fails, and a failed hook cancels its tests: list the
    // tests that failed and the hooks, not the suites around them nor the tests they cancelled (a
    // test cancelled for another reason, say a promise left pending, is listed).
    if (err?.failureType === 'subtestsFailed') continue;
    if (err?.failureType === 'cancelledByParent' && /did not finish before its parent/.test(String(err?.cause ?? err?.message))) continue;
    const lines = String(cause?.message ?? cause ?? '').split('\n');
    // A browser test's timeout names what it waited for on a later line ("- waiting for getByRole(...)").
    const waitingFor = lines.find((l) => /^\s*- waiting for /.test(l))?.trim();
    const message = [lines[0], waitingFor].filter(Boolean).join(' ').slice(0, 400);
    const file = ev.data.file ? relative(process.cwd(), ev.data.file) : '?';
    // Where in the test file it failed: the first stack frame in that file.
    const at = ev.data.file && typeof cause?.stack === 'string' ? atLine(cause.stack, ev.data.file) : '';
    failed.push(`# FAILED ${file}${at} ${ev.data.name}: ${message}`);
  }
  if (failed.length) yield `# failing tests (${failed.length}):\n${failed.join('\n')}\n`;
}

/** ":line" of the first stack frame in `file`, or nothing. */
function atLine(stack, file) {
  const frame = stack.split('\n').find((l) => l.includes(file));
  const m = frame && /:(\d+):\d+\)?\s*$/.exec(frame);
  return m ? `:${m[1]}` : '';
}
