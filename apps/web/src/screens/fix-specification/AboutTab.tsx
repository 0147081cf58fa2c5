import { dropCopySessionNotes, isDropCopySession, type FixSpecDocument } from '@fixdesk/domain';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DropCopyNote } from './DropCopySection';
import { TextTable } from './FieldTable';

const yes = (b: boolean) => (b ? 'Yes' : 'No');

/** Tab 1 (spec 001 §2, §9): the route symbols and contract tables from the security master, the two exchanges. */
export function AboutTab({ doc }: { doc: FixSpecDocument }) {
  const contracts = doc.contracts.filter((c) => c.active);
  return (
    <Stack gap="md">
      <Text fz="sm">
        Forward Freight Agreements (FFAs) are cash-settled futures on the Baltic Exchange&apos;s freight route assessments. Timecharter
        averages trade in days at dollars per day; voyage routes in lots of 1,000 tonnes at dollars per tonne. The freight contracts are
        offered on both exchanges below. A contract is sent in Symbol (55) with its contract month in MaturityMonthYear (200) as YYYYMM; the
        last column names the exchanges it is listed on.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {doc.exchanges.map((e) => (
          <Paper key={e.mic} withBorder p="sm" radius="sm">
            <Group gap="xs">
              <Badge variant="light">{e.mic}</Badge>
              <Text fw={600}>{e.name}</Text>
            </Group>
            <Text fz="sm" c="dimmed" mt={4}>
              {e.description}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Title order={3} fz="h4">
        Contracts and route symbols
      </Title>
      <TextTable
        testId="contracts-table"
        headers={['Symbol (55)', 'Instrument', 'Route', 'Contract size', 'Price tick', 'Series months', 'Currency', 'Exchanges']}
        rows={contracts.map((k) => [
          k.symbol,
          k.instrumentName,
          k.description,
          `${k.contractSize} ${k.contractUnit}`,
          k.priceTick,
          k.seriesMonths === null ? '' : String(k.seriesMonths),
          k.currency,
          k.exchanges.join(', '),
        ])}
      />
      {isDropCopySession(doc) && <DropCopyNote testId="about-drop-copy">{dropCopySessionNotes(doc.client.compId).about}</DropCopyNote>}
      {doc.capabilities && (
        <>
          <Title order={3} fz="h4">
            What {doc.client.clientName} may trade
          </Title>
          {doc.capabilities.length === 0 ? (
            <Text fz="sm" c="dimmed">
              No capability is configured: every order from this client is refused until one is granted.
            </Text>
          ) : (
            <TextTable
              headers={[
                'Security',
                'Exchange',
                'Enabled',
                'Buy',
                'Sell',
                'Short',
                'Min qty',
                'Max qty',
                'Max long',
                'Max short',
                'Market (100)',
              ]}
              rows={doc.capabilities.map((k) => [
                k.symbol,
                k.exchange ?? 'Any',
                yes(k.enabled),
                yes(k.canBuy),
                yes(k.canSell),
                yes(k.canShort),
                k.minOrderQty ?? '',
                k.maxOrderQty ?? '',
                k.maxPositionLong ?? '',
                k.maxPositionShort ?? '',
                k.marketIdentifier ?? '',
              ])}
            />
          )}
        </>
      )}
    </Stack>
  );
}
