import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

// A broker's logo is SVG text an administrator uploads (issue 18). Before it is stored it goes through
// DOMPurify (SVG profile, in a jsdom window): no script, no event handlers, no foreignObject, no
// external references (an href that is not a fragment is dropped, so is a url() that is not a fragment
// in a style). The screens show it as an <img> of a data: URL as well, where a browser runs no script
// whatever the file holds.

let purifier: ReturnType<typeof createDOMPurify> | undefined;
function purify(): ReturnType<typeof createDOMPurify> {
  if (!purifier) {
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

/** The logo made safe, or null when what is left is no SVG image (the upload is refused). */
export function sanitizeSvgLogo(svg: string): string | null {
  const clean = purify().sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, FORBID_TAGS: ['foreignObject', 'style', 'script'], FORBID_ATTR: ['style'] });
  const text = String(clean).trim();
  return /^<svg[\s>]/i.test(text) ? text : null;
}
