import { Box, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A control the user cannot use now, with the reason as its tooltip. A disabled button receives no
 * pointer events, so the tooltip sits on a wrapper (which also carries the reason for tests and
 * screen readers). With no reason the control is drawn as it is.
 */
export function WhyDisabled({
  reason,
  children,
  inline = false,
}: {
  reason: string | null | undefined;
  children: ReactNode;
  inline?: boolean;
}) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip label={reason} multiline w={280} withArrow openDelay={50} closeDelay={70}>
      <Box component="span" display={inline ? 'inline-block' : 'block'} data-blocked-reason={reason} style={{ cursor: 'not-allowed' }}>
        {children}
      </Box>
    </Tooltip>
  );
}
