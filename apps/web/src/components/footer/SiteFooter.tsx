import { Anchor, Badge, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CONTACT_EMAILS, PRODUCT_NAME } from '../../config/product';
import { Logo } from '../brand/Logo';
import classes from './SiteFooter.module.css';

const LEGAL_LINKS = [
  { label: 'Privacy Policy', to: '/privacy-policy' },
  { label: 'Cookie Policy', to: '/cookie-policy' },
  { label: 'Terms and Conditions', to: '/terms' },
] as const;

const CONTACT_LINKS = [
  { label: 'Support', email: CONTACT_EMAILS.support },
  { label: 'Privacy enquiries', email: CONTACT_EMAILS.privacy },
  { label: 'Data Protection Officer', email: CONTACT_EMAILS.dataProtectionOfficer },
] as const;

/** Page footer (spec 001 §2): About, Legal, Contact, and the copyright line. */
export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className={classes.footer}>
      <Container size="lg" py="xl">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
          <Stack gap="xs" component="section" aria-labelledby="footer-about">
            <Logo to="/" tone="onLight" size="sm" />
            <Text id="footer-about" className={classes.heading} mt={6}>
              About
            </Text>
            <Text fz="sm" c="dimmed" maw={320}>
              {PRODUCT_NAME} is a FIX order management platform for voice and chat based OTC brokers in freight and commodity derivatives,
              connecting systematic clients to the brokers they already trade with.
            </Text>
          </Stack>
          <Stack gap={6} component="nav" aria-labelledby="footer-legal">
            <Text id="footer-legal" className={classes.heading}>
              Legal
            </Text>
            {LEGAL_LINKS.map((link) => (
              <Anchor key={link.to} component={Link} to={link.to} fz="sm" className={classes.link}>
                {link.label}
              </Anchor>
            ))}
          </Stack>
          <Stack gap={6} component="section" aria-labelledby="footer-contact">
            <Text id="footer-contact" className={classes.heading}>
              Contact
            </Text>
            {CONTACT_LINKS.map((link) => (
              <Anchor key={link.label} href={`mailto:${link.email}`} fz="sm" className={classes.link} title={link.email}>
                {link.label}
              </Anchor>
            ))}
          </Stack>
        </SimpleGrid>
        <Group justify="space-between" mt="xl" pt="md" className={classes.bottom} gap="xs">
          <Text fz="xs" c="dimmed">
            © {year} {PRODUCT_NAME}. All rights reserved.
          </Text>
          <Badge variant="light" color="green" size="sm" leftSection={<IconShieldCheck size={12} stroke={2} />}>
            GDPR compliant
          </Badge>
        </Group>
      </Container>
    </footer>
  );
}
