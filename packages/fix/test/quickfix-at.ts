// Plays QuickFIX's acceptance-test scenarios (`.def` files, QuickFIX's test/definitions/server) against
// a FIX acceptor over TCP, as QuickFIX's own runner does:
//
//   iCONNECT / i2,CONNECT         open connection 1 (or 2)
//   iDISCONNECT / i1,DISCONNECT   close it
//   I<msg> / I2,<msg>             send the bytes; a line starting with 8= gets BodyLength after
//                                 BeginString unless it has one, and CheckSum unless it has one
//   E<msg> / E1,<msg>             the next message must equal it field by field, in order: 9 is the
//                                 expected body's length, fields.fmt's fields (52, 60, 10, ...) match
//                                 by pattern, every other value exactly
//   eDISCONNECT / e2,DISCONNECT   the acceptor closes the connection with nothing more sent
//   <TIME>, <TIME+N>, <TIME-N>    the current UTC time plus or minus N seconds (YYYYMMDD-HH:MM:SS)
//
// Used by quickfix-at.test.ts (CI) and by `npm run fix:at` against any acceptor.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestClient } from './harness';

const SOH = '\x01';

export interface ScenarioOptions {
  readonly host: string;
  readonly port: number;
  /** The longest wait for an expected message or a disconnect (heartbeat scenarios wait ~2 intervals). */
  readonly expectTimeoutMs?: number;
  /** Every line sent and received, for a failure report. */
  readonly trace?: (line: string) => void;
}

type Step =
  | { kind: 'connect' | 'disconnect' | 'expectDisconnect'; conn: number; line: number }
  | { kind: 'send' | 'expect'; conn: number; text: string; line: number };

/** The patterns of `fields.fmt` ("52=\d{8}-..."), by tag. */
export function readFieldPatterns(path: string): Map<number, RegExp> {
  const patterns = new Map<number, RegExp>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) patterns.set(Number(line.slice(0, eq)), new RegExp(line.slice(eq + 1).trim()));
  }
  return patterns;
}

export function parseScenario(text: string): Step[] {
  const steps: Step[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (!line.trim() || line.startsWith('#')) return;
    const m = /^([iIeE])(?:(\d+),)?(.*)$/.exec(line);
    if (!m) throw new Error(`line ${i + 1}: unknown directive "${line}"`);
    const [, op, connText, rest] = m as unknown as [string, string, string | undefined, string];
    const conn = connText ? Number(connText) : 1;
    const where = i + 1;
    if (op === 'i' && rest === 'CONNECT') steps.push({ kind: 'connect', conn, line: where });
    else if (op === 'i' && rest === 'DISCONNECT') steps.push({ kind: 'disconnect', conn, line: where });
    else if (op === 'e' && rest === 'DISCONNECT') steps.push({ kind: 'expectDisconnect', conn, line: where });
    else if (op === 'I') steps.push({ kind: 'send', conn, text: rest, line: where });
    else if (op === 'E') steps.push({ kind: 'expect', conn, text: rest, line: where });
    else throw new Error(`line ${where}: unknown directive "${line}"`);
  });
  return steps;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function fixTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Replaces <TIME>, <TIME+N>, <TIME-N> with the current UTC time. */
export function expandTime(text: string, now = Date.now()): string {
  return text.replace(/<TIME(?:([+-])(\d+))?>/g, (_, sign: string | undefined, n: string | undefined) =>
    fixTime(now + (sign ? (sign === '-' ? -1 : 1) * Number(n) * 1000 : 0)),
  );
}

function checksum(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i) & 0xff;
  return pad(sum % 256, 3);
}

/**
 * The bytes an `I` line sends, as QuickFIX's runner makes them: BodyLength (of the body without any
 * CheckSum the line carries) after BeginString unless the line has one, CheckSum unless it has one.
 */
export function outboundBytes(text: string): string {
  if (!text.startsWith('8=')) return text;
  const firstSoh = text.indexOf(SOH);
  const head = text.slice(0, firstSoh + 1);
  let rest = text.slice(firstSoh + 1);
  const trailer = /\x0110=[^\x01]*\x01$/.exec(SOH + rest);
  let checksumField = '';
  if (trailer) {
    checksumField = trailer[0].slice(1);
    rest = rest.slice(0, rest.length - checksumField.length);
  }
  const length = /\x019=/.test(text) ? '' : `9=${Buffer.byteLength(rest, 'latin1')}${SOH}`;
  const message = head + length + rest;
  return message + (checksumField || `10=${checksum(message)}${SOH}`);
}

function fields(text: string): Array<[string, string]> {
  return text
    .split(SOH)
    .filter((p) => p.length > 0)
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
    });
}

/**
 * Compares a received message with an `E` line as QuickFIX's Comparator does: the same fields in the
 * same order; a field of fields.fmt matches its pattern (unanchored, as Ruby's `Regexp#===`), any other
 * value exactly. BodyLength is compared when the line gives one and CheckSum by pattern; where the line
 * gives neither, they are computed from the received bytes, which the framer has already checked.
 * Returns the difference, or undefined when the message matches.
 */
export function compareMessage(actual: string, expected: string, patterns: Map<number, RegExp>): string | undefined {
  const got = fields(actual);
  const want = fields(expected);
  if (!want.some(([t]) => t === '9')) want.splice(1, 0, ['9', got.find(([t]) => t === '9')?.[1] ?? '']);
  if (!want.some(([t]) => t === '10')) want.push(['10', '']);
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    const w = want[i];
    const g = got[i];
    if (!w || !g) return `field ${i + 1}: expected ${w ? w.join('=') : 'the end'}, received ${g ? g.join('=') : 'the end'}`;
    if (w[0] !== g[0]) return `field ${i + 1}: expected tag ${w[0]} (${w.join('=')}), received ${g.join('=')}`;
    const pattern = patterns.get(Number(w[0]));
    const ok = pattern ? pattern.test(g[1]) : w[1] === g[1];
    if (!ok) return `field ${i + 1}: expected ${w.join('=')}${pattern ? ` (pattern ${pattern.source})` : ''}, received ${g.join('=')}`;
  }
  return undefined;
}

const show = (raw: string) => raw.replaceAll(SOH, '|');

/** Plays one scenario; throws an Error naming the line and the difference when it fails. */
export async function playScenario(text: string, patterns: Map<number, RegExp>, options: ScenarioOptions): Promise<void> {
  const timeout = options.expectTimeoutMs ?? 20_000;
  const trace = options.trace ?? (() => {});
  const conns = new Map<number, TestClient>();
  const conn = (n: number, line: number) => {
    const c = conns.get(n);
    if (!c) throw new Error(`line ${line}: connection ${n} is not open`);
    return c;
  };
  try {
    for (const step of parseScenario(text)) {
      switch (step.kind) {
        case 'connect':
          conns.set(step.conn, await TestClient.open(options.port, options.host));
          trace(`${step.conn} connected`);
          break;
        case 'disconnect':
          conns.get(step.conn)?.close();
          conns.delete(step.conn);
          trace(`${step.conn} disconnected`);
          break;
        case 'send': {
          const bytes = outboundBytes(expandTime(step.text));
          trace(`${step.conn} > ${show(bytes)}`);
          conn(step.conn, step.line).send(bytes);
          break;
        }
        case 'expect': {
          const got = await conn(step.conn, step.line).next(timeout);
          const c = conns.get(step.conn)!;
          if (got === undefined)
            throw new Error(
              `line ${step.line}: expected ${show(step.text)}\n  but ${c.closed ? 'the connection was closed' : `nothing arrived in ${timeout} ms`}`,
            );
          trace(`${step.conn} < ${show(got)}`);
          const diff = compareMessage(got, step.text, patterns);
          if (diff) throw new Error(`line ${step.line}: ${diff}\n  expected ${show(step.text)}\n  received ${show(got)}`);
          break;
        }
        case 'expectDisconnect': {
          const c = conn(step.conn, step.line);
          const got = await c.next(timeout);
          if (got !== undefined) throw new Error(`line ${step.line}: expected a disconnect, received ${show(got)}`);
          if (!c.closed) throw new Error(`line ${step.line}: expected a disconnect, the connection is still open after ${timeout} ms`);
          trace(`${step.conn} closed by the acceptor`);
          conns.delete(step.conn);
          break;
        }
      }
    }
  } finally {
    for (const c of conns.values()) c.close();
  }
}

/** The scenario files of a QuickFIX acceptance-test folder (`server/fix44`), sorted by name. */
export function scenarioFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.def'))
    .sort()
    .map((f) => join(dir, f));
}
