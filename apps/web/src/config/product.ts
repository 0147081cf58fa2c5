/**
 * Names and addresses the product shows about itself. Contact addresses depend on the
 * deployment, so they come from the build environment; the defaults use a reserved
 * domain that can never deliver mail to a stranger.
 */
export const PRODUCT_NAME = 'FixDesk';

const contactDomain = import.meta.env.VITE_CONTACT_DOMAIN || 'fixdesk.example';

export const CONTACT_EMAILS = {
  support: import.meta.env.VITE_SUPPORT_EMAIL || `support@${contactDomain}`,
  privacy: import.meta.env.VITE_PRIVACY_EMAIL || `privacy@${contactDomain}`,
  dataProtectionOfficer: import.meta.env.VITE_DPO_EMAIL || `dpo@${contactDomain}`,
} as const;
