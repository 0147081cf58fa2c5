import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { CONTACT_EMAILS, PRODUCT_NAME } from '../../config/product';
import { LegalLayout, type LegalSection } from './LegalLayout';

const mail = (address: string) => <Anchor href={`mailto:${address}`}>{address}</Anchor>;

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    body: (
      <p>
        {PRODUCT_NAME} is operated for broker firms and their clients. For the personal data of people who sign in to the platform, the
        operator is the data controller. Where a broker firm instructs us to process data about its own clients and staff, we act as its
        processor under a data processing agreement.
      </p>
    ),
  },
  {
    id: 'data-we-collect',
    title: 'Data we collect',
    body: (
      <ul>
        <li>
          <strong>Account data:</strong> username, first and last name, e-mail address, role, and for broker users the branch, trader
          identifier and trader name your firm registers.
        </li>
        <li>
          <strong>Trading and audit records:</strong> orders received over FIX, the actions taken on them (accept, reject, fill, done for
          day) with the acting user and time, and the FIX messages exchanged with client connectors.
        </li>
        <li>
          <strong>Technical data:</strong> sign-in times, IP address, browser type and server logs needed to run and secure the service.
        </li>
        <li>
          <strong>Cookies and local storage:</strong> described in our{' '}
          <Anchor component={Link} to="/cookie-policy">
            Cookie Policy
          </Anchor>
          .
        </li>
      </ul>
    ),
  },
  {
    id: 'how-we-use-it',
    title: 'How we use it and on what legal basis',
    body: (
      <ul>
        <li>
          <strong>To provide the service</strong> (performance of a contract): signing you in, showing orders, recording fills and sending
          execution reports.
        </li>
        <li>
          <strong>To meet legal obligations:</strong> keeping order and communication records that regulated trading activity requires.
        </li>
        <li>
          <strong>For our legitimate interests:</strong> securing accounts, preventing misuse and diagnosing faults.
        </li>
        <li>
          <strong>With your consent:</strong> analytics and functional cookies, which you can refuse or withdraw at any time.
        </li>
      </ul>
    ),
  },
  {
    id: 'sharing',
    title: 'Who we share it with',
    body: (
      <>
        <p>
          Your firm can see the accounts and records of its own users. A client firm receives execution reports about its own orders. We use
          hosting and infrastructure providers bound by data processing agreements, and we disclose records to regulators or courts when the
          law requires it.
        </p>
        <p>We do not sell personal data and we do not use it for advertising.</p>
      </>
    ),
  },
  {
    id: 'international-transfers',
    title: 'International transfers',
    body: (
      <p>
        Where personal data leaves the European Economic Area, we rely on an adequacy decision or on the European Commission&apos;s standard
        contractual clauses, with additional safeguards where needed.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <p>
        Account data is kept while the account is active and deleted or anonymised afterwards unless a record must be kept. Order, action
        and FIX message records are kept for the period that applicable record-keeping rules require. Sign-in sessions expire after 24
        hours.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Connections are encrypted in transit, passwords are stored only as salted hashes, access is limited by role, and every order action
        is recorded with the user who took it.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <>
        <p>Under the GDPR you may ask us to:</p>
        <ul>
          <li>give you access to your personal data and a copy of it;</li>
          <li>correct inaccurate data, or erase data we no longer need;</li>
          <li>restrict or object to processing based on our legitimate interests;</li>
          <li>transfer data you provided to another service (portability);</li>
          <li>withdraw consent at any time, without affecting earlier processing.</li>
        </ul>
        <p>
          Records we must keep by law cannot be erased before their retention period ends. You may also complain to your data protection
          supervisory authority.
        </p>
      </>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Privacy questions and requests: {mail(CONTACT_EMAILS.privacy)}. Our Data Protection Officer can be reached at{' '}
        {mail(CONTACT_EMAILS.dataProtectionOfficer)}.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: <p>We will post any change on this page and update the date above; material changes are announced in the application.</p>,
  },
];

export default function PrivacyPolicyPage() {
  return (
    <LegalLayout
      title="Privacy Policy"
      intro={`This policy explains what personal data ${PRODUCT_NAME} processes when you use the platform, why, and the rights you have over it.`}
      sections={SECTIONS}
    />
  );
}
