import { loadConfig } from './config';
import { startServer } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const server = await startServer(config);
  const db = config.databaseUrl ? `PostgreSQL (${new URL(config.databaseUrl).host})` : `embedded PGlite in ${config.dataDir}`;
  const lines = [
    '',
    `  FixDesk is running at ${server.url}`,
    `  database: ${db}`,
    `  FIX acceptor: port ${server.ctx.fix.port} (clients connect with TargetCompID FIXDESK)`,
    '',
    '  Sign in as admin (administrator), broker (trading) or viewer (read only).',
  ];
  const generated = Object.entries(server.generatedPasswords);
  if (generated.length) {
    lines.push('  Passwords generated for this first start (shown once; set ADMIN_PASSWORD / DEMO_PASSWORD to choose them):');
    for (const [user, pw] of generated) lines.push(`    ${user.padEnd(7)} ${pw}`);
  } else {
    lines.push('  Passwords: ADMIN_PASSWORD for admin, DEMO_PASSWORD for broker and viewer (as set when the users were created).');
  }
  console.log(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.ctx.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err) => {
        server.ctx.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error('FixDesk failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
