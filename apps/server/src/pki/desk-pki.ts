import { generateKeyPair, randomBytes, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import { getPki, insertPkiOnce, replacePki, type Db, type PkiRow } from '@fixdesk/db';
import forge from 'node-forge';

// The desk's own certificate authority: created once and kept in the database, it signs the
// FIX acceptor's server certificate and a client certificate per connector. Keys are made by node's
// crypto (RSA 2048); node-forge builds and signs the X.509 certificates (SHA-256). The CA's private key
// is read only here, never sent anywhere.

const generateKeyPairAsync = promisify(generateKeyPair);

const CA_YEARS = 10;
const SERVER_DAYS = 825;
const CLIENT_CERT_DAYS = 365;
/** A server certificate this close to its end is renewed at the next start. */
const RENEW_BEFORE_MS = 30 * 86_400_000;

export interface SubjectInput {
  commonName: string;
  organization?: string | undefined;
  country: string;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  caPem: string;
  fingerprint256: string;
  expiresAt: Date;
}

interface KeyPair {
  publicKey: forge.pki.rsa.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
  privateKeyPem: string;
}

async function newKeyPair(): Promise<KeyPair> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
    privateKeyPem: privateKey,
  };
}

/** A positive random serial number (the first byte's top bit clear), as X.509 wants. */
function serial(): string {
  const b = randomBytes(16);
  b[0] = b[0]! & 0x7f;
  return b.toString('hex');
}

function subjectAttributes(s: SubjectInput): forge.pki.CertificateField[] {
  const attrs: forge.pki.CertificateField[] = [{ shortName: 'CN', value: s.commonName }];
  if (s.organization) attrs.push({ shortName: 'O', value: s.organization });
  attrs.push({ shortName: 'C', value: s.country });
  return attrs;
}

export function fingerprintOf(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

function validity(cert: forge.pki.Certificate, days: number): Date {
  const now = Date.now();
  // A minute back, so a peer whose clock is a little behind accepts it at once.
  cert.validity.notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + days * 86_400_000);
  // X.509 keeps whole seconds: the stored expiry is what the certificate says.
  notAfter.setMilliseconds(0);
  cert.validity.notAfter = notAfter;
  return notAfter;
}

async function createCa(): Promise<Omit<PkiRow, 'created_at'>> {
  const keys = await newKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  const expiresAt = validity(cert, CA_YEARS * 365);
  const subject = subjectAttributes({ commonName: 'FixDesk Desk CA', organization: 'FixDesk', country: 'US' });
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  return { kind: 'ca', cert_pem: certPem, key_pem: keys.privateKeyPem, fingerprint: fingerprintOf(certPem), expires_at: expiresAt };
}

async function issue(
  ca: PkiRow,
  subject: SubjectInput,
  days: number,
  use: { server: readonly string[] } | { client: true },
): Promise<IssuedCertificate> {
  const caCert = forge.pki.certificateFromPem(ca.cert_pem);
  const caKey = forge.pki.privateKeyFromPem(ca.key_pem);
  const keys = await newKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  const expiresAt = validity(cert, days);
  cert.setSubject(subjectAttributes(subject));
  cert.setIssuer(caCert.subject.attributes);
  const extensions: object[] = [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    'server' in use ? { name: 'extKeyUsage', serverAuth: true } : { name: 'extKeyUsage', clientAuth: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ];
  if ('server' in use) {
    extensions.push({
      name: 'subjectAltName',
      altNames: use.server.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
    });
  }
  cert.setExtensions(extensions);
  cert.sign(caKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  return { certPem, keyPem: keys.privateKeyPem, caPem: ca.cert_pem, fingerprint256: fingerprintOf(certPem), expiresAt };
}

/** The desk's CA, created on first use (two nodes racing keep the first one stored). */
async function ensureDeskCa(db: Db): Promise<PkiRow> {
  return (await getPki(db, 'ca')) ?? insertPkiOnce(db, await createCa());
}

/** Whether a server certificate names every one of `names` (DNS or IP subject alternative names). */
function coversNames(certPem: string, names: readonly string[]): boolean {
  const san = new X509Certificate(certPem).subjectAltName ?? '';
  const entries = new Set(san.split(',').map((e) => e.trim().replace(/^(DNS|IP Address):/, '')));
  return names.every((n) => entries.has(n));
}

/**
 * The FIX acceptor's server certificate, signed by the desk CA for `names` (the host names and
 * addresses clients connect to); issued on first use and again when it nears its end or lacks a name.
 */
export async function ensureServerCertificate(db: Db, names: readonly string[]): Promise<{ server: PkiRow; ca: PkiRow }> {
  const ca = await ensureDeskCa(db);
  const existing = await getPki(db, 'server');
  if (existing && existing.expires_at.getTime() - Date.now() > RENEW_BEFORE_MS && coversNames(existing.cert_pem, names))
    return { server: existing, ca };
  const issued = await issue(ca, { commonName: names[0] ?? 'localhost', organization: 'FixDesk', country: 'US' }, SERVER_DAYS, {
    server: names,
  });
  const row = {
    kind: 'server' as const,
    cert_pem: issued.certPem,
    key_pem: issued.keyPem,
    fingerprint: issued.fingerprint256,
    expires_at: issued.expiresAt,
  };
  await replacePki(db, row);
  return { server: (await getPki(db, 'server'))!, ca };
}

/** A client certificate and key for a connector, signed by the desk CA. */
export async function issueClientCertificate(db: Db, subject: SubjectInput): Promise<IssuedCertificate> {
  const ca = await ensureDeskCa(db);
  return issue(ca, subject, CLIENT_CERT_DAYS, { client: true });
}
