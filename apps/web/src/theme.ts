import {
  Alert,
  Anchor,
  Badge,
  Button,
  createTheme,
  Menu,
  Notification,
  Paper,
  PasswordInput,
  Switch,
  Table,
  TextInput,
  Tooltip,
  type MantineColorsTuple,
} from '@mantine/core';

/** The desk's action blue: a calm, slightly steely blue that reads well on white and navy. */
const desk: MantineColorsTuple = [
  '#eaf2ff',
  '#d3e2fb',
  '#a5c2f2',
  '#74a0ea',
  '#4c83e3',
  '#3371df',
  '#2467dd',
  '#1656c5',
  '#0b4cb1',
  '#00419d',
];

/** The chrome: the navigation bar and dark panels. Shade 9 is the bar itself. */
const navy: MantineColorsTuple = [
  '#eef2f8',
  '#dce3ee',
  '#b5c3da',
  '#8ca1c6',
  '#6a85b5',
  '#5473ab',
  '#476aa7',
  '#385892',
  '#1a2d4d',
  '#0c1a2e',
];

const fontStack =
  "'Inter Variable', Inter, -apple-system, BlinkMacSystemFont, 'Segoe UI', 'Liberation Sans', Roboto, Helvetica, Arial, sans-serif";

export const theme = createTheme({
  primaryColor: 'desk',
  primaryShade: { light: 7, dark: 5 },
  colors: { desk, navy },
  fontFamily: fontStack,
  fontFamilyMonospace: "'JetBrains Mono', 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace",
  fontSmoothing: true,
  defaultRadius: 'sm',
  cursorType: 'pointer',
  focusRing: 'auto',
  white: '#ffffff',
  black: '#0f1b2d',
  // A dense desk: smaller steps than Mantine's defaults, readable at 100% zoom on a trading screen.
  fontSizes: {
    xs: '0.6875rem',
    sm: '0.8125rem',
    md: '0.875rem',
    lg: '1rem',
    xl: '1.125rem',
  },
  lineHeights: { xs: '1.4', sm: '1.45', md: '1.55', lg: '1.6', xl: '1.65' },
  spacing: {
    xs: '0.5rem',
    sm: '0.625rem',
    md: '0.875rem',
    lg: '1.25rem',
    xl: '1.75rem',
  },
  radius: { xs: '2px', sm: '4px', md: '6px', lg: '10px', xl: '16px' },
  shadows: {
    xs: '0 1px 2px rgba(12, 26, 46, 0.06)',
    sm: '0 1px 3px rgba(12, 26, 46, 0.08), 0 1px 2px rgba(12, 26, 46, 0.04)',
    md: '0 4px 14px rgba(12, 26, 46, 0.10), 0 2px 4px rgba(12, 26, 46, 0.05)',
    lg: '0 12px 32px rgba(12, 26, 46, 0.14)',
    xl: '0 24px 60px rgba(12, 26, 46, 0.18)',
  },
  headings: {
    fontFamily: fontStack,
    fontWeight: '650',
    sizes: {
      h1: { fontSize: '2rem', lineHeight: '1.2' },
      h2: { fontSize: '1.375rem', lineHeight: '1.3' },
      h3: { fontSize: '1.0625rem', lineHeight: '1.35' },
      h4: { fontSize: '0.9375rem', lineHeight: '1.4' },
    },
  },
  components: {
    Button: Button.extend({ defaultProps: { size: 'sm', radius: 'sm' } }),
    TextInput: TextInput.extend({ defaultProps: { size: 'sm' } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { size: 'sm' } }),
    Badge: Badge.extend({ defaultProps: { radius: 'sm', variant: 'light' } }),
    Menu: Menu.extend({ defaultProps: { shadow: 'md', radius: 'md', withinPortal: true } }),
    Tooltip: Tooltip.extend({ defaultProps: { withArrow: true, openDelay: 50, closeDelay: 70 } }),
    Paper: Paper.extend({ defaultProps: { radius: 'md' } }),
    Alert: Alert.extend({ defaultProps: { radius: 'md', variant: 'light' } }),
    Anchor: Anchor.extend({ defaultProps: { underline: 'hover' } }),
    Switch: Switch.extend({ defaultProps: { size: 'sm' } }),
    Table: Table.extend({ defaultProps: { verticalSpacing: 6, horizontalSpacing: 'sm' } }),
    Notification: Notification.extend({ defaultProps: { radius: 'md' } }),
  },
});
