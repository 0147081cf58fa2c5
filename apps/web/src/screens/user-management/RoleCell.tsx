import type { Role } from '@fixdesk/protocol';
import type { ICellRendererParams } from 'ag-grid-community';
import { RoleBadge } from '../../components/nav/RoleBadge';

/** Spec 001 §6: role badges red (admin), green (broker), blue (viewer), grey (user). */
export function RoleCell({ value }: ICellRendererParams<unknown, Role>) {
  return value ? <RoleBadge role={value} size="sm" /> : null;
}
