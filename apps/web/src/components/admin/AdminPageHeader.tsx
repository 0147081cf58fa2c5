import { Badge, Group } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { PageHeader } from '../layout/PageHeader';

/** The page header of an admin screen: title, one line of purpose, the row count and the screen's actions (Add …). */
export function AdminPageHeader({
  icon,
  title,
  description,
  count,
  children,
}: {
  icon: Icon;
  title: string;
  description: string;
  count?: number;
  children?: ReactNode;
}) {
  return (
    <PageHeader
      icon={icon}
      title={title}
      description={description}
      count={
        count !== undefined && (
          <Badge variant="light" color="gray" size="sm" className="fd-numeric">
            {count}
          </Badge>
        )
      }
      actions={
        <Group gap="xs" wrap="nowrap">
          {children}
        </Group>
      }
    />
  );
}
