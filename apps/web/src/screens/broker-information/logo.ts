import { BrokerText, LOGO_MAX_BYTES } from '@fixdesk/protocol';

/** A stored (sanitised) SVG logo as an image source: shown in an <img>, where a browser runs no script. */
export function logoSrc(svg: string | null | undefined): string | null {
  if (!svg) return null;
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** Spec 001 §5: an SVG only, under 500KB. Null when the file will do. */
export function logoFileProblem(file: { name: string; type: string; size: number }): string | null {
  if (file.type !== 'image/svg+xml' && !file.name.toLowerCase().endsWith('.svg')) return BrokerText.svgOnly;
  if (file.size >= LOGO_MAX_BYTES) return BrokerText.logoTooLarge;
  return null;
}
