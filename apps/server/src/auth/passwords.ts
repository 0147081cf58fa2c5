import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

// argon2id in WebAssembly: no native addon to build or to crash on a machine its prebuilt binary
// does not suit (docs/adr/0004). OWASP's baseline: 19 MiB, 2 passes, 1 lane; a standard PHC string.
const PARAMS = { iterations: 2, memorySize: 19_456, parallelism: 1, hashLength: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2id({ ...PARAMS, password, salt: randomBytes(16), outputType: 'encoded' });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}

// A hash of a random password, checked when the username does not exist so that a missing user and
// a wrong password take the same time.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/** A readable random password without look-alike characters (printed once at first start). */
export function generatePassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}
