import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useQuestion } from './useQuestion';

export interface ConfirmRequest {
  title: string;
  /** What happens on confirming, in a sentence or two. */
  message: ReactNode;
  confirmLabel: string;
  /** The way back (default Cancel). */
  cancelLabel?: string;
  /** The confirm button's colour: red for what cannot be undone (default). */
  color?: string;
}

/**
 * A question asked in a Mantine modal before something is lost or deleted (the admin screens' one way
 * to confirm; no window.confirm). `confirm(request)` resolves true on the confirm button, false on the
 * way back, Escape or a click outside. Render `dialog` once in the component that asks.
 */
export function useConfirm(): { confirm: (request: ConfirmRequest) => Promise<boolean>; dialog: ReactNode } {
  const { asked, ask: confirm, answer: close } = useQuestion<ConfirmRequest>();
  const dialog = (
    <Modal
      opened={asked !== null}
      onClose={() => close(false)}
      title={asked?.title}
      size="md"
      centered
      returnFocus
      data-testid="confirm-dialog"
    >
      {asked && (
        <>
          {typeof asked.message === 'string' ? <Text fz="sm">{asked.message}</Text> : asked.message}
          <Group justify="flex-end" mt="md" gap="xs">
            <Button variant="default" onClick={() => close(false)} data-autofocus>
              {asked.cancelLabel ?? 'Cancel'}
            </Button>
            <Button color={asked.color ?? 'red'} onClick={() => close(true)}>
              {asked.confirmLabel}
            </Button>
          </Group>
        </>
      )}
    </Modal>
  );
  return { confirm, dialog };
}
