import { Button, Group, Modal, Text } from '@mantine/core';
import { useQuestion } from '../confirm/useQuestion';
import type { Consequence } from '../../services/orders/consequences';

/**
 * The confirmation of an irreversible action: what it does (the consequence summary) before the broker
 * commits. `confirm(consequence)` resolves true on the confirm button (focused: Enter confirms), false
 * on Go back, Escape or a click outside. Render `dialog` once in the component that asks.
 */
export function useConfirmAction(): { confirm: (consequence: Consequence) => Promise<boolean>; dialog: React.ReactNode } {
  const { asked: consequence, ask: confirm, answer: close } = useQuestion<Consequence>();
  const asked = consequence && { consequence };
  const dialog = (
    <Modal
      opened={asked !== null}
      onClose={() => close(false)}
      title={asked?.consequence.title}
      size="md"
      centered
      data-testid="confirm-action"
      returnFocus
    >
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
