// npm run fix:conformance -- --port 9880
// The acceptor the public FIX session test cases run against; the logic lives in @fixdesk/fix.
import { runConformanceCli } from '@fixdesk/fix';

runConformanceCli(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(2);
});
