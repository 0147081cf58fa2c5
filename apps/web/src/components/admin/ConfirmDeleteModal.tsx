import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/** A delete asked once more (spec 001 §5: user, broker and contact deletes ask for confirmation). */
export function ConfirmDeleteModal({
  opened,
  title,
  question,
  confirmLabel = 'Delete',
  onCancel,
  onConfirm,
  children,
}: {
  opened: boolean;
  title: string;
  question: string;
  confirmLabel?: string;
  onCancel: () => void;
  /** Does the delete and reports its own outcome (a toast): it never rejects. */
  onConfirm: () => Promise<void>;
  children?: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered size="md" closeOnClickOutside={!busy}>
      <Stack gap="sm">
        <Text fz="sm">{question}</Text>
        {children}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() => {
              setBusy(true);
              void onConfirm().finally(() => setBusy(false));
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
