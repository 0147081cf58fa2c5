import { SIDE_LABELS, truncateText, type SideCode } from '@fixdesk/domain';
import type { FixMessageRecord, FixSection, ParsedFixField, ParsedFixMessage } from '@fixdesk/protocol';
import { Alert, Badge, Box, Button, Center, Code, Group, Loader, Modal, ScrollArea, Table, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCircleCheckFilled, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatLocalTime } from '../../components/time/localTime';
import { auditApi } from '../../services/audit/http';
import { DESCRIPTION_LIMIT, legsOf, validValuesOrDescription } from './fixMessageColumns';
import { rawForDisplay } from '@fixdesk/client';
import { msgTypeLabel } from '@fixdesk/domain';

/** Spec 000 §2: 'Copied!' for 2 seconds. */
const COPIED_MS = 2000;

type Parse = { state: 'idle' } | { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; parsed: ParsedFixMessage };

const SECTION_TITLES: Record<FixSection, string> = { header: 'Header', body: 'Body', trailer: 'Trailer' };

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (no permission, insecure origin): the selection route still works.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('copy refused');
  }
}

function FieldRow({ f }: { f: ParsedFixField }) {
  const more = validValuesOrDescription(f);
  const group = f.groups.map((g) => g.label).join(' › ');
  return (
    <Table.Tr data-testid="parsed-field" data-tag={f.tag}>
      <Table.Td className="fd-num" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {f.tag}
      </Table.Td>
      <Table.Td style={{ paddingLeft: 8 + 14 * f.groups.length }}>
        <Text fz={12} fw={500} span>
          {f.name ?? (
            <Text span c="dimmed" fz={12}>
              Unknown tag
            </Text>
          )}
        </Text>
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Text ff="monospace" fz={12} span>
          {f.value}
        </Text>
        {f.valueName && (
          <Text span fz={11} c="dimmed" ml={6}>
            {f.valueName}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {f.type && (
          <Badge size="xs" variant="light" color="gray" radius="xs">
            {f.type}
          </Badge>
        )}
      </Table.Td>
      <Table.Td ta="center">
        {f.required ? (
          <IconCircleCheckFilled size={14} color="var(--mantine-color-green-7)" aria-label="Required" data-testid="required-icon" />
        ) : null}
      </Table.Td>
      <Table.Td>
        {group && (
          <Badge size="xs" variant="outline" color="desk" radius="xs" data-testid="group-label" style={{ textTransform: 'none' }}>
            {group}
          </Badge>
        )}
      </Table.Td>
      <Table.Td title={more.length > DESCRIPTION_LIMIT ? more : undefined}>
        <Text fz={11} c="dimmed">
          {truncateText(more, DESCRIPTION_LIMIT)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

function ParsedFields({ parsed }: { parsed: ParsedFixMessage }) {
  if (parsed.fields.length === 0) return <Notice testId="parse-notice" text="Unable to parse fields from FIX message" />;
  const sections: FixSection[] = ['header', 'body', 'trailer'];
  return (
    <Table
      striped={false}
      highlightOnHover
      withTableBorder
      verticalSpacing={3}
      horizontalSpacing={8}
      fz={12}
      stickyHeader
      layout="fixed"
      data-testid="parsed-fields"
    >
      <colgroup>
        <col style={{ width: 52 }} />
        <col style={{ width: 168 }} />
        <col style={{ width: 200 }} />
        <col style={{ width: 108 }} />
        <col style={{ width: 40 }} />
        <col style={{ width: 100 }} />
        <col />
      </colgroup>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Tag</Table.Th>
          <Table.Th>Field</Table.Th>
          <Table.Th>Value</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th ta="center">Req</Table.Th>
          <Table.Th>Group</Table.Th>
          <Table.Th>Valid Values / Description</Table.Th>
        </Table.Tr>
      </Table.Thead>
      {sections.map((section) => {
        const fields = parsed.fields.filter((f) => f.section === section);
        if (fields.length === 0) return null;
        return (
          <Table.Tbody key={section} data-testid={`section-${section}`}>
            <Table.Tr bg="gray.0">
              <Table.Td colSpan={7}>
                <Text fz={11} fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: 0.5 }}>
                  {SECTION_TITLES[section]}
                </Text>
              </Table.Td>
            </Table.Tr>
            {fields.map((f, i) => (
              <FieldRow key={`${section}-${i}`} f={f} />
            ))}
          </Table.Tbody>
        );
      })}
    </Table>
  );
}

const LEG_COLUMNS: Array<[tag: number, title: string]> = [
  [600, 'Symbol'],
  [609, 'Security Type'],
  [610, 'Maturity'],
  [624, 'Side'],
  [623, 'Ratio'],
  [566, 'Price'],
];

function Legs({ parsed }: { parsed: ParsedFixMessage }) {
  const legs = legsOf(parsed.fields);
  if (legs.length === 0) return <Notice testId="legs-notice" text="No legs to display" />;
  return (
    <Table withTableBorder verticalSpacing={3} horizontalSpacing={8} fz={12} data-testid="legs-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Leg</Table.Th>
          {LEG_COLUMNS.map(([tag, title]) => (
            <Table.Th key={tag}>{title}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {legs.map((leg) => (
          <Table.Tr key={leg.leg}>
            <Table.Td fw={600}>Leg {leg.leg}</Table.Td>
            {LEG_COLUMNS.map(([tag]) => {
              const f = leg.fields.get(tag);
              // LegSide (624) takes Side's values, which the FIX 4.4 dictionary does not repeat for it.
              const meaning = f?.valueName ?? (tag === 624 && f ? (SIDE_LABELS[f.value as SideCode] ?? null) : null);
              return <Table.Td key={tag}>{f ? `${f.value}${meaning ? ` (${meaning})` : ''}` : ''}</Table.Td>;
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Notice({ text, testId }: { text: string; testId: string }) {
  return (
    <Center mih={120} data-testid={testId}>
      <Text fz="sm" c="dimmed">
        {text}
      </Text>
    </Center>
  );
}

/**
 * The FIX Messages detail (spec 000 §2): the raw message with SOH shown as '|', Copy Message, and the
 * fields read with the engine's FIX 4.4 dictionary (GET /api/fix-messages/{id}/parsed).
 */
export function FixMessageDetail({
  message,
  timeZone,
  onClose,
}: {
  message: FixMessageRecord | null;
  timeZone: string;
  onClose: () => void;
}) {
  const [parse, setParse] = useState<Parse>({ state: 'idle' });
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<number | undefined>(undefined);
  const raw = message?.raw_fix ?? '';
  const hasRaw = raw.trim() !== '';

  useEffect(() => {
    setCopied(false);
    window.clearTimeout(copiedTimer.current);
    if (!message || !hasRaw) {
      setParse({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    setParse({ state: 'loading' });
    auditApi
      .parsedFixMessage(message.id, controller.signal)
      .then((parsed) => setParse({ state: 'ready', parsed }))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setParse({ state: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => controller.abort();
  }, [message, hasRaw]);

  useEffect(() => () => window.clearTimeout(copiedTimer.current), []);

  const copy = async () => {
    try {
      await copyText(rawForDisplay(raw));
      setCopied(true);
      window.clearTimeout(copiedTimer.current);
      copiedTimer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      setCopied(false);
    }
  };

  const title = message ? (
    <Group gap={8} wrap="nowrap">
      <Text fw={700}>FIX Message #{message.id}</Text>
      <Badge size="sm" radius="sm" variant="light" color={message.direction === 'TX' ? 'green' : 'blue'}>
        {message.direction}
      </Badge>
      <Text fz="sm">{msgTypeLabel(message.msgtype)}</Text>
      <Text fz="xs" c="dimmed">
        Seq {message.msgseqnum} · {message.sender_comp_id} → {message.target_comp_id} · {formatLocalTime(message.transacttime, timeZone)}
      </Text>
    </Group>
  ) : null;

  return (
    <Modal
      opened={message !== null}
      onClose={onClose}
      title={title}
      size={1100}
      centered
      data-testid="fix-message-modal"
      styles={{ body: { paddingTop: 4 } }}
    >
      <Group justify="space-between" mb={4}>
        <Text fz="xs" fw={600} c="dimmed" tt="uppercase">
          Raw message
        </Text>
        <Button
          size="compact-xs"
          variant={copied ? 'light' : 'default'}
          color={copied ? 'green' : undefined}
          leftSection={copied ? <IconCheck size={13} /> : <IconCopy size={13} />}
          onClick={() => void copy()}
          disabled={!hasRaw}
          data-testid="copy-message"
          w={118}
        >
          {copied ? 'Copied!' : 'Copy Message'}
        </Button>
      </Group>
      {hasRaw ? (
        <Code
          block
          fz={12}
          data-testid="raw-message"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 120, overflowY: 'auto' }}
        >
          {rawForDisplay(raw)}
        </Code>
      ) : (
        <Notice testId="raw-notice" text="No Message Data" />
      )}

      <Tabs defaultValue="fields" mt="sm" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="fields">Parsed Fields</Tabs.Tab>
          <Tabs.Tab value="legs">Legs</Tabs.Tab>
        </Tabs.List>
        {/* One height for every tab and state (loading, fields, legs, notices): the modal does not jump. */}
        <Box pt={8} h="calc(100dvh - 340px)" mih={220} style={{ display: 'flex', flexDirection: 'column' }}>
          {!hasRaw ? (
            <Notice testId="parse-notice" text="No FIX message data to parse" />
          ) : parse.state === 'loading' || parse.state === 'idle' ? (
            <Center mih={120}>
              <Loader size="sm" />
            </Center>
          ) : parse.state === 'error' ? (
            <Box>
              <Notice testId="parse-notice" text="Unable to parse fields from FIX message" />
              <Text fz="xs" c="dimmed" ta="center">
                {parse.message}
              </Text>
            </Box>
          ) : (
            <>
              {parse.parsed.problem && (
                <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />} py={6} mb={6} data-testid="parse-problem">
                  <Text fz="xs">The FIX 4.4 dictionary does not accept this message as it is: {parse.parsed.problem}</Text>
                </Alert>
              )}
              <Tabs.Panel value="fields" style={{ flex: 1, minHeight: 0 }}>
                <ScrollArea h="100%" type="auto" scrollbars="y">
                  <ParsedFields parsed={parse.parsed} />
                </ScrollArea>
              </Tabs.Panel>
              <Tabs.Panel value="legs">
                <Legs parsed={parse.parsed} />
              </Tabs.Panel>
            </>
          )}
        </Box>
      </Tabs>
    </Modal>
  );
}
