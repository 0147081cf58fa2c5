import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BrokerText,
  LOGO_MAX_ATTRIBUTES,
  LOGO_MAX_COMMENTS,
  LOGO_MAX_DEPTH,
  LOGO_MAX_ELEMENT_ATTRIBUTES,
  LOGO_MAX_ELEMENTS,
} from '@fixdesk/protocol';
import { JSDOM } from 'jsdom';
import { measureSvgLogo, sanitizeSvgLogo as sanitize } from './svg-logo';

/** The logo as stored, or null when refused. */
const sanitizeSvgLogo = (svg: string) => {
  const r = sanitize(svg);
  return r.ok ? r.svg : null;
};
const reason = (svg: string) => {
  const r = sanitize(svg);
  return r.ok ? null : r.reason;
};

test('a plain logo keeps its shapes', () => {
  const out = sanitizeSvgLogo(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>',
  );
  assert.ok(out);
  assert.match(out, /<rect[^>]*fill="#123"/);
});

test('script, event handlers, foreignObject and external references are removed', () => {
  const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
    <script>alert(2)</script>
    <style>@import url(https://evil.example/x.css);</style>
    <foreignObject></foreignObject>
    <a href="javascript:alert(4)"><circle r="4" onclick="alert(5)"/></a>
    <image xlink:href="https://evil.example/track.png"/>
    <rect fill="url(https://evil.example/p)" width="2" height="2"/>
    <linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><rect fill="url(#g)" width="3" height="3"/>
  </svg>`;
  const out = sanitizeSvgLogo(hostile);
  assert.ok(out);
  for (const bad of ['<script', 'onload', 'onclick', 'alert', 'foreignObject', 'iframe', 'evil.example', 'javascript:', '@import']) {
    assert.ok(!out.includes(bad), `${bad} left in ${out}`);
  }
  assert.match(out, /fill="url\(#g\)"/); // a reference inside the logo stays
});

test('text that is no SVG is refused', () => {
  assert.equal(sanitizeSvgLogo('<img src=x onerror=alert(1)>'), null);
  assert.equal(sanitizeSvgLogo('hello'), null);
});

test('HTML inside the logo is refused before it is parsed, with the tag named', () => {
  assert.equal(
    reason('<svg><foreignObject><iframe src="javascript:alert(3)"></iframe></foreignObject></svg>'),
    BrokerText.logoHtml('<iframe> inside <foreignobject>'),
  );
  assert.equal(reason('<svg><g><div>x</div></g></svg>'), BrokerText.logoHtml('<div>'));
  assert.equal(reason('<div><svg></svg></div>'), BrokerText.logoHtml('<div>'));
  assert.equal(reason('<svg><title><g>x</g></title></svg>'), BrokerText.logoHtml('<g> inside <title>'));
  assert.equal(reason('<svg></p></svg>'), BrokerText.logoHtml('</p>'));
  // A title and a description of text are what logos have.
  assert.ok(
    sanitizeSvgLogo(
      '<?xml version="1.0"?><!DOCTYPE svg><svg viewBox="0 0 1 1"><title>ACME</title><desc>a &lt;logo&gt;</desc><rect width="1" height="1"/></svg>',
    ),
  );
});

// Unguarded, 12,000 nested <g> (84 KB) held the process for 26 s in the parser; 5,000 overflowed its stack.
const nested = (levels: number, open = '<g>', close = '</g>') =>
  `<svg xmlns="http://www.w3.org/2000/svg">${open.repeat(levels)}${close.repeat(levels)}</svg>`;

test('a logo nested too deep or with too many elements is refused at once, before any parse', () => {
  for (const [svg, why] of [
    [nested(12_000), BrokerText.logoTooDeep],
    [nested(5_000), BrokerText.logoTooDeep],
    [nested(LOGO_MAX_DEPTH), BrokerText.logoTooDeep], // with <svg>, one level more than allowed
    // Self-closed in one way the HTML parser does not see as closed: an unquoted value takes the /.
    [`<svg>${'<path d=M0/>'.repeat(LOGO_MAX_DEPTH + 1)}</svg>`, BrokerText.logoTooDeep],
    // End tags of elements that are not open close nothing.
    [`<svg>${'<g></x>'.repeat(LOGO_MAX_DEPTH + 1)}</svg>`, BrokerText.logoTooDeep],
    // A quote in an attribute's name opens no value; a comment may end at once.
    [`<svg>${"<g a\"b><!--><g c='>'>".repeat(LOGO_MAX_DEPTH)}</svg>`, BrokerText.logoTooDeep],
    [`<svg>${'<g/>'.repeat(LOGO_MAX_ELEMENTS + 1)}</svg>`, BrokerText.logoTooManyElements],
    // 60,000 attributes on one element held the parser for two minutes; comments cost DOMPurify as much.
    [`<svg><g ${Array.from({ length: 60_000 }, (_, i) => `a${i}="1"`).join(' ')}/></svg>`, BrokerText.logoTooManyAttributes],
    [
      `<svg><g ${Array.from({ length: LOGO_MAX_ELEMENT_ATTRIBUTES + 1 }, (_, i) => `a${i}=1`).join(' ')}/></svg>`,
      BrokerText.logoTooManyAttributes,
    ],
    [
      `<svg>${`<g ${Array.from({ length: 50 }, (_, i) => `a${i}='1'`).join(' ')}/>`.repeat(LOGO_MAX_ATTRIBUTES / 50 + 1)}</svg>`,
      BrokerText.logoTooManyAttributes,
    ],
    [`<svg><text>${'x<!---->'.repeat(LOGO_MAX_COMMENTS + 1)}</text></svg>`, BrokerText.logoTooManyComments],
    [`<svg>${'<?x?><![CDATA[a]]></9>'.repeat(LOGO_MAX_COMMENTS)}</svg>`, BrokerText.logoTooManyComments],
  ] as const) {
    const t0 = performance.now();
    assert.equal(reason(svg), why, svg.slice(0, 80));
    assert.ok(performance.now() - t0 < 200, `${svg.slice(0, 40)}: ${performance.now() - t0} ms`);
  }
});

test("a real logo's shapes pass: deep enough, many elements, comments, CDATA, self-closed and quoted values", () => {
  const group = (d: number): string =>
    d === 0 ? '<path d="M0 0h1/>"/><circle r=\'1\' />' : `<g id="g${d}"><!-- level ${d} --><rect width="1"/>${group(d - 1)}</g>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg"><defs><style><![CDATA[ .a>b { } <g> ]]></style></defs>${group(LOGO_MAX_DEPTH - 3)}${'\n  <path d="M0 0" fill="#123" stroke="none"/>'.repeat(LOGO_MAX_ELEMENTS - 3 * LOGO_MAX_DEPTH)}</svg>`;
  const t0 = performance.now();
  assert.equal(reason(svg), null);
  assert.deepEqual(measureSvgLogo(svg).html, null);
  // Parsed and sanitised in a few hundred milliseconds at the limits (seconds on a loaded machine).
  assert.ok(performance.now() - t0 < 10_000, `${performance.now() - t0} ms`);
});

/** The deepest element and the number of elements of what the HTML parser made of a logo (as DOMPurify parses it). */
function parsed(svg: string): { depth: number; elements: number; attributes: number; mostAttributes: number; comments: number } {
  // As DOMPurify parses it: the text alone as an HTML document (nothing after it that a tag left open could take).
  const { window } = new JSDOM(svg);
  const body = window.document.body;
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  let mostAttributes = 0;
  let comments = 0;
  const walk = (node: Node, d: number) => {
    if (node.nodeType === window.Node.COMMENT_NODE) comments++;
    if (node.nodeType !== window.Node.ELEMENT_NODE) return;
    const el = node as Element;
    elements++;
    attributes += el.attributes.length;
    mostAttributes = Math.max(mostAttributes, el.attributes.length);
    depth = Math.max(depth, d);
    for (const child of Array.from(el.childNodes)) walk(child, d + 1);
  };
  for (const child of Array.from(body.childNodes)) walk(child, 1);
  return { depth, elements, attributes, mostAttributes, comments };
}

test('the pass never counts fewer levels, elements, attributes or comments than the parser builds (random tag soup)', () => {
  const pieces = [
    '<svg>',
    '</svg>',
    '<g>',
    '</g>',
    '<G>',
    '<g/>',
    '<g />',
    '<g / >',
    '<path d=x/>',
    "<path d='/>'/>",
    '<path d="a>b"/>',
    '<a>',
    '</a>',
    '<x:y/>',
    '<x:y>',
    '</x:y>',
    '<title>',
    '</title>',
    '<desc>',
    '<g a=1 a=2 b>',
    '<g =x c="d"e>',
    '<g/a/b>',
    '<!--',
    '-->',
    '--!>',
    '<!-->',
    '<![CDATA[',
    ']]>',
    '>',
    '"',
    "'",
    '=',
    '/',
    ' ',
    'x',
    '<',
    '</',
    '<!',
    '<?',
    '</g ',
    '<g a"',
    '<style>',
    '</style>',
    '<text>',
    '</text>',
  ];
  let seed = Number(process.env.SVG_SEED ?? 34);
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const limits = { depth: 1_000, elements: 1_000, attributes: 1_000, elementAttributes: 1_000, comments: 1_000 };
  const soups = Number(process.env.SVG_SOUPS ?? 1500);
  let checked = 0;
  for (let i = 0; i < soups; i++) {
    const svg =
      '<svg>' + Array.from({ length: 1 + Math.floor(random() * 40) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    const ours = measureSvgLogo(svg, limits);
    if (ours.html) continue;
    checked++;
    const theirs = parsed(svg);
    const fewer = (['depth', 'elements', 'attributes', 'mostAttributes', 'comments'] as const).filter((k) => ours[k] < theirs[k]);
    assert.deepEqual(fewer, [], `${JSON.stringify(svg)}: ours ${JSON.stringify(ours)}, parser ${JSON.stringify(theirs)}`);
  }
  assert.ok(checked > soups / 3, `only ${checked} soups without HTML`);
});
