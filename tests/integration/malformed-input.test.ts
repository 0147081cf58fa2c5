// Malformed input over every route that takes a body, generated from the routes the server
// registered: wrong types in every field name the shared schemas know, 1 MB strings, deep nesting,
// NUL and control characters, numbers JSON cannot hold (1e309, NaN as text), invalid JSON, wrong
// content types, and hostile path parameters. Every answer must be a 4xx (or a 2xx where the input
// happens to be acceptable): never a 5xx, and the server is still healthy afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as protocol from '@fixdesk/protocol';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { z } from 'zod';
import type { RouteAccess } from '../../apps/server/src/http/access';
import { startTestServer, type TestServer } from '../support/server';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every field name of every object schema the protocol package exports (the fields the routes read). */
function protocolFieldNames(): string[] {
  const names = new Set<string>();
  for (const value of Object.values(protocol)) {
    if (value instanceof z.ZodObject) for (const name of Object.keys(value.shape)) names.add(name);
  }
  return [...names].sort();
}

const MB_STRING = 'x'.repeat(1024 * 1024);
/** The server's body limit (BODY_LIMIT_BYTES, apps/server/src/app.ts): a larger body is refused (413) unread. */
const BODY_LIMIT = 256 * 1024;
/**
 * A string as long as every field can hold at once in a body under the limit (some 850 characters for
 * some 240 fields), so that it reaches validation: longer than most fields allow. A 100 KB string in every
 * field, as this was, made a 24 MB body, refused for its length like the 1 MB strings below and never
 * validated, and the file spent a good part of its CPU copying and sending it for each route.
 */
const longString = (fields: readonly string[]) => 'y'.repeat(Math.floor((BODY_LIMIT * 0.8) / fields.length));
const LONG_STRINGS = 'every field a long string (as long as fits under the body limit)';
const CONTROL = 'a\u0000b\u0001c\u001b[31m\u007f\u202ed\uFFFF';

/** A value of each wrong kind, given to every known field at once. */
const WRONG_VALUES: ReadonlyArray<[string, unknown]> = [
  ['an object', { nested: { deeper: [1, 2, 3] } }],
  ['an array', [[], {}, null]],
  ['null', null],
  ['true', true],
  ['a negative number', -1],
  ['a huge number', 1e308],
  ['a fraction', 0.000000001],
  ['NaN as text', 'NaN'],
  ['Infinity as text', 'Infinity'],
  ['control characters', CONTROL],
  ['markup', '<script>alert(1)</script>'],
  ['a formula', '=HYPERLINK("http://x.example","y")'],
];

function deepNesting(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

interface Probe {
  readonly what: string;
  readonly body: string;
  readonly contentType?: string;
}

function probes(fields: readonly string[]): Probe[] {
  const json = (what: string, value: unknown): Probe => ({ what, body: JSON.stringify(value), contentType: 'application/json' });
  const list: Probe[] = WRONG_VALUES.map(([what, value]) => json(`every field ${what}`, Object.fromEntries(fields.map((f) => [f, value]))));
  const long = longString(fields);
  list.push(
    json(LONG_STRINGS, Object.fromEntries(fields.map((f) => [f, long]))),
    json('a JSON array', [1, 2]),
    json('a JSON string', 'text'),
    json('JSON null', null),
    json('a 1 MB string', { notes: MB_STRING, name: MB_STRING }),
    {
      what: 'a number beyond double (1e309)',
      body: `{"orderQty":1e309,"fillQty":1e309,"price":-1e309,"id":1e309}`,
      contentType: 'application/json',
    },
    { what: 'NaN literal', body: '{"fillQty":NaN}', contentType: 'application/json' },
    { what: 'invalid JSON', body: '{"a":', contentType: 'application/json' },
    { what: 'a NUL byte in the JSON text', body: '{"notes":"\u0000"}', contentType: 'application/json' },
    { what: 'a NUL in a key', body: '{"\\u0000":1}', contentType: 'application/json' },
    { what: '__proto__ keys', body: '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"x":1}}}', contentType: 'application/json' },
    { what: 'deep nesting (10,000 levels)', body: deepNesting(10_000), contentType: 'application/json' },
    { what: 'text/plain', body: 'hello', contentType: 'text/plain' },
    { what: 'a form', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { what: 'XML', body: '<a>1</a>', contentType: 'application/xml' },
    {
      what: 'multipart',
      body: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--',
      contentType: 'multipart/form-data; boundary=b',
    },
    { what: 'no content type', body: '{}' },
  );
  return list;
}

const HOSTILE_PARAMS = ['%00', '..%2F..%2Fetc%2Fpasswd', '%27%20OR%201%3D1--', '-1', '1e309', 'NaN', '%F0%9F%92%A5', 'x'.repeat(190)];

for (const kind of TEST_DB_KINDS) {
  describe(`malformed input on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    before(async () => {
      t = await startTestServer(kind);
      admin = await t.login('admin');
    });
    after(async () => {
      await t?.stop();
    });

    const send = (
      path: string,
      method: string,
      p: { readonly what: string; readonly contentType?: string; readonly body: string | Uint8Array<ArrayBuffer> } | undefined,
    ) => {
      const headers: Record<string, string> = {};
      if (p?.contentType) headers['content-type'] = p.contentType;
      return t.api(path, { method, token: admin, headers, body: p?.body });
    };

    it('answers every route that takes a body with no 5xx, whatever the body', async () => {
      const routes = t.server.routes.filter((r: RouteAccess) => WITH_BODY.has(r.method) && r.url !== '/api/auth/logout');
      assert.ok(routes.length >= 20, `only ${routes.length} routes take a body`);
      const fields = protocolFieldNames();
      assert.ok(fields.length > 50, `only ${fields.length} field names found in the protocol's schemas`);
      // The same bodies for every route, made once and encoded once: fetch measures and encodes a text
      // body at each request (this file was CPU-bound, most of it there and in making the list again per
      // route). The bytes on the wire are the same; a probe without a content type stays a text, which
      // fetch labels as it did.
      const encoder = new TextEncoder();
      const bodies = probes(fields).map((p) => ({
        ...p,
        body: p.contentType ? (encoder.encode(p.body) as Uint8Array<ArrayBuffer>) : p.body,
      }));
      const long = bodies.find((p) => p.what === LONG_STRINGS)!;
      assert.ok(long.body.length < BODY_LIMIT, `the long strings' body is ${long.body.length} bytes, over the body limit`);
      const failures: string[] = [];
      const seen = new Map<number, number>();
      for (const r of routes) {
        const path = r.url.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
        for (const p of bodies) {
          const res = await send(path, r.method, p);
          const text = await res.text();
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          if (res.status >= 500) failures.push(`${r.method} ${r.url} with ${p.what}: ${res.status} ${text.slice(0, 160)}`);
          // The long strings are under the body limit: they reach the route's checks.
          if (p === long && res.status === 413) failures.push(`${r.method} ${r.url} with ${p.what}: 413, refused for its length`);
        }
      }
      assert.deepEqual(failures, []);
      // The probes reached the checks they aim at: validation (400), the body limit (413), the content type (415).
      for (const status of [400, 413, 415]) assert.ok(seen.get(status), `no ${status} among ${JSON.stringify([...seen])}`);
    });

    it('answers hostile path parameters on every route with no 5xx', async () => {
      const failures: string[] = [];
      for (const r of t.server.routes.filter((x: RouteAccess) => x.url.includes(':') && x.method !== 'OPTIONS' && x.method !== 'TRACE')) {
        for (const param of HOSTILE_PARAMS) {
          const path = r.url.replace(/:[A-Za-z_]+/g, param);
          const res = await send(
            path,
            r.method,
            WITH_BODY.has(r.method) ? { what: '{}', body: '{}', contentType: 'application/json' } : undefined,
          );
          await res.arrayBuffer();
          if (res.status >= 500) failures.push(`${r.method} ${path}: ${res.status}`);
        }
      }
      assert.deepEqual(failures, []);
    });

    it('is still healthy afterwards: health, sign-in and the order list answer', async () => {
      const health = await t.api('/api/health');
      assert.equal(health.status, 200);
      assert.equal(((await health.json()) as { status: string }).status, 'ok');
      const token = await t.login('broker');
      const orders = await t.api('/api/orders', { token });
      assert.equal(orders.status, 200);
    });
  });
}
