import {
  CERT_COUNTRY_DEFAULT,
  GenerateCertsSchema,
  TLS_NO_PORT_TEXT,
  tlsFileNames,
  type ClientConnector,
  type SessionConfig,
} from '@fixdesk/protocol';
import { Alert, Badge, Button, Code, Group, Loader, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconDownload, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { adminErrorText } from '../../../components/admin/errors';
import { downloadFile } from '../../../components/export/csv';
import { formatLocalSeconds, userTimeZone } from '../../../components/time/localTime';
import { tlsApi } from './tlsApi';

/** Spec 001 §7: certificate and session-config generation need a saved component ID. */
export const SAVE_FIRST_CERTS = 'Please save the connector first before generating certificates';
export const SAVE_FIRST_SESSION_CONFIG = 'Please save the connector first before generating session config';
/** Spec 001 §8. */
export const SESSION_CONFIG_FAILED = 'Session config generation failed';

const PEM_TYPE = 'application/x-pem-file';

function PemBlock({ label, pem, fileName }: { label: string; pem: string; fileName: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text fz="sm" fw={600}>
          {label}
        </Text>
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconDownload size={14} />}
          onClick={() => downloadFile(fileName, [pem], PEM_TYPE)}
        >
          {fileName}
        </Button>
      </Group>
      <Textarea
        value={pem}
        readOnly
        autosize
        minRows={4}
        maxRows={8}
        styles={{ input: { fontFamily: 'monospace', fontSize: 11 } }}
        aria-label={label}
      />
    </Stack>
  );
}

/**
 * The connector dialog's TLS/SSL tab: the certificate's status and expiry, the form that
 * issues a client certificate signed by the desk CA, the CA and client certificate to download, the
 * private key once, just after it was generated (the desk keeps no copy), and the session
 * configuration the client's FIX team needs.
 */
export function TlsPanel({ compId }: { compId: string | undefined }) {
  const [connector, setConnector] = useState<ClientConnector | null>(null);
  const [config, setConfig] = useState<SessionConfig | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  /** The session config could not be had; the certificate part works without it. */
  const [configError, setConfigError] = useState<string | null>(null);
  const [commonName, setCommonName] = useState('');
  const [organization, setOrganization] = useState('');
  const [country, setCountry] = useState(CERT_COUNTRY_DEFAULT);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showKey, setShowKey] = useState(false);
  /** The private key of the certificate just generated: the one time the desk hands it out. */
  const [issuedKey, setIssuedKey] = useState<string | null>(null);
  const [showConfig, setShowConfig] = useState(false);
  const tz = userTimeZone();

  const load = useCallback(async (id: string, signal?: AbortSignal) => {
    // Each failure says what failed: the connector's fetch, or the session config's generation.
    const [c, sc] = await Promise.allSettled([tlsApi.connector(id, signal), tlsApi.sessionConfig(id, signal)]);
    if (signal?.aborted) return;
    if (c.status === 'fulfilled') {
      setConnector(c.value);
      setLoadError(null);
      setCommonName((v) => v || c.value.comp_id);
      setOrganization((v) => v || c.value.company_name || c.value.client_name || '');
    } else {
      setLoadError(adminErrorText(c.reason, 'Failed to fetch client connectors', (m) => `Failed to fetch client connectors: ${m}`));
    }
    if (sc.status === 'fulfilled') {
      setConfig(sc.value);
      setConfigError(null);
    } else {
      setConfigError(adminErrorText(sc.reason, SESSION_CONFIG_FAILED, (m) => `${SESSION_CONFIG_FAILED}: ${m}`));
    }
  }, []);

  useEffect(() => {
    if (!compId) return;
    const ctrl = new AbortController();
    setConnector(null);
    setConfig(null);
    setConfigError(null);
    setShowKey(false);
    setIssuedKey(null);
    setShowConfig(false);
    setCommonName('');
    setOrganization('');
    setCountry(CERT_COUNTRY_DEFAULT);
    setFieldErrors({});
    setSuccess(null);
    setError(null);
    void load(compId, ctrl.signal);
    return () => ctrl.abort();
  }, [compId, load]);

  if (!compId) {
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertCircle size={18} />} data-testid="tls-save-first">
        <Text fz="sm">{SAVE_FIRST_CERTS}</Text>
        <Text fz="sm">{SAVE_FIRST_SESSION_CONFIG}</Text>
      </Alert>
    );
  }
  if (!connector || (!config && !configError)) {
    return loadError ? (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
        {loadError}
      </Alert>
    ) : (
      <Group gap="xs">
        <Loader size="sm" />
        <Text fz="sm" c="dimmed">
          Loading the certificates of {compId}…
        </Text>
      </Group>
    );
  }

  const enabled = connector.tls_enabled;
  // No TLS port on the desk: a certificate would make every logon of this client fail (refused on the server too).
  const noTlsPort = config?.tls.port === null;
  const files = config?.tls ?? tlsFileNames(compId);
  const generate = async () => {
    const parsed = GenerateCertsSchema.safeParse({ commonName, organization, country });
    if (!parsed.success) {
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setFieldErrors({});
    setBusy(true);
    setError(null);
    setSuccess(null);
    try {
      const r = await tlsApi.generate(compId, { commonName, organization, country });
      setSuccess(r.message ?? `Certificates generated and stored in database! Valid until: ${r.data.expiresAt.slice(0, 10)}`);
      setShowKey(false);
      setIssuedKey(r.data.privateKeyPem);
      await load(compId);
    } catch (err) {
      setError(adminErrorText(err, 'Certificate generation failed', (m) => `Certificate generation failed: ${m}`));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="tls-panel">
      <Group gap="xs">
        <Text fz="sm" fw={600}>
          TLS
        </Text>
        <Badge color={enabled ? 'green' : 'gray'} data-testid="tls-status">
          {enabled ? 'Enabled' : 'Disabled'}
        </Badge>
        {enabled && config?.tls.expiresAt && (
          <Text fz="sm" c="dimmed" data-testid="tls-expiry">
            Valid until {formatLocalSeconds(config.tls.expiresAt, tz)}
          </Text>
        )}
      </Group>
      <Text fz="xs" c="dimmed">
        {enabled
          ? `${compId} logs on only over TLS${config?.tls.port ? ` (port ${config.tls.port})` : ''} with the certificate below; a Logon over plain TCP or with another certificate is refused.`
          : `${compId} logs on over plain TCP. Generating a certificate turns TLS on: from then on only a TLS Logon with that certificate is accepted.`}
      </Text>
      {noTlsPort && (
        <Alert
          color={enabled ? 'red' : 'yellow'}
          variant="light"
          icon={<IconAlertCircle size={18} />}
          title="No TLS port on the desk"
          data-testid="tls-no-port"
        >
          {enabled
            ? `${compId} has a certificate, so its logons are accepted over TLS only, and the desk has no TLS port: it cannot log on until FIX_TLS_PORT is set on every node and the desk restarted.`
            : TLS_NO_PORT_TEXT}
        </Alert>
      )}
      {success && (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="status" data-testid="tls-success">
          {success}
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} withCloseButton onClose={() => setError(null)} role="alert">
          {error}
        </Alert>
      )}
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Title order={3} fz="sm">
            {enabled ? 'Replace the certificate' : 'Generate a certificate'}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <TextInput
              label="Common name"
              required
              value={commonName}
              onChange={(e) => setCommonName(e.currentTarget.value)}
              error={fieldErrors.commonName}
              maxLength={64}
            />
            <TextInput
              label="Organization"
              value={organization}
              onChange={(e) => setOrganization(e.currentTarget.value)}
              error={fieldErrors.organization}
              maxLength={64}
            />
            <TextInput
              label="Country"
              value={country}
              onChange={(e) => setCountry(e.currentTarget.value.toUpperCase())}
              error={fieldErrors.country}
              maxLength={2}
              w={90}
            />
          </SimpleGrid>
          {enabled && (
            <Text fz="xs" c="orange.8">
              A new certificate replaces the current one at once: the client must install it before its next logon.
            </Text>
          )}
          <Group justify="flex-end">
            <Button size="xs" loading={busy} disabled={noTlsPort} onClick={() => void generate()}>
              {enabled ? 'Replace certificate' : 'Generate certificates'}
            </Button>
          </Group>
        </Stack>
      </Paper>
      {enabled && connector.tls_cert && connector.tls_ca && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <PemBlock label="Desk CA certificate" pem={connector.tls_ca} fileName={files.caFile} />
          <PemBlock label="Client certificate" pem={connector.tls_cert} fileName={files.certificateFile} />
        </SimpleGrid>
      )}
      {enabled && issuedKey && (
        <Stack gap={4}>
          <Group>
            <Button
              size="xs"
              variant="default"
              leftSection={showKey ? <IconEyeOff size={14} /> : <IconEye size={14} />}
              onClick={() => setShowKey((v) => !v)}
            >
              {showKey ? 'Hide private key' : 'Show private key'}
            </Button>
            <Text fz="xs" c="orange.8" data-testid="tls-key-once">
              The client's private key is shown this once: download it now and hand it to the client over a secure channel only. The desk
              keeps no copy.
            </Text>
          </Group>
          {showKey && <PemBlock label="Client private key" pem={issuedKey} fileName={files.privateKeyFile} />}
        </Stack>
      )}
      {enabled && !issuedKey && (
        <Text fz="xs" c="dimmed" data-testid="tls-key-handed-out">
          The client's private key was handed out when this certificate was generated; the desk keeps no copy. If it is lost, replace the
          certificate.
        </Text>
      )}
      {!config ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid="tls-config-error">
          <Group justify="space-between" wrap="nowrap">
            <Text fz="sm">{configError}</Text>
            <Button size="compact-xs" variant="light" color="red" onClick={() => void load(compId)}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : (
        <Stack gap={4}>
          <Group>
            <Button size="xs" variant="default" onClick={() => setShowConfig((v) => !v)}>
              {showConfig ? 'Hide session config' : 'Session config'}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              leftSection={<IconDownload size={14} />}
              onClick={() => downloadFile(`${compId}.cfg`, [config.settingsFile], 'text/plain;charset=utf-8')}
            >
              {compId}.cfg
            </Button>
          </Group>
          {showConfig && (
            <Stack gap="xs">
              <Code block fz={11} aria-label="QuickFIX settings file" style={{ maxHeight: 320, overflow: 'auto' }}>
                {config.settingsFile}
              </Code>
              <Code block fz={11} aria-label="Session config (JSON)" style={{ maxHeight: 240, overflow: 'auto' }}>
                {JSON.stringify({ ...config, settingsFile: undefined }, null, 2)}
              </Code>
            </Stack>
          )}
        </Stack>
      )}
    </Stack>
  );
}
