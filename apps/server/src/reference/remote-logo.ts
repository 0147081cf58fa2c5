import { createHash } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request, type RequestOptions } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { LOGO_MAX_BYTES } from '@fixdesk/protocol';
import { sanitizeSvgLogo } from './svg-logo';

// A client connector's logo_url is fetched once, by the server, and the image is served from our own
// origin: no desk browser fetches an address an administrator typed. The fetch is the
// server's own request, so it is held to what a request from inside the broker's network must not be
// (server-side request forgery):
//  - https only, no user or password in the URL;
//  - the host's every address, after DNS resolution, must be a public one (no loopback, private,
//    link-local, carrier-grade NAT, multicast, documentation or reserved range, IPv4 in IPv6 of those
//    included), and the connection goes to the address that was checked (a second resolution could
//    answer otherwise: DNS rebinding);
//  - at most 3 redirects, each to an https URL checked the same way;
//  - one deadline for the whole fetch, a size cap read as the body arrives;
//  - the answer must be an image (PNG, JPEG, GIF, WebP, or SVG sanitised as the broker's logo is), of
//    the type its Content-Type names.

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  // ::/96 holds :: and ::1 and the old IPv4-compatible form; IPv4-mapped (::ffff:a.b.c.d) is checked as IPv4.
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is one a fetch may reach: not loopback, private, link-local or otherwise not public. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface LogoFetchOptions {
  /** Tests only: the certificate authority a local https server's certificate is trusted by. */
  readonly ca?: string;
  /** Tests only: an address the checks would refuse that may be reached (the local https server). */
  readonly allowAddress?: (address: string) => boolean;
  /** How host names are resolved (tests); node's resolver by default. */
  readonly resolve?: (host: string) => Promise<readonly { address: string; family: number }[]>;
  /** The whole fetch, redirects included. */
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
}

export type LogoFetchResult = { ok: true; contentType: string; image: Buffer; sha256: string } | { ok: false; reason: string };

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];
const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 5_000;

class Refused extends Error {}

/** The type the bytes are, by their signature; SVG by its text. */
function sniff(bytes: Buffer): ImageType | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  if (/<svg[\s>]/i.test(bytes.subarray(0, 4096).toString('utf8'))) return 'image/svg+xml';
  return null;
}

/** The image as it will be stored and served, or why it is refused. */
export function checkLogoImage(bytes: Buffer, declared: string): LogoFetchResult {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  if (!(IMAGE_TYPES as readonly string[]).includes(type)) {
    return { ok: false, reason: `is not an image the desk shows (Content-Type ${type || 'missing'}; PNG, JPEG, GIF, WebP or SVG)` };
  }
  const actual = sniff(bytes);
  if (actual !== type) return { ok: false, reason: `does not hold the ${type} its Content-Type says${actual ? ` (it is ${actual})` : ''}` };
  let image = bytes;
  if (type === 'image/svg+xml') {
    const clean = sanitizeSvgLogo(bytes.toString('utf8'));
    if (!clean.ok) return { ok: false, reason: `is an SVG image the desk refuses: ${clean.reason}` };
    image = Buffer.from(clean.svg, 'utf8');
  }
  return { ok: true, contentType: type, image, sha256: createHash('sha256').update(image).digest('hex') };
}

function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Refused('is not a URL');
  }
  if (url.protocol !== 'https:') throw new Refused(`must be an https URL (not ${url.protocol.replace(':', '')})`);
  if (url.username || url.password) throw new Refused('must not carry a user name or password');
  return url;
}

/**
 * Fetches a logo under the rules above. Never throws: a refusal or a failure is a reason worded to
 * follow the field's name ("logo_url … is not an image …").
 */
export async function fetchRemoteLogo(raw: string, options: LogoFetchOptions = {}): Promise<LogoFetchResult> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxBytes = options.maxBytes ?? LOGO_MAX_BYTES;
  try {
    let url = checkUrl(raw);
    for (let hop = 0; ; hop++) {
      const answer = await get(url, options, deadline, maxBytes);
      if ('location' in answer) {
        if (hop >= MAX_REDIRECTS) throw new Refused(`was redirected more than ${MAX_REDIRECTS} times`);
        url = checkUrl(new URL(answer.location, url).toString());
        continue;
      }
      return checkLogoImage(answer.body, answer.contentType);
    }
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    return { ok: false, reason: `could not be fetched (${(err as Error).message})` };
  }
}

function allowed(address: string, options: LogoFetchOptions): boolean {
  return isPublicAddress(address) || Boolean(options.allowAddress?.(address));
}

/** One request: the body of a 200 (up to maxBytes), or where a redirect points. */
function get(
  url: URL,
  options: LogoFetchOptions,
  deadline: number,
  maxBytes: number,
): Promise<{ body: Buffer; contentType: string } | { location: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !allowed(host, options))
    return Promise.reject(new Refused(`names ${host}, an address that is not public (private, loopback, link-local or reserved)`));
  const resolve = options.resolve ?? ((h: string) => dnsLookup(h, { all: true, verbatim: true }));
  // Every address the name resolves to is checked, and the connection is made to the one checked.
  const lookup: LookupFunction = (hostname, opts, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const bad = addresses.find((a) => !allowed(a.address, options));
        if (addresses.length === 0) return callback(new Refused(`names ${hostname}, which resolves to no address`), '', 0);
        if (bad)
          return callback(
            new Refused(
              `names ${hostname}, which resolves to ${bad.address}, an address that is not public (private, loopback, link-local or reserved)`,
            ),
            '',
            0,
          );
        if ((opts as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: readonly { address: string; family: number }[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) =>
        callback(
          Object.assign(
            new Refused(`names ${hostname}, which could not be resolved (${(err as NodeJS.ErrnoException).code ?? err.message})`),
          ),
          '',
          0,
        ),
    );
  };
  const left = deadline - Date.now();
  if (left <= 0) return Promise.reject(new Refused('timed out'));
  return new Promise((resolvePromise, reject) => {
    const opts: RequestOptions = {
      method: 'GET',
      lookup,
      headers: { accept: IMAGE_TYPES.join(', '), 'user-agent': 'FixDesk logo fetch' },
      ...(options.ca ? { ca: options.ca } : {}),
      agent: false,
    };
    const req = request(url, opts, (res) => {
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status)) {
        res.resume();
        const location = res.headers.location;
        return location ? resolvePromise({ location }) : reject(new Refused(`answered ${status} without a Location`));
      }
      if (status !== 200) {
        res.resume();
        return reject(new Refused(`answered HTTP ${status}, not an image`));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        return reject(new Refused(`is larger than ${Math.round(maxBytes / 1000)} KB (${declared} bytes)`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          req.destroy(new Refused(`is larger than ${Math.round(maxBytes / 1000)} KB`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolvePromise({ body: Buffer.concat(chunks), contentType: String(res.headers['content-type'] ?? '') }));
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Refused(`did not answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)), left);
    req.on('error', (err) => reject(err));
    req.on('close', () => clearTimeout(timer));
    req.end();
  });
}
