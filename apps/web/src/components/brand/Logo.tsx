import { Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../config/product';
import classes from './Logo.module.css';

/** The product mark: two opposed arrows, an order going out and its execution coming back. */
export function LogoMark({ size = 26 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1a3a66" />
      <path d="M8 11h12l-3-3" fill="none" stroke="#4da3ff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M24 21H12l3 3" fill="none" stroke="#7ee0b5" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

interface LogoProps {
  to: string;
  /** 'onDark' on the navy bar, 'onLight' on white surfaces. */
  tone?: 'onDark' | 'onLight';
  size?: 'sm' | 'md';
}

export function Logo({ to, tone = 'onDark', size = 'md' }: LogoProps) {
  return (
    <Link to={to} className={classes.link} data-tone={tone} aria-label={`${PRODUCT_NAME} home`}>
      <Group gap={8} wrap="nowrap">
        <LogoMark size={size === 'sm' ? 22 : 26} />
        <Text component="span" className={classes.wordmark} fz={size === 'sm' ? 15 : 17}>
          Fix<span className={classes.accent}>Desk</span>
        </Text>
      </Group>
    </Link>
  );
}
