import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BrokerText } from '@fixdesk/protocol';
import { logoFileProblem, logoSrc } from './logo';

test('a logo must be an SVG under 500KB (spec 001 §5)', () => {
  assert.equal(logoFileProblem({ name: 'logo.svg', type: 'image/svg+xml', size: 1000 }), null);
  assert.equal(logoFileProblem({ name: 'LOGO.SVG', type: '', size: 1000 }), null);
  assert.equal(logoFileProblem({ name: 'logo.png', type: 'image/png', size: 1000 }), BrokerText.svgOnly);
  assert.equal(logoFileProblem({ name: 'logo.svg', type: 'image/svg+xml', size: 512_000 }), BrokerText.logoTooLarge);
  assert.equal(logoFileProblem({ name: 'logo.svg', type: 'image/svg+xml', size: 511_999 }), null);
});

test('a stored logo becomes an image source (a data: URL), never markup', () => {
  assert.equal(logoSrc(null), null);
  assert.equal(logoSrc(''), null);
  const src = logoSrc('<svg xmlns="http://www.w3.org/2000/svg"><text>Café</text></svg>')!;
  assert.match(src, /^data:image\/svg\+xml;base64,/);
  assert.equal(
    Buffer.from(src.split(',')[1]!, 'base64').toString('utf8'),
    '<svg xmlns="http://www.w3.org/2000/svg"><text>Café</text></svg>',
  );
});
