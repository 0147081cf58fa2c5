import type { ClientConnector, FixAcceptorInfo } from '@fixdesk/protocol';
import { TextInput } from '@mantine/core';
import type { FormValues } from '../../components/admin/formValues';

export type ConnectAddress = { host: string; port: number } | null;

/**
 * Where the client connects, as the server answers it (the session config's own numbers): the host typed
 * in the form, else the connector's or the desk's; the desk's port (its TLS port once the connector has
 * a certificate). Null until the desk's acceptor is known.
 */
export function connectAddress(values: FormValues, connector: ClientConnector | null, acceptor: FixAcceptorInfo | null): ConnectAddress {
  const typed = String(values['host'] ?? '').trim();
  if (connector)
    return {
      host: typed || (connector.host?.trim() ? (acceptor?.host ?? connector.address.host) : connector.address.host),
      port: connector.address.port,
    };
  return acceptor ? { host: typed || acceptor.host, port: acceptor.port } : null;
}

/** The Connection tab's port: the desk's, read-only (no connector has a port of its own). */
export function DeskPort({ address, acceptor, tls }: { address: ConnectAddress; acceptor: FixAcceptorInfo | null; tls: boolean }) {
  return (
    <TextInput
      label="Port"
      value={address ? String(address.port) : ''}
      placeholder="loading…"
      readOnly
      disabled
      className="fd-numeric"
      description={
        tls
          ? "The desk's TLS port (FIX_TLS_PORT): this connector has a certificate"
          : `The desk's FIX port (FIX_PORT), the same for every client${acceptor?.tls_port ? `; TLS on ${acceptor.tls_port} with a certificate` : ''}`
      }
    />
  );
}
