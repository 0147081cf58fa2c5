// The authorization matrix, generated from the routes the server registered, so a route is
// covered the moment it exists. Each route declares who may call it next to its handler
// (`config: { access }`, apps/server/src/http/access.ts); this test checks
//  1. the declarations themselves against the desk's policy (writes need trade or admin; the
//     configuration resources are admin-only to change);
//  2. that every route refuses without a session (401) and for each role the declaration excludes
//     (403), and that those refused calls changed nothing in the database;
//  3. that every role the declaration admits gets past the check (no 401 or 403) and no 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '@fixdesk/db';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { Access, RouteAccess } from '../../apps/server/src/http/access';
import { startTestServer, type TestServer } from '../support/server';

type Caller = 'viewer' | 'broker' | 'admin';
const CALLERS: readonly Caller[] = ['viewer', 'broker', 'admin'];
/** Spec 001 §6, written out here rather than taken from the server, so a wrong rule there shows. */
const MAY_CALL: Record<Access, readonly Caller[]> = {
  public: ['viewer', 'broker', 'admin'],
  read: ['viewer', 'broker', 'admin'],
  trade: ['broker', 'admin'],
  admin: ['admin'],
};
const roleMayCall = (access: Access, who: Caller) => MAY_CALL[access].includes(who);
const SENDABLE = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Configuration resources: changing them is the administrator's alone (spec 001 §6). A route under
 * one of these prefixes that is not a GET must be declared admin.
 */
const ADMIN_WRITE_PREFIXES = [
  '/api/users',
  '/api/client-connectors',
  '/api/client-capabilities',
  '/api/client-sessions',
  '/api/broker-information',
  '/api/security-master',
  '/api/fix-message-specs',
  '/api/fix-client-defaults',
  '/api/component-blocks',
];

/**
 * Trading actions under a configuration prefix: brokers may make them (declared trade), each for a
 * reason. The kill switch stops a client's orders: a broker's call when a client's algorithm runs wild.
 */
const TRADING_UNDER_CONFIGURATION: Record<string, string> = {
  'POST /api/client-connectors/:comp_id/stop': 'the kill switch: a broker stops a client',
  'POST /api/client-connectors/:comp_id/resume': 'the kill switch: a broker resumes a stopped client',
};

/** Writes any signed-in user may make, each for a reason: signing in and out, and a user's own account. */
const OPEN_WRITES: Record<string, string> = {
  'POST /api/auth/login': 'signing in',
  'POST /api/auth/logout': 'signing out ends only the caller’s own session',
  'POST /api/account/password': 'a user changes their own password (the current one required)',
  'DELETE /api/account/sessions/:id': 'a user signs out one of their own sessions',
};

/** Public routes, each for a reason. */
const PUBLIC: Record<string, string> = {
  'GET /api/health': 'the load balancer’s health check',
  'GET /api/health/live': 'the liveness probe',
  'GET /api/auth/me': 'who is signed in, if anyone',
  'POST /api/auth/login': 'signing in',
  'POST /api/auth/logout': 'signing out',
};

/**
 * Routes that check the caller themselves instead of through the session check, with the roles they
 * admit: the Prometheus endpoint takes METRICS_TOKEN (a scraper has no session) or an admin's sign-in.
 */
const SELF_CHECKED: Record<string, readonly Caller[]> = {
  'GET /metrics': ['admin'],
};

/** Reads that only an administrator may make. */
const ADMIN_READS = ['/api/users', '/api/audit-access'];

/**
 * Reads of configuration every signed-in user makes, each for a reason (declared read; a change back to
 * admin shows here).
 */
const EVERY_ROLE_READS: Record<string, string> = {
  'GET /api/client-capabilities': 'a broker judges a client’s orders by its limits (docs/adr/0014)',
  'GET /api/client-capabilities/:id': 'one capability, as the list',
  'GET /api/client-connectors': 'the blotter and the simulators list the clients',
  'GET /api/insights/order-flow': 'Desk Insights: every signed-in role views the charts, read-only (issue 31)',
  'GET /api/insights/time-to-answer': 'Desk Insights, as the order flow',
  'GET /api/insights/clients': 'Desk Insights, as the order flow',
  'GET /api/insights/contracts': 'Desk Insights, as the order flow',
  'GET /api/insights/fix-sessions': 'Desk Insights, as the order flow',
};

/**
 * Tables a refused call must leave as they were. Left out: what changes by itself while the server
 * runs (sign-in sessions' last use, heartbeats, seals, the simulated clients' FIX sessions and
 * messages, the node's leases renewed) and what a refusal itself records (sign-in attempts).
 */
const VOLATILE_TABLES = new Set([
  'auth_sessions',
  'login_attempts',
  'service_heartbeats',
  'service_registry',
  'audit_seals',
  'client_sessions',
  'fix_session_state',
  'fix_messages',
  'leases',
  'app_meta',
  'schema_migrations',
]);

function key(r: RouteAccess): string {
  return `${r.method} ${r.url}`;
}

/** A concrete path for a route: parameters that name nothing that exists. */
function pathOf(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, '999999999').replace(/\*$/, 'anything');
}

async function fingerprint(db: Db): Promise<Map<string, string>> {
  const { rows: tables } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out = new Map<string, string>();
  for (const { table_name: name } of tables) {
    if (VOLATILE_TABLES.has(name)) continue;
    const { rows } = await db.query<{ h: string | null }>(`SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS h FROM "${name}" x`);
    out.set(name, rows[0]?.h ?? '');
  }
  return out;
}

for (const kind of TEST_DB_KINDS) {
  describe(`authorization matrix on ${kind}`, () => {
    let t: TestServer;
    let routes: readonly RouteAccess[];
    const tokens = new Map<Caller, string>();

    before(async () => {
      t = await startTestServer(kind);
      // Methods fetch cannot send (TRACE, CONNECT, …: registered by catch-all routes) are left out.
      routes = t.server.routes.filter((r) => SENDABLE.has(r.method));
      for (const who of CALLERS) tokens.set(who, await t.login(who));
    });
    after(async () => {
      await t?.stop();
    });

    const call = (r: RouteAccess, token: string | undefined) =>
      t.api(pathOf(r.url), {
        method: r.method,
        token,
        ...(r.method === 'GET' || r.method === 'HEAD' || r.method === 'OPTIONS' ? {} : { json: {} }),
      });

    it('finds the routes and every declaration follows the policy', () => {
      assert.ok(routes.length >= 50, `only ${routes.length} routes recorded`);
      const problems: string[] = [];
      for (const r of routes) {
        const k = key(r);
        if (r.method !== 'GET') {
          if (OPEN_WRITES[k]) continue;
          if (r.access === 'public' || r.access === 'read') problems.push(`${k} changes something but is declared ${r.access}`);
          if (TRADING_UNDER_CONFIGURATION[k]) {
            if (r.access !== 'trade') problems.push(`${k} is a trading action but is declared ${r.access}`);
            continue;
          }
          if (ADMIN_WRITE_PREFIXES.some((p) => r.url.startsWith(p)) && r.access !== 'admin')
            problems.push(`${k} changes configuration but is declared ${r.access}`);
        } else if (ADMIN_READS.some((p) => r.url === p || r.url.startsWith(`${p}/`)) && r.access !== 'admin') {
          problems.push(`${k} is an administrator's read but is declared ${r.access}`);
        } else if (EVERY_ROLE_READS[k] && r.access !== 'read') {
          problems.push(`${k} is every signed-in user's read but is declared ${r.access}`);
        }
        if (r.access === 'public' && !PUBLIC[k] && !SELF_CHECKED[k]) problems.push(`${k} is public`);
      }
      assert.deepEqual(problems, []);
      const registered = new Set(routes.map(key));
      assert.deepEqual(
        Object.keys(EVERY_ROLE_READS).filter((k) => !registered.has(k)),
        [],
        'reads listed here that no route is',
      );
    });

    it('refuses every route without a session and for every role its declaration excludes, changing nothing', async () => {
      const before = await fingerprint(t.database.db);
      const wrong: string[] = [];
      for (const r of routes) {
        const self = SELF_CHECKED[key(r)];
        if (self) {
          // Its own check: refused without a session or token, and for the roles it does not admit.
          const anonymous = await call(r, undefined);
          if (anonymous.status !== 401) wrong.push(`${key(r)} without a session: ${anonymous.status}`);
          for (const who of CALLERS.filter((c) => !self.includes(c))) {
            const res = await call(r, tokens.get(who));
            if (res.status !== 403) wrong.push(`${key(r)} as ${who}: ${res.status}`);
          }
          continue;
        }
        if (r.access === 'public') continue;
        const anonymous = await call(r, undefined);
        if (anonymous.status !== 401) wrong.push(`${key(r)} without a session: ${anonymous.status}`);
        for (const who of CALLERS) {
          if (roleMayCall(r.access, who)) continue;
          const res = await call(r, tokens.get(who));
          if (res.status !== 403) wrong.push(`${key(r)} as ${who}: ${res.status} (declared ${r.access})`);
        }
      }
      assert.deepEqual(wrong, []);
      const afterwards = await fingerprint(t.database.db);
      const changed = [...before.keys()].filter((name) => before.get(name) !== afterwards.get(name));
      assert.deepEqual(changed, [], 'refused calls changed these tables');
    });

    it('lets every role its declaration admits past the check, and none of those calls fails with a 5xx', async () => {
      const wrong: string[] = [];
      for (const r of routes) {
        for (const who of CALLERS) {
          if (!(SELF_CHECKED[key(r)]?.includes(who) ?? roleMayCall(r.access, who))) continue;
          const res = await call(r, tokens.get(who));
          await res.arrayBuffer();
          if (res.status === 401 || res.status === 403) wrong.push(`${key(r)} as ${who}: ${res.status} (declared ${r.access})`);
          if (res.status >= 500) wrong.push(`${key(r)} as ${who}: ${res.status}`);
          // A call that ends the caller's own session (signing out) is allowed to: sign in again.
          const me = await t.api('/api/auth/me', { token: tokens.get(who) });
          if (me.status === 401) tokens.set(who, await t.login(who));
        }
      }
      assert.deepEqual(wrong, []);
    });
  });
}
