import { hostname } from 'node:os';
import type { ConnectorRow } from '@fixdesk/db';
import { parseTradingDays } from '@fixdesk/fix';
import { tlsFileNames, type SessionConfig } from '@fixdesk/protocol';

const WEEKDAY_CODES = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'] as const;

export interface AcceptorAddress {
  /** The address the server listens on (HOST). */
  host: string;
  port: number;
  /** 0 when no TLS listener is configured. */
  tlsPort: number;
}

/** This node's acceptor as clients reach it (HOST, FIX_PORT and FIX_TLS_PORT as listening now). */
export function deskAcceptor(config: { host: string }, fix: { port: number; tlsPort: number }): AcceptorAddress {
  return { host: config.host, port: fix.port, tlsPort: fix.tlsPort };
}

/**
 * Where a client connects: the one answer for the session config, the specification, the connector
 * grid and dialog. The connector's host when it names one (the address the client is given, behind a
 * NAT or a load balancer), else the desk's own; the TLS port once the connector has a certificate and
 * the desk a TLS port, else FIX_PORT.
 */
export function clientAddress(
  c: Pick<ConnectorRow, 'host' | 'tls_cert'>,
  acceptor: AcceptorAddress,
): { host: string; port: number; tls: boolean } {
  const listenHost = acceptor.host === '0.0.0.0' || acceptor.host === '::' ? hostname() : acceptor.host;
  const tls = Boolean(c.tls_cert) && acceptor.tlsPort > 0;
  return { host: c.host?.trim() || listenHost, port: tls ? acceptor.tlsPort : acceptor.port, tls };
}

/** Settings-file values may not carry a line break or a comment-like start (they come from admin input). */
function settingValue(v: string): string {
  return v.replace(/[\r\n]+/g, ' ').trim();
}

function weekdays(tradingDays: string): string | undefined {
  try {
    return [...parseTradingDays(tradingDays)]
      .sort((a, b) => a - b)
      .map((d) => WEEKDAY_CODES[d])
      .join(',');
  } catch {
    return undefined;
  }
}

/**
 * What a client's FIX team needs to connect to us, as data and as a QuickFIX initiator settings file.
 * Seen from the client: its SenderCompID is the connector's comp id, its TargetCompID ours.
 */
export function buildSessionConfig(c: ConnectorRow, acceptor: AcceptorAddress, now = new Date()): SessionConfig {
  const { host, port } = clientAddress(c, acceptor);
  const tlsEnabled = Boolean(c.tls_cert);
  const tlsPort = acceptor.tlsPort > 0 ? acceptor.tlsPort : null;
  const files = tlsFileNames(c.comp_id);
  const resetOnLogon = c.resetseqnumflag || c.resetseqnums;
  const days = weekdays(c.trading_days);
  const startTime = c.start_time.slice(0, 8);
  const endTime = c.end_time.slice(0, 8);

  // TLS settings sit in [DEFAULT]: QuickFIX C++'s SSL initiator reads them there only (one SSL context
  // per initiator); QuickFIX/J's sessions inherit them from it.
  const tlsLines = tlsEnabled
    ? [
        '# TLS with the client certificate issued by the desk (a Logon without it is refused).',
        'SocketUseSSL=Y',
        'SSLProtocol=+TLSv1_2',
        `ClientCertificateFile=${files.certificateFile}`,
        `ClientCertificateKeyFile=${files.privateKeyFile}`,
        `CertificationAuthoritiesFile=${files.caFile}`,
        ...(tlsPort ? [] : ['# The desk has not opened its TLS port yet: ask the desk before connecting.']),
      ]
    : [];
  const lines: string[] = [
    `# FixDesk session configuration for ${settingValue(c.comp_id)}${c.client_name ? ` (${settingValue(c.client_name)})` : ''}`,
    `# Generated ${now.toISOString()}. A QuickFIX initiator settings file; adjust the paths to your installation.`,
    `# The schedule is in the connector's time zone ${settingValue(c.timezone)} (TimeZone and Weekdays are read by`,
    '# QuickFIX/J and QuickFIX/n; QuickFIX C++ reads StartTime and EndTime as UTC unless UseLocalTime=Y on a host in that zone).',
    `# Trading days: ${settingValue(c.trading_days)}. Sequence numbers reset ${c.reset_frequency === 'NEVER' ? 'never on a schedule' : `${c.reset_frequency.toLowerCase()} (at the start of the trading session)`}${resetOnLogon ? ' and on every logon' : ''}.`,
    '[DEFAULT]',
    'ConnectionType=initiator',
    'ReconnectInterval=30',
    'FileStorePath=store',
    'FileLogPath=log',
    'UseDataDictionary=Y',
    'DataDictionary=FIX44.xml',
    ...tlsLines,
    '',
    '[SESSION]',
    `BeginString=${settingValue(c.fix_version)}`,
    `SenderCompID=${settingValue(c.comp_id)}`,
    `TargetCompID=${settingValue(c.target_comp_id)}`,
    `SocketConnectHost=${settingValue(host)}`,
    `SocketConnectPort=${port}`,
    `HeartBtInt=${c.heartbeatint}`,
    `StartTime=${startTime}`,
    `EndTime=${endTime}`,
    `TimeZone=${settingValue(c.timezone)}`,
    ...(days ? [`Weekdays=${days}`] : []),
    `ResetOnLogon=${resetOnLogon ? 'Y' : 'N'}`,
  ];
  if (c.fix_username)
    lines.push(`# Logon carries Username (553)=${settingValue(c.fix_username)} and the Password (554) agreed with the desk.`);

  return {
    compId: c.comp_id,
    senderCompId: c.comp_id,
    targetCompId: c.target_comp_id,
    fixVersion: c.fix_version,
    host,
    port,
    tls: { enabled: tlsEnabled, port: tlsPort, ...files, expiresAt: c.tls_expires_at ? c.tls_expires_at.toISOString() : null },
    heartBtInt: c.heartbeatint,
    schedule: { timeZone: c.timezone, startTime, endTime, tradingDays: c.trading_days },
    resetPolicy: { resetOnLogon, resetFrequency: c.reset_frequency },
    credentials: { username: c.fix_username, passwordRequired: Boolean(c.fix_password) },
    settingsFile: `${lines.join('\n')}\n`,
  };
}
