import type { Role } from '@fixdesk/protocol';
import { Badge, type BadgeProps } from '@mantine/core';
import { ROLE_COLORS, roleLabel } from '../../services/auth/roles';

export function RoleBadge({ role, ...props }: { role: Role } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    <Badge color={ROLE_COLORS[role]} variant="filled" size="xs" title={roleLabel(role)} {...props}>
      {role}
    </Badge>
  );
}
