import { Alert, Stack } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import type { Banners } from './useBanners';

/** The success banner (clears itself after 3000 ms) and the dismissible red error banner. */
export function AdminBanners({ banners }: { banners: Banners }) {
  if (!banners.success && !banners.error) return null;
  return (
    <Stack gap="xs" mb="md">
      {banners.success && (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="status" data-testid="admin-success">
          {banners.success}
        </Alert>
      )}
      {banners.error && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          withCloseButton
          closeButtonLabel="Dismiss error"
          onClose={banners.clearError}
          role="alert"
          data-testid="admin-error"
        >
          {banners.error}
        </Alert>
      )}
    </Stack>
  );
}
