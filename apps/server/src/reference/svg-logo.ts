import {
  BrokerText,
  LOGO_MAX_ATTRIBUTES,
  LOGO_MAX_COMMENTS,
  LOGO_MAX_DEPTH,
  LOGO_MAX_ELEMENT_ATTRIBUTES,
  LOGO_MAX_ELEMENTS,
} from '@fixdesk/protocol';
import { createRequire } from 'node:module';
import type createDOMPurifyType from 'dompurify';
import type * as jsdomTypes from 'jsdom';

// A broker's logo is SVG text an administrator uploads. Before it is stored it goes through
// DOMPurify (SVG profile, in a jsdom window): no script, no event handlers, no foreignObject, no
// external references (an href that is not a fragment is dropped, so is a url() that is not a fragment
// in a style). The screens show it as an <img> of a data: URL as well, where a browser runs no script
// whatever the file holds.

// jsdom and DOMPurify are loaded when the first logo is cleaned, not when the server starts: loading
// jsdom took 1.2 to 2 s of CPU, a quarter of a server's start, for a screen an administrator uses rarely.
const load = createRequire(import.meta.url);

let purifier: ReturnType<typeof createDOMPurifyType> | undefined;
function purify(): ReturnType<typeof createDOMPurifyType> {
  if (!purifier) {
    const { JSDOM } = load('jsdom') as typeof jsdomTypes;
    const createDOMPurify = load('dompurify') as typeof createDOMPurifyType;
    const { window } = new JSDOM('');
    purifier = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purifier.addHook('uponSanitizeAttribute', (_node, data) => {
      const name = data.attrName.toLowerCase();
      const value = data.attrValue.trim();
      if ((name === 'href' || name === 'xlink:href' || name === 'src') && !value.startsWith('#')) data.keepAttr = false;
      if (/url\(\s*['"]?(?!#)/i.test(value) || /@import/i.test(value)) data.keepAttr = false;
    });
    purifier.addHook('uponSanitizeElement', (node, data) => {
      // <style> may import or fetch: an uploaded logo keeps its presentation attributes only.
      if (data.tagName === 'style') node.parentNode?.removeChild(node);
    });
  }
  return purifier;
}

// The parse itself is the danger. jsdom's HTML parser takes quadratic time in the nesting
// depth (12,000 nested <g>, 84 KB, held the process for 26 s; 5,000 overflowed the stack), in one
// element's attributes (60,000 on one <g>: 2 minutes), and DOMPurify in the comments it removes; every
// element, attribute and text costs its part too. So before anything parses the text, one linear pass
// counts its elements, how deep they nest, their attributes and the comments, the way the HTML parser
// will read them (DOMPurify parses as text/html). Inside <svg>
// (foreign content) every element may close itself (<path/>), and an end tag closes the nearest open
// element of its name or is ignored: the pass keeps the same stack. HTML is refused: a tag that breaks
// out of the SVG (<div>, <p>, ...), anything outside <svg>, and elements inside <title>, <desc> or
// <foreignObject> (read by HTML rules there), because HTML's rules (implied elements, formatting
// elements re-opened at every tag) nest deeper than a linear pass can tell; a logo has no HTML, and
// the sanitiser would remove it anyway.

/** Start tags that end SVG (foreign) content in the HTML parser (HTML spec 13.2.6.5), with font. */
const BREAKOUT = new Set(
  'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var font'.split(
    ' ',
  ),
);
/** SVG elements whose children the HTML parser reads as HTML. */
const HTML_INSIDE = new Set(['title', 'desc', 'foreignobject']);

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isSpace = (c: number) => c === 9 || c === 10 || c === 12 || c === 13 || c === 32;

export interface SvgLogoShape {
  /** Start tags read. */
  readonly elements: number;
  /** The deepest nesting reached. */
  readonly depth: number;
  /** Attributes of start tags, in all and on the element with the most. */
  readonly attributes: number;
  readonly mostAttributes: number;
  /** Comments, CDATA sections, processing instructions, doctypes and what the parser reads as comments. */
  readonly comments: number;
  /** The first tag that is HTML rather than SVG, or where SVG holds no elements; null when none. */
  readonly html: string | null;
}

export interface SvgLogoLimits {
  readonly depth: number;
  readonly elements: number;
  readonly attributes: number;
  readonly elementAttributes: number;
  readonly comments: number;
}

const LIMITS: SvgLogoLimits = {
  depth: LOGO_MAX_DEPTH,
  elements: LOGO_MAX_ELEMENTS,
  attributes: LOGO_MAX_ATTRIBUTES,
  elementAttributes: LOGO_MAX_ELEMENT_ATTRIBUTES,
  comments: LOGO_MAX_COMMENTS,
};

/**
 * A logo's elements, nesting, attributes and comments as the HTML parser will build them, read without
 * parsing (linear in the text's length); it stops at the first HTML tag or once past any limit.
 */
export function measureSvgLogo(svg: string, limits: SvgLogoLimits = LIMITS): SvgLogoShape {
  const n = svg.length;
  const stack: string[] = [];
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  let mostAttributes = 0;
  let comments = 0;
  const after = (from: number, end: string) => {
    const at = svg.indexOf(end, from);
    return at < 0 ? n : at + end.length;
  };
  const shape = (html: string | null = null): SvgLogoShape => ({ elements, depth, attributes, mostAttributes, comments, html });
  let i = svg.indexOf('<');
  while (i >= 0 && i < n) {
    const c1 = svg.charCodeAt(i + 1);
    if (c1 === 33 /* ! */ || c1 === 63 /* ? */ || (c1 === 47 /* / */ && !isAsciiLetter(svg.charCodeAt(i + 2)))) {
      if (svg.startsWith('<!--', i)) {
        // A comment ends at once (<!--> and <!--->) or at the first --> or --!> after its <!--, as the
        // HTML tokenizer has it.
        const body = i + 4;
        if (svg[body] === '>') i = body + 1;
        else if (svg.startsWith('->', body)) i = body + 2;
        else i = Math.min(after(body, '-->'), after(body, '--!>'));
      } else if (svg.startsWith('<![CDATA[', i)) {
        // In SVG content a CDATA section ends at ]]>; in HTML content (and in <title>, <desc> and
        // <foreignObject>) it is a comment ending at the first >.
        const top = stack[stack.length - 1];
        i = top === undefined || HTML_INSIDE.has(top) ? after(i, '>') : after(i + 9, ']]>');
      } else {
        i = after(i, '>'); // doctype, processing instruction, bogus comment (</9 too; </> is dropped)
      }
      if (++comments > limits.comments) return shape();
    } else if (c1 === 47 /* / */) {
      const tag = readTag(svg, i + 2);
      i = tag.end;
      // </p> and </br> break out of SVG content as their start tags do.
      if (tag.name === 'p' || tag.name === 'br') return shape(`</${tag.name}>`);
      const open = stack.lastIndexOf(tag.name);
      if (open >= 0) stack.length = open;
    } else if (isAsciiLetter(c1)) {
      const tag = readTag(svg, i + 1);
      i = tag.end;
      elements++;
      attributes += tag.attributes;
      mostAttributes = Math.max(mostAttributes, tag.attributes);
      const top = stack[stack.length - 1];
      if (BREAKOUT.has(tag.name) || (top === undefined && tag.name !== 'svg')) return shape(`<${tag.name}>`);
      if (top !== undefined && HTML_INSIDE.has(top)) return shape(`<${tag.name}> inside <${top}>`);
      depth = Math.max(depth, stack.length + 1);
      if (!tag.selfClosing) stack.push(tag.name);
      if (elements > limits.elements || depth > limits.depth || attributes > limits.attributes || mostAttributes > limits.elementAttributes)
        return shape();
    } else {
      i++; // a < in text
    }
    i = svg.indexOf('<', i);
  }
  return shape();
}

/** Why the logo is refused before it is parsed (HTML in it, too deep, too many of anything), or null. */
function svgLogoShapeProblem(svg: string): string | null {
  const shape = measureSvgLogo(svg);
  if (shape.html) return BrokerText.logoHtml(shape.html);
  if (shape.depth > LOGO_MAX_DEPTH) return BrokerText.logoTooDeep;
  if (shape.elements > LOGO_MAX_ELEMENTS) return BrokerText.logoTooManyElements;
  if (shape.attributes > LOGO_MAX_ATTRIBUTES || shape.mostAttributes > LOGO_MAX_ELEMENT_ATTRIBUTES) return BrokerText.logoTooManyAttributes;
  if (shape.comments > LOGO_MAX_COMMENTS) return BrokerText.logoTooManyComments;
  return null;
}

/**
 * A tag from its name (at `from`, just after < or </) to its >, read as the HTML tokenizer reads it
 * (its attributes counted, a repeated name too):
 * quotes only delimit an attribute's value, and a tag closes itself only by a / just before its >
 * that is not part of an unquoted value (<path d=x/> stays open).
 */
function readTag(svg: string, from: number): { name: string; selfClosing: boolean; attributes: number; end: number } {
  const n = svg.length;
  let i = from;
  let attributes = 0;
  while (i < n && !isSpace(svg.charCodeAt(i)) && svg[i] !== '/' && svg[i] !== '>') i++;
  const name = svg.slice(from, i).toLowerCase();
  let slash = false; // the last thing read was a / outside any value
  while (i < n) {
    const c = svg[i]!;
    if (c === '>') return { name, selfClosing: slash, attributes, end: i + 1 };
    if (c === '/') {
      slash = true;
      i++;
      continue;
    }
    slash = false;
    if (isSpace(svg.charCodeAt(i))) {
      i++;
      continue;
    }
    // An attribute's name (its first character may be =), then maybe = and a value.
    attributes++;
    i++;
    while (i < n && !isSpace(svg.charCodeAt(i)) && svg[i] !== '/' && svg[i] !== '>' && svg[i] !== '=') i++;
    while (i < n && isSpace(svg.charCodeAt(i))) i++;
    if (svg[i] !== '=') continue;
    i++;
    while (i < n && isSpace(svg.charCodeAt(i))) i++;
    const q = svg[i];
    if (q === '"' || q === "'") {
      const close = svg.indexOf(q, i + 1);
      i = close < 0 ? n : close + 1;
    } else {
      while (i < n && !isSpace(svg.charCodeAt(i)) && svg[i] !== '>') i++;
    }
  }
  return { name, selfClosing: false, attributes, end: n };
}

export type SvgLogoResult = { ok: true; svg: string } | { ok: false; reason: string };

/**
 * The logo made safe, or why it is refused: too deep or too many elements (checked before any parse),
 * or nothing of an SVG image left once sanitised.
 */
export function sanitizeSvgLogo(svg: string): SvgLogoResult {
  const problem = svgLogoShapeProblem(svg);
  if (problem) return { ok: false, reason: problem };
  const clean = purify().sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['foreignObject', 'style', 'script'],
    FORBID_ATTR: ['style'],
  });
  const text = String(clean).trim();
  return /^<svg[\s>]/i.test(text) ? { ok: true, svg: text } : { ok: false, reason: BrokerText.svgOnly };
}
