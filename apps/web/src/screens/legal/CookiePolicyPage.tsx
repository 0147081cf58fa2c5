import { Anchor, Badge, Button, Table } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CONTACT_EMAILS, PRODUCT_NAME } from '../../config/product';
import { openCookiePreferences } from '../../services/consent/useCookieConsent';
import { LegalLayout, type LegalSection } from './LegalLayout';

type Category = 'Essential' | 'Functional' | 'Analytics';

/** The cookies the product sets (spec 001 §2, §9). */
const COOKIES: readonly { name: string; purpose: string; category: Category; duration: string }[] = [
  { name: 'sessionId', purpose: 'Keeps your browser session together between requests.', category: 'Essential', duration: 'Session' },
  { name: 'authToken', purpose: 'Keeps you signed in after you sign in.', category: 'Essential', duration: '24 hours' },
  { name: 'cookieConsent', purpose: 'Remembers the cookie choice you made.', category: 'Essential', duration: '1 year' },
  { name: 'userPreferences', purpose: 'Remembers display preferences such as layouts.', category: 'Functional', duration: '1 year' },
  { name: 'analytics_id', purpose: 'Distinguishes visitors for anonymous usage statistics.', category: 'Analytics', duration: '2 years' },
];

const CATEGORY_COLOR: Record<Category, string> = { Essential: 'gray', Functional: 'blue', Analytics: 'grape' };

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'what-are-cookies',
    title: 'What cookies are',
    body: (
      <p>
        Cookies are small files a website stores in your browser. Similar browser storage (local storage) works the same way and is covered
        by this policy too.
      </p>
    ),
  },
  {
    id: 'cookies-we-use',
    title: 'Cookies we use',
    body: (
      <Table.ScrollContainer minWidth={560}>
        <Table withTableBorder striped verticalSpacing="xs" aria-label="Cookies we use">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Purpose</Table.Th>
              <Table.Th w={124}>Category</Table.Th>
              <Table.Th w={96}>Duration</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {COOKIES.map((cookie) => (
              <Table.Tr key={cookie.name}>
                <Table.Td>
                  <code>{cookie.name}</code>
                </Table.Td>
                <Table.Td>{cookie.purpose}</Table.Td>
                <Table.Td>
                  <Badge size="sm" color={CATEGORY_COLOR[cookie.category]}>
                    {cookie.category}
                  </Badge>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{cookie.duration}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    ),
  },
  {
    id: 'local-storage',
    title: 'Local storage',
    body: (
      <p>
        When you sign in, {PRODUCT_NAME} keeps your user details and session token in your browser&apos;s local storage so that reloading a
        page does not sign you out. They are removed when you sign out and after 24 hours at the latest. Your cookie choice is kept there
        under <code>cookieConsent</code>.
      </p>
    ),
  },
  {
    id: 'your-choices',
    title: 'Your choices',
    body: (
      <>
        <p>
          Essential cookies are needed to sign in and keep the platform secure, so they cannot be switched off. Analytics and functional
          cookies are used only if you allow them. You can change your choice at any time:
        </p>
        <p>
          <Button variant="light" leftSection={<IconAdjustments size={16} />} onClick={openCookiePreferences}>
            Change cookie preferences
          </Button>
        </p>
        <p>You can also delete cookies in your browser settings; you will then be signed out.</p>
      </>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about cookies: <Anchor href={`mailto:${CONTACT_EMAILS.privacy}`}>{CONTACT_EMAILS.privacy}</Anchor>. See also our{' '}
        <Anchor component={Link} to="/privacy-policy">
          Privacy Policy
        </Anchor>
        .
      </p>
    ),
  },
];

export default function CookiePolicyPage() {
  return (
    <LegalLayout
      title="Cookie Policy"
      intro={`This policy lists the cookies and browser storage ${PRODUCT_NAME} uses, what each is for and how long it lasts.`}
      sections={SECTIONS}
    />
  );
}
