// node:test reporter for TEST_TIMES=<file> (scripts/test.mjs): one line per top-level test: outcome, ms, file, name.
export default async function* reporter(source) {
  for await (const ev of source) {
    if ((ev.type === 'test:pass' || ev.type === 'test:fail') && ev.data.nesting === 0) {
      yield `${ev.type === 'test:pass' ? 'ok' : 'FAIL'}\t${Math.round(ev.data.details.duration_ms)}\t${ev.data.file ?? '?'}\t${ev.data.name}\n`;
    }
  }
}
