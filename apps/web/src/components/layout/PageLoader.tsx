import { Center, Loader } from '@mantine/core';

/** Placeholder while a screen's code or the session check is on its way. */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py={96} role="status" aria-live="polite" aria-label={label}>
      <Loader size="sm" type="dots" />
    </Center>
  );
}
