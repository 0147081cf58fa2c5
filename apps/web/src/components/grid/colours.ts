import type { ColourToken } from '@fixdesk/domain';

/**
 * The domain's colour tokens (packages/domain format.ts) drawn with the theme's palette. Only the
 * mapping lives here; which status gets which token is decided in the domain package.
 */
export const TOKEN_MANTINE: Record<ColourToken, string> = {
  blue: 'blue',
  green: 'green',
  red: 'red',
  grey: 'gray',
  darkGrey: 'dark',
  lightGrey: 'gray',
  yellow: 'yellow',
  orange: 'orange',
  purple: 'grape',
  teal: 'teal',
  pink: 'pink',
};

/** Text and accents: a shade that reads on white. */
export function tokenCss(token: ColourToken): string {
  switch (token) {
    case 'lightGrey':
      return 'var(--mantine-color-gray-5)';
    case 'darkGrey':
      return 'var(--mantine-color-dark-4)';
    case 'yellow':
      return 'var(--mantine-color-yellow-8)';
    default:
      return `var(--mantine-color-${TOKEN_MANTINE[token]}-7)`;
  }
}

/** A light fill for a cell background or a badge. */
export function tokenFill(token: ColourToken): string {
  if (token === 'darkGrey') return 'var(--mantine-color-dark-0)';
  return `var(--mantine-color-${TOKEN_MANTINE[token]}-1)`;
}
