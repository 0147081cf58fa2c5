import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { PRODUCT_NAME } from '../../config/product';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Center py={120} px="md">
      <title>{`Page not found · ${PRODUCT_NAME}`}</title>
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Text fz={56} fw={800} c="navy.2" lh={1} className="fd-numeric">
          404
        </Text>
        <Title order={1} fz="h2">
          Page not found
        </Title>
        <Text c="dimmed" fz="sm">
          There is no page at <code>{pathname}</code>. It may have moved, or the address may be mistyped.
        </Text>
        <Button component={Link} to="/" leftSection={<IconArrowLeft size={16} />} mt="sm">
          Back to home
        </Button>
      </Stack>
    </Center>
  );
}
