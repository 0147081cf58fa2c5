import type { ConnectionOptions as TlsConnectOptions, TlsOptions } from 'node:tls';

/** PEM material for the acceptor. With `ca` set, clients must present a certificate signed by it (mutual TLS). */
export interface AcceptorTlsConfig {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  readonly ca?: string | Buffer | undefined;
  readonly minVersion?: 'TLSv1.2' | 'TLSv1.3';
  /**
   * With `ca`: true (the default) turns away a client without a certificate signed by it during the
   * handshake; false asks for one and lets the authenticator decide per counterparty (the peer's
   * certificate and whether it verified reach it as `LogonRequest.transport`).
   */
  readonly requireClientCert?: boolean;
}

/** What the acceptor learned about a connection's transport, for the authenticator. */
export interface TransportInfo {
  readonly tls: boolean;
  /** The client's certificate, when it presented one over TLS. */
  readonly peerCertificate?: PeerCertificate | undefined;
}

export interface PeerCertificate {
  /** The certificate chain verified against the acceptor's `ca`. */
  readonly authorized: boolean;
  readonly authorizationError?: string | undefined;
  /** SHA-256 fingerprint as node prints it (AA:BB:…). */
  readonly fingerprint256: string;
  readonly subjectCN: string | undefined;
}

export interface InitiatorTlsConfig {
  /** Trust anchors for the server certificate (omit to use the system store). */
  readonly ca?: string | Buffer | undefined;
  /** Client certificate and key for mutual TLS. */
  readonly cert?: string | Buffer | undefined;
  readonly key?: string | Buffer | undefined;
  /** Name checked against the server certificate; defaults to the host. */
  readonly servername?: string | undefined;
  readonly rejectUnauthorized?: boolean;
}

export function acceptorTlsOptions(config: AcceptorTlsConfig): TlsOptions {
  const mutual = config.ca !== undefined;
  return {
    cert: config.cert,
    key: config.key,
    minVersion: config.minVersion ?? 'TLSv1.2',
    ...(mutual ? { ca: config.ca, requestCert: true, rejectUnauthorized: config.requireClientCert ?? true } : {}),
  };
}

export function initiatorTlsOptions(host: string, port: number, config: InitiatorTlsConfig): TlsConnectOptions {
  return {
    host,
    port,
    servername: config.servername ?? (/^[\d.:]+$/.test(host) ? undefined : host),
    ca: config.ca,
    cert: config.cert,
    key: config.key,
    rejectUnauthorized: config.rejectUnauthorized ?? true,
    minVersion: 'TLSv1.2',
  };
}
