import { Button, Group, Modal, Text } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import type { Consequence } from '../../services/orders/consequences';

interface Asked {
  consequence: Consequence;
  resolve: (confirmed: boolean) => void;
}

/**
 * The confirmation of an irreversible action: what it does (the consequence summary) before the broker
 * commits. `confirm(consequence)` resolves true on the confirm button (focused: Enter confirms), false
 * on Go back, Escape or a click outside. Render `dialog` once in the component that asks.
 */
export function useConfirmAction(): { confirm: (consequence: Consequence) => Promise<boolean>; dialog: React.ReactNode } {
  const [asked, setAsked] = useState<Asked | null>(null);
  const current = useRef<Asked | null>(null);
  const close = useCallback((confirmed: boolean) => {
    const open = current.current;
    current.current = null;
    setAsked(null);
    open?.resolve(confirmed);
  }, []);
  const confirm = useCallback(
    (consequence: Consequence) =>
      new Promise<boolean>((resolve) => {
        current.current?.resolve(false);
        const next = { consequence, resolve };
        current.current = next;
        setAsked(next);
      }),
    [],
  );
  const dialog = (
    <Modal opened={asked !== null} onClose={() => close(false)} title={asked?.consequence.title} size="md" centered data-testid="confirm-action" returnFocus>
      {asked && (
        <>
          <Text fz="sm" data-testid="confirm-summary">
            {asked.consequence.summary}
          </Text>
          <Group justify="flex-end" mt="md" gap="xs">
            <Button variant="default" size="xs" onClick={() => close(false)}>
              Go back
            </Button>
            <Button color="red" size="xs" data-autofocus onClick={() => close(true)} data-testid="confirm-button">
              {asked.consequence.confirmLabel}
            </Button>
          </Group>
        </>
      )}
    </Modal>
  );
  return { confirm, dialog };
}
