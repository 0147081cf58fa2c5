import { z } from 'zod';

// The FIX specification page and the client's password-protected document (spec 001 §2, §5, §7, §8).
// The document model itself is packages/domain's FixSpecDocument.

/** Spec 001 §5, §8: the export dialog's messages, verbatim. */
export const SpecExportText = {
  required: 'Please fill in all required fields',
  mismatch: 'Passwords do not match',
  tooShort: 'Password must be at least 8 characters long',
  copyFailed: 'Failed to copy password to clipboard',
  generateFailed: (detail: string) => `Error generating FIX specification: ${detail}`,
} as const;

/** Spec 001 §9: the export password has at least 8 characters. */
const SPEC_EXPORT_PASSWORD_MIN = 8;
/** Long enough for any passphrase, short enough that PBKDF2 input stays small. */
const SPEC_EXPORT_PASSWORD_MAX = 256;

export interface SpecExportForm {
  clientName: string;
  senderCompId: string;
  clientContact: string;
  password: string;
  confirmPassword: string;
}

/** The export dialog's checks in the order of spec 001 §5; the first failure's message, or null. */
export function specExportProblem(f: SpecExportForm): string | null {
  if (!f.clientName.trim() || !f.senderCompId.trim() || !f.clientContact.trim() || !f.password) return SpecExportText.required;
  if (f.password !== f.confirmPassword) return SpecExportText.mismatch;
  if (f.password.length < SPEC_EXPORT_PASSWORD_MIN) return SpecExportText.tooShort;
  return null;
}

const required = (max: number) => z.string({ error: SpecExportText.required }).trim().min(1, SpecExportText.required).max(max);

/**
 * POST /api/generate-client-fix-spec (spec 001 §7). includeTabs are all forced true by the dialog;
 * brokerId is the executing broker (the connector's own when absent).
 */
export const GenerateClientFixSpecSchema = z.strictObject({
  clientName: required(200),
  senderCompId: required(64),
  targetCompId: z.string().trim().max(64).optional(),
  clientContact: required(200),
  password: z
    .string({ error: SpecExportText.required })
    .min(SPEC_EXPORT_PASSWORD_MIN, SpecExportText.tooShort)
    .max(SPEC_EXPORT_PASSWORD_MAX),
  includeTabs: z
    .strictObject({
      aboutFFA: z.literal(true),
      orderGeneration: z.literal(true),
      tradeLifecycle: z.literal(true),
      sessionInfo: z.literal(true),
    })
    .optional(),
  brokerId: z.coerce.number().int().positive().nullable().optional(),
});
export type GenerateClientFixSpecRequest = z.infer<typeof GenerateClientFixSpecSchema>;

/** GET /api/fix-specification: which connector (default SGX_CLIENT_1) and executing broker. */
export const FixSpecificationQuerySchema = z.strictObject({
  compId: z.string().trim().min(1).max(64).optional(),
  brokerId: z.coerce.number().int().positive().optional(),
});

/** One generated document, as the connector's Interactive FIX Spec tab lists it. */
export interface FixSpecVersion {
  version: number;
  generatedAt: string;
  generatedBy: string;
  clientName: string;
  clientContact: string;
  fileSha256: string;
}

export const FixSpecDiffQuerySchema = z.strictObject({
  from: z.coerce.number().int().positive(),
  to: z.coerce.number().int().positive(),
});

/** The response headers of the generated file: its version and hash (the body is the HTML). */
export const FIX_SPEC_VERSION_HEADER = 'x-fix-spec-version';
