import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sanitizeSvgLogo } from './svg-logo';

test('a plain logo keeps its shapes', () => {
  const out = sanitizeSvgLogo('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>');
  assert.ok(out);
  assert.match(out, /<rect[^>]*fill="#123"/);
});

test('script, event handlers, foreignObject and external references are removed', () => {
  const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
    <script>alert(2)</script>
    <style>@import url(https://evil.example/x.css);</style>
    <foreignObject><iframe src="javascript:alert(3)"></iframe></foreignObject>
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
