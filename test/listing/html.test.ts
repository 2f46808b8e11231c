/**
 * The one escaping function of the pages (src/listing/html.ts) is Astro's: the same bytes for any
 * text, so that a page the build writes and the page Astro renders cannot differ in how a value
 * is escaped. If Astro moves or changes its `escapeHTML`, this names it.
 */
import { escapeHTML } from 'astro/runtime/server/escape.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attribute, escapeHtml } from '../../src/listing/html.ts';

const CORPUS = [
  '',
  'Toyota Alphard 2.5 Hybrid',
  '豐田 Toyota Alphard',
  `&<>"'`,
  '<script>alert(1)</script>',
  '" onmouseover="alert(1)',
  "' autofocus onfocus='x",
  '&amp; already escaped &lt;',
  '🚗 Model 😀 & <b>',
  'a\u0000b\u2028c',
];

describe('escapeHtml', () => {
  it("escapes as Astro's own rendering escapes, for the corpus and any text", () => {
    for (const text of CORPUS) expect(escapeHtml(text), text).toBe(escapeHTML(text));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", 'a', '豐', '😀', ' ', '=') }), (text) => {
        expect(escapeHtml(text)).toBe(escapeHTML(text));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(escapeHtml(text)).toBe(escapeHTML(text));
      }),
    );
  });

  it('leaves no character that ends a text or an attribute', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(escapeHtml(text)).not.toMatch(/[<>"']/);
      }),
    );
  });
});

describe('attribute', () => {
  it('is an escaped name="value", and nothing for a missing value', () => {
    expect(attribute('href', '/page/2/')).toBe(' href="/page/2/"');
    expect(attribute('alt', `Toyota "GR" <b>`)).toBe(' alt="Toyota &quot;GR&quot; &lt;b&gt;"');
    expect(attribute('max', 26)).toBe(' max="26"');
    expect(attribute('id', undefined)).toBe('');
    expect(attribute('id', null)).toBe('');
  });
});
