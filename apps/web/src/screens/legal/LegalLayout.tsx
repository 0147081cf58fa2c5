import { Anchor, Box, Container, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './LegalLayout.module.css';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** Local calendar date as YYYY-MM-DD: what "today" means to the reader. */
function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * Shared frame of the legal pages: title, "Last updated" (today, per spec 001 §2), an
 * in-page contents list and numbered sections.
 */
export function LegalLayout({ title, intro, sections }: { title: string; intro: ReactNode; sections: readonly LegalSection[] }) {
  const today = new Date();
  return (
    <Container size="lg" py="xl" w="100%">
      <div className={classes.layout}>
        <Box component="nav" aria-label="On this page" className={classes.toc} visibleFrom="md">
          <Text className={classes.tocHeading}>On this page</Text>
          <Stack gap={2} mt="xs">
            {sections.map((section, index) => (
              <Anchor key={section.id} href={`#${section.id}`} className={classes.tocLink} underline="never">
                {index + 1}. {section.title}
              </Anchor>
            ))}
          </Stack>
        </Box>
        <article className={classes.article}>
          <Title order={1}>{title}</Title>
          <Group gap={6} mt="xs" c="dimmed">
            <IconCalendar size={15} stroke={1.6} aria-hidden="true" />
            <Text fz="sm" data-testid="last-updated" data-date={localIsoDate(today)}>
              Last updated: {longDate.format(today)}
            </Text>
          </Group>
          <Text mt="lg" className={classes.prose}>
            {intro}
          </Text>
          <Divider my="xl" />
          <Stack gap="xl">
            {sections.map((section, index) => (
              <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className={classes.section}>
                <Title order={2} id={`${section.id}-title`} fz="h3" mb="xs">
                  {index + 1}. {section.title}
                </Title>
                <div className={classes.prose}>{section.body}</div>
              </section>
            ))}
          </Stack>
        </article>
      </div>
    </Container>
  );
}
