import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectorRow } from '@fixdesk/db';
import { buildSessionConfig } from './session-config';

const base = {
  comp_id: 'ACME_1',
  target_comp_id: 'FIXDESK',
  fix_version: 'FIX.4.4',
  client_name: 'Acme',
  host: null,
  heartbeatint: 30,
  start_time: '09:00:00',
  end_time: '17:00:00',
  trading_days: 'M,T,W,T,F',
  timezone: 'Asia/Singapore',
  reset_frequency: 'DAILY',
  resetseqnumflag: false,
  resetseqnums: false,
  fix_username: null,
  fix_password: null,
  tls_cert: null,
  tls_expires_at: null,
} as unknown as ConnectorRow;

const settingsOf = (text: string) => text.split('\n').filter((l) => l && !l.startsWith('#'));

describe('session config', () => {
  it('writes the schedule in the connector time zone, its weekdays and the reset policy', () => {
    const c = buildSessionConfig(base, { host: '10.1.2.3', port: 9876, tlsPort: 0 });
    assert.equal(c.port, 9876);
    assert.equal(c.host, '10.1.2.3');
    const lines = settingsOf(c.settingsFile);
    for (const l of [
      'SocketConnectPort=9876',
      'StartTime=09:00:00',
      'EndTime=17:00:00',
      'TimeZone=Asia/Singapore',
      'Weekdays=Mo,Tu,We,Th,Fr',
      'ResetOnLogon=N',
    ])
      assert.ok(lines.includes(l), l);
    assert.ok(!c.settingsFile.includes('SocketUseSSL'));
    assert.deepEqual(c.resetPolicy, { resetOnLogon: false, resetFrequency: 'DAILY' });
  });

  it('points a TLS connector at the TLS port with its certificate files in [DEFAULT]', () => {
    const c = buildSessionConfig({ ...base, tls_cert: '-----BEGIN CERTIFICATE-----', resetseqnumflag: true } as ConnectorRow, {
      host: '127.0.0.1',
      port: 9876,
      tlsPort: 9877,
    });
    assert.equal(c.port, 9877);
    assert.equal(c.tls.enabled, true);
    const text = c.settingsFile;
    const defaults = text.slice(text.indexOf('[DEFAULT]'), text.indexOf('[SESSION]'));
    for (const l of [
      'ClientCertificateFile=ACME_1.crt',
      'ClientCertificateKeyFile=ACME_1.key',
      'CertificationAuthoritiesFile=fixdesk-ca.crt',
    ])
      assert.ok(defaults.includes(`\n${l}\n`), l);
    assert.ok(settingsOf(text).includes('ResetOnLogon=Y'));
  });

  it('cannot be made to carry extra settings by a value with a line break', () => {
    const c = buildSessionConfig(
      { ...base, client_name: 'Acme\nSocketConnectPort=1', target_comp_id: 'FIXDESK\r\nResetOnLogon=Y' } as ConnectorRow,
      { host: '127.0.0.1', port: 9876, tlsPort: 0 },
    );
    const lines = settingsOf(c.settingsFile);
    assert.ok(!lines.includes('SocketConnectPort=1'));
    assert.ok(!lines.includes('ResetOnLogon=Y'));
    assert.ok(lines.includes('TargetCompID=FIXDESK ResetOnLogon=Y'));
  });
});
