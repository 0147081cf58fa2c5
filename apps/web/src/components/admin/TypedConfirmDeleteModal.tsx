import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';

/**
 * A delete that must be confirmed by typing a name exactly (spec 001 §5): the button stays disabled
 * until the text matches.
 */
export function TypedConfirmDeleteModal({
  opened,
  title,
  expected,
  prompt,
  onCancel,
  onConfirm,
  children,
}: {
  opened: boolean;
  title: string;
  /** What must be typed, exactly. */
  expected: string;
  /** The instruction, e.g. 'Please type "Capesize 5TC" exactly to confirm deletion'. */
  prompt: string;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
  children?: ReactNode;
}) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) setTyped('');
  }, [opened, expected]);
  const matches = typed === expected;
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered size="md">
      <Stack gap="sm">
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
          This cannot be undone.
        </Alert>
        {children}
        <Text fz="sm">{prompt}</Text>
        <TextInput
          aria-label="Confirmation"
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          placeholder={expected}
          autoComplete="off"
          data-autofocus
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={!matches}
            loading={busy}
            onClick={() => {
              setBusy(true);
              void onConfirm().finally(() => setBusy(false));
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
