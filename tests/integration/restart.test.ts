import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createTestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { startServer } from '../../apps/server/src/server';
import { signIn, testConfig } from '../support/server';

const silent = pino({ level: 'silent' });

describe('a restart keeps every user and sign-in session', () => {
  it('on embedded PGlite in DATA_DIR', async () => {
    const config = testConfig();
    try {
      const first = await startServer(config, { logger: silent, testClient: { ports: 'off' } });
      const token = await signIn(first.url, 'admin');
      await first.close();

      // Second start: the seed must not run again and must not print passwords again.
      const second = await startServer(
        { ...config, adminPassword: undefined, demoPassword: undefined },
        { logger: silent, testClient: { ports: 'off' } },
      );
      try {
        assert.deepEqual(second.generatedPasswords, {});
        const me = await fetch(`${second.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(me.status, 200);
        const users = await second.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
        assert.equal(users.rows[0]!.n, 3);
        const fields = await second.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM fix_fields');
        assert.ok(fields.rows[0]!.n > 900);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL through DATABASE_URL', async () => {
    const database = await createTestDatabase('postgres', { migrate: false });
    const config = testConfig({ databaseUrl: database.url });
    try {
      const first = await startServer(config, { logger: silent, testClient: { ports: 'off' } });
      const health = (await (await fetch(`${first.url}/api/health`)).json()) as { database: string };
      assert.equal(health.database, 'postgres');
      const token = await signIn(first.url, 'admin');
      await first.close();
      const second = await startServer(config, { logger: silent, testClient: { ports: 'off' } });
      try {
        const me = await fetch(`${second.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(me.status, 200);
      } finally {
        await second.close();
      }
    } finally {
      await database.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });

  it('generates and reports passwords on first start when none are configured', async () => {
    const config = testConfig({ adminPassword: undefined, demoPassword: undefined });
    try {
      const s = await startServer(config, { logger: silent, testClient: { ports: 'off' } });
      try {
        assert.deepEqual(Object.keys(s.generatedPasswords).sort(), ['admin', 'broker', 'viewer']);
        assert.notEqual(s.generatedPasswords.broker, s.generatedPasswords.viewer, 'a viewer must not know the trading password');
        const r = await fetch(`${s.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: s.generatedPasswords.admin }),
        });
        assert.equal(r.status, 200);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
