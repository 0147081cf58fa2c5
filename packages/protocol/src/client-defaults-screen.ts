import { type AdminFields } from './admin-fields';

// The FIX Client Defaults screen (spec 001 §2 "Client FIX field defaults", §5, §8).

/** Spec 001 §7: the message types the screen offers (defaults are written for D, AB, F, G, 8 and 9). */
export const CLIENT_DEFAULT_SCREEN_MSG_TYPES = ['D', 'AB', 'F', 'G', 'AC', '8', '0', '1', '2', '4', '5', 'A'] as const;

/**
 * Tags the FIX Client's order forms set from a dropdown (side, order type, time in force, symbol,
 * contract month, exchange, security type): a default would fight the form, so the screen shows them
 * with a lock badge and offers neither edit nor delete (spec 001 §2, §5 "protected list").
 */
const DROPDOWN_CONTROLLED_TAGS: readonly number[] = [54, 40, 59, 55, 200, 100, 167];
export const isDropdownControlledTag = (tag: number) => DROPDOWN_CONTROLLED_TAGS.includes(tag);

/** Spec 001 §2: the variable chips show the first 12 variables. */
export const VARIABLE_CHIPS = 12;

/** Spec 001 §5 and §8: the screen's texts. */
export const ClientDefaultsText = {
  fillRequired: 'Please fill in all required fields',
  confirmDelete: 'Are you sure you want to delete this default?',
  missingGroupData: 'Missing required data',
  confirmDeleteInstance: (block: string, n: number) => `Delete instance ${n} of ${block}?`,
  fetchFieldsFailed: 'Failed to fetch message fields',
  fetchFieldsError: (message: string) => `Error fetching message fields: ${message}`,
  previewFailed: 'Failed to generate preview',
  previewError: (detail: string) => `Error generating preview: ${detail}`,
  saveFailed: 'Failed to save default',
  deleteFailed: 'Failed to delete default',
  saveGroupFailed: 'Failed to save repeating group',
  deleteGroupFailed: 'Failed to delete repeating group',
  created: 'Default created successfully',
  selectClient: 'Please select a client connector',
} as const;

/** The default's form (the modal): the rest of the payload comes from the screen's selectors. */
export interface ClientDefaultFormInput {
  tag?: unknown;
  default_value?: unknown;
  notes?: unknown;
}

export const CLIENT_DEFAULT_FIELDS: AdminFields<ClientDefaultFormInput> = {
  tag: {
    name: 'tag',
    label: 'Tag',
    kind: 'integer',
    required: true,
    placeholder: 'e.g. 1 (Account)',
    description: 'FIX field number; read-only when editing',
    lockedOnEdit: 'Read-only when editing',
  },
  default_value: {
    name: 'default_value',
    label: 'Default Value',
    kind: 'text',
    required: true,
    maxLength: 500,
    description: 'Text or %VARIABLES%, e.g. %COMP_ID%',
    span: 2,
  },
  notes: { name: 'notes', label: 'Notes', kind: 'textarea', maxLength: 1000, span: 2 },
};

/** Spec 001 §3: the next instance number is the highest existing plus 1, starting at 1. */
export function nextInstanceNumber(existing: readonly number[]): number {
  return existing.reduce((max, n) => Math.max(max, n), 0) + 1;
}
