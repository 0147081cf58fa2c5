import { ConnectorText } from '@fixdesk/protocol';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { adminErrorText } from '../../components/admin/errors';
import { connectorsApi } from '../../services/client-onboarding/onboardingApi';

/** The dialog's Delete tab: the component ID typed to confirm (spec 001 §5), the refusal shown in the tab. */
export function DeleteConnectorTab({ compId, onDeleted }: { compId: string; onDeleted: (message: string) => void }) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await connectorsApi.remove(compId);
      onDeleted(answer.message ?? ConnectorText.deleted(compId));
    } catch (err) {
      setError(adminErrorText(err, ConnectorText.deleteFailed, (m) => `${ConnectorText.deleteFailed}: ${m}`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" maw={520}>
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
        Deleting removes the connector, its capabilities, FIX defaults and session history. A client with orders cannot be deleted (the
        orders are compliance records): deactivate it instead.
      </Alert>
      {error && (
        <Alert color="red" variant="filled" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <TextInput
        label={ConnectorText.typeToConfirm(compId)}
        value={typed}
        onChange={(e) => setTyped(e.currentTarget.value)}
        placeholder={compId}
        autoComplete="off"
      />
      <Group>
        <Button color="red" disabled={typed !== compId} loading={busy} onClick={() => void confirm()}>
          Delete Connector
        </Button>
      </Group>
    </Stack>
  );
}
