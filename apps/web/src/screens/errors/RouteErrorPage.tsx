import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A failed dynamic import usually means the app was redeployed under an open tab. */
function isStaleBundle(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
}

/** Last-resort screen when rendering a route throws. */
export function RouteErrorPage() {
  const error = useRouteError();
  const stale = isStaleBundle(error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Center mih="100vh" px="md">
      <Stack align="center" gap="sm" maw={520} ta="center">
        <Title order={1} fz="h2">
          {stale ? 'A new version is available' : 'Something went wrong'}
        </Title>
        <Text c="dimmed" fz="sm">
          {stale
            ? 'The desk was updated while this tab was open. Reload to continue with the latest version.'
            : 'This screen failed to load. Reloading usually helps; if it keeps happening, contact support with the details below.'}
        </Text>
        {!stale && <Code block>{detail}</Code>}
        <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()} mt="sm">
          Reload
        </Button>
      </Stack>
    </Center>
  );
}
