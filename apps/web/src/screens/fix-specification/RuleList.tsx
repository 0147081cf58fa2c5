import { List, Text } from '@mantine/core';

/** A list of rules, each led by its title in bold ("Heartbeats. …"): the connection guidelines, the drop copy rules. */
export function RuleList({ rules, spacing }: { rules: ReadonlyArray<{ title: string; text: string }>; spacing: number }) {
  return (
    <List spacing={spacing} size="sm">
      {rules.map((g) => (
        <List.Item key={g.title}>
          <Text span fw={700} fz="sm">
            {g.title}.{' '}
          </Text>
          {g.text}
        </List.Item>
      ))}
    </List>
  );
}
