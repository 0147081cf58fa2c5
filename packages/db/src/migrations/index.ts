import m0001 from './0001_initial';
import m0002 from './0002_order_outbox';
import m0003 from './0003_order_expiry';
import m0004 from './0004_planned_intake';
import m0005 from './0005_reference_changes';
import m0006 from './0006_audit_seals';
import m0007 from './0007_audit_access';
import m0008 from './0008_refused_orders';
import m0009 from './0009_session_operations';
import m0010 from './0010_user_admin';
import m0011 from './0011_client_onboarding';
import m0012 from './0012_heartbeat_range';
import m0013 from './0013_fix_spec_documents';
import m0014 from './0014_leases';
import m0015 from './0015_audit_filter_indexes';
import m0016 from './0016_browser_presence';
import m0017 from './0017_lease_handover';
import m0018 from './0018_client_kill_switch';
import m0019 from './0019_audit_access_reads';
import m0021 from './0021_client_connector_logos';
import m0022 from './0022_sender_seq_floor';
import m0023 from './0023_drop_copy_sessions';
import m0024 from './0024_drop_copies';
import m0025 from './0025_drop_copies_report_keys';
import m0026 from './0026_refusal_copies';
import m0027 from './0027_insights_session_faults';
import m0028 from './0028_insights_rollups';
import m0029 from './0029_insights_rollup_marks';
import m0030 from './0030_insights_client_days';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Forward-only, applied in order. Append; never edit or remove a shipped entry. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: m0001 },
  { version: 2, name: 'order_outbox', sql: m0002 },
  { version: 3, name: 'order_expiry_and_brin', sql: m0003 },
  { version: 4, name: 'planned_intake', sql: m0004 },
  { version: 5, name: 'reference_changes', sql: m0005 },
  { version: 6, name: 'audit_seals', sql: m0006 },
  { version: 7, name: 'audit_access', sql: m0007 },
  { version: 8, name: 'refused_orders', sql: m0008 },
  { version: 9, name: 'session_operations', sql: m0009 },
  { version: 10, name: 'user_admin', sql: m0010 },
  { version: 11, name: 'client_onboarding', sql: m0011 },
  { version: 12, name: 'heartbeat_range', sql: m0012 },
  { version: 13, name: 'fix_spec_documents', sql: m0013 },
  { version: 14, name: 'leases', sql: m0014 },
  { version: 15, name: 'audit_filter_indexes', sql: m0015 },
  { version: 16, name: 'browser_presence', sql: m0016 },
  { version: 17, name: 'lease_handover', sql: m0017 },
  { version: 18, name: 'client_kill_switch', sql: m0018 },
  { version: 19, name: 'audit_access_reads', sql: m0019 },
  // 20 (report_write_time) was withdrawn after it shipped: its number stays unused.
  { version: 21, name: 'client_connector_logos', sql: m0021 },
  { version: 22, name: 'sender_seq_floor', sql: m0022 },
  { version: 23, name: 'drop_copy_sessions', sql: m0023 },
  { version: 24, name: 'drop_copies', sql: m0024 },
  { version: 25, name: 'drop_copies_report_keys', sql: m0025 },
  { version: 26, name: 'refusal_copies', sql: m0026 },
  { version: 27, name: 'insights_session_faults', sql: m0027 },
  { version: 28, name: 'insights_rollups', sql: m0028 },
  { version: 29, name: 'insights_rollup_marks', sql: m0029 },
  { version: 30, name: 'insights_client_days', sql: m0030 },
];
