import { Anchor, Mark } from '@mantine/core';
import { Link } from 'react-router';
import { CONTACT_EMAILS, PRODUCT_NAME } from '../../config/product';
import { LegalLayout, type LegalSection } from './LegalLayout';

/** Terms the operator has not settled yet; shown as placeholders on purpose (spec 001 §2). */
const TERMS_PLACEHOLDERS = { jurisdiction: '[JURISDICTION]', arbitrationBody: '[ARBITRATION BODY]' } as const;

const MINIMUM_AGE = 18;
const UPTIME_TARGET = '99.9%';
const CHANGE_NOTICE_DAYS = 30;

const placeholder = (text: string) => (
  <Mark color="yellow" px={3}>
    {text}
  </Mark>
);

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of these terms',
    body: (
      <p>
        By signing in to or using {PRODUCT_NAME} you agree to these terms on behalf of yourself and the firm you represent. If you do not
        agree, do not use the platform.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Who may use the platform',
    body: (
      <>
        <p>
          {PRODUCT_NAME} is provided only to financial institutions, brokers and qualified entities, and to individuals authorised by them.
          It is not offered to consumers.
        </p>
        <p>You must be at least {MINIMUM_AGE} years old and authorised by your firm to use the platform on its behalf.</p>
      </>
    ),
  },
  {
    id: 'the-service',
    title: 'The service',
    body: (
      <p>
        {PRODUCT_NAME} receives client orders over FIX connections, lets brokers accept, reject and fill them, and reports executions back
        to the client. It does not itself execute trades on any exchange and does not give investment, legal or tax advice. Each broker firm
        remains responsible for how it handles orders and for its regulatory obligations.
      </p>
    ),
  },
  {
    id: 'accounts',
    title: 'Accounts and security',
    body: (
      <ul>
        <li>Keep your credentials confidential; you are responsible for activity under your account.</li>
        <li>Sessions end automatically 24 hours after sign-in.</li>
        <li>
          Tell us at once at <Anchor href={`mailto:${CONTACT_EMAILS.support}`}>{CONTACT_EMAILS.support}</Anchor> if you suspect unauthorised
          use.
        </li>
      </ul>
    ),
  },
  {
    id: 'records',
    title: 'Orders and records',
    body: (
      <p>
        Every order, order action and FIX message is recorded with its time and, for actions, the acting user. These electronic records are
        evidence of the instructions given and actions taken, except in case of manifest error.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <ul>
        <li>Do not attempt to access data or functions your role does not permit.</li>
        <li>Do not interfere with the platform, its FIX sessions or other users&apos; connections.</li>
        <li>Do not use the platform for any unlawful purpose, including market abuse.</li>
      </ul>
    ),
  },
  {
    id: 'availability',
    title: 'Service availability',
    body: (
      <p>
        We target {UPTIME_TARGET} uptime measured monthly, excluding maintenance announced in advance. This is a target, not a guarantee;
        trading decisions should not depend on the platform being available at any particular moment.
      </p>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual property',
    body: (
      <p>
        The platform, its software and documentation remain our property or that of our licensors. Your firm keeps all rights in its own
        order and client data.
      </p>
    ),
  },
  {
    id: 'data-protection',
    title: 'Confidentiality and data protection',
    body: (
      <p>
        We treat your firm&apos;s orders and client data as confidential and process personal data as described in the{' '}
        <Anchor component={Link} to="/privacy-policy">
          Privacy Policy
        </Anchor>
        .
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    body: (
      <p>
        To the extent the law allows, we are not liable for indirect or consequential loss, loss of profit or trading losses arising from
        use of, or inability to use, the platform. Nothing in these terms limits liability that cannot be limited by law.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Suspension and termination',
    body: (
      <p>
        We may suspend access to protect the platform or its users, or where these terms are breached. Records required by law are kept
        after termination for their retention period.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We will give at least {CHANGE_NOTICE_DAYS} days&apos; notice of material changes to these terms. Continuing to use the platform
        after a change takes effect means you accept the new terms.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law and disputes',
    body: (
      <p>
        These terms are governed by the laws of {placeholder(TERMS_PLACEHOLDERS.jurisdiction)}. Any dispute arising from them shall be
        finally resolved by arbitration administered by {placeholder(TERMS_PLACEHOLDERS.arbitrationBody)}.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms: <Anchor href={`mailto:${CONTACT_EMAILS.support}`}>{CONTACT_EMAILS.support}</Anchor>.
      </p>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalLayout
      title="Terms and Conditions"
      intro={`These terms govern the use of ${PRODUCT_NAME} by financial institutions, brokers and qualified entities and the people they authorise.`}
      sections={SECTIONS}
    />
  );
}
