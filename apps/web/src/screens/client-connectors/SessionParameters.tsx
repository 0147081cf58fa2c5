import { Stack, Table, Text } from '@mantine/core';
import type { FormValues } from '../../components/admin/formValues';
import type { ConnectAddress } from './ConnectorAddress';

/** The Interactive FIX Spec tab: the session parameters the client's FIX team needs. */
export function SessionParameters({ values, address }: { values: FormValues; address: ConnectAddress }) {
  const v = (k: string) => String(values[k] ?? '');
  const rows: [string, string][] = [
    ['BeginString (8)', v('fix_version') || 'FIX.4.4'],
    ['SenderCompID (49), the client', v('comp_id') || '—'],
    ['TargetCompID (56), us', v('target_comp_id') || 'FIXDESK'],
    ['TargetSubID (57)', v('targetsubid') || '—'],
    ['Host : port', address ? `${address.host} : ${address.port}` : '…'],
    ['HeartBtInt (108)', `${v('heartbeatint') || '30'} s`],
    ['EncryptMethod (98)', v('encryptmethod') || '0'],
    [
      'Username (553) / Password (554)',
      `${v('fix_username') ? 'required' : 'not asked'} / ${v('fix_password') ? 'required' : 'not asked'}`,
    ],
    [
      'Sequence numbers reset',
      `${v('reset_frequency') || 'DAILY'}${values.resetseqnumflag === true ? ', and on every Logon (141=Y)' : ''}`,
    ],
    [
      'Session schedule',
      `${v('trading_days') || 'M,T,W,T,F'} ${v('start_time') || '09:00:00'}–${v('end_time') || '17:00:00'} ${v('timezone') || 'Asia/Singapore'}`,
    ],
    ['Data dictionary', `${v('dictionary') || 'repo44'} (validate with the standard FIX44.xml)`],
    ['Protocol', v('protocol') || 'ascii'],
  ];
  return (
    <Stack gap="xs">
      <Text fz="sm" c="dimmed">
        The session parameters of this connector, as the client's FIX engine must be configured (changes apply from the next logon).
      </Text>
      <Table fz="sm" striped withTableBorder verticalSpacing={4} aria-label="Session parameters">
        <Table.Tbody>
          {rows.map(([k, val]) => (
            <Table.Tr key={k}>
              <Table.Td w="40%" fw={600}>
                {k}
              </Table.Td>
              <Table.Td ff="monospace">{val}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
