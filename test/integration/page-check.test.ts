/**
 * The check every build makes of the listing pages it wrote against Astro's own rendering of them
 * (src/integration/page-check.ts): equal bytes pass; a page that differs stops the build with a
 * message naming it and where it differs.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPages } from '../../src/integration/page-check.ts';

const site = mkdtempSync(join(tmpdir(), 'page-check-'));
afterAll(() => rmSync(site, { recursive: true, force: true }));
mkdirSync(join(site, 'page/2'), { recursive: true });
const page = '<!DOCTYPE html><html><body><h1>Page 2 of 26</h1></body></html>';
writeFileSync(join(site, 'page/2/index.html'), page);
const astro = (html: string, kept = true) => {
  const bytes = Buffer.from(html);
  return { path: 'page/2/index.html', sha256: createHash('sha256').update(bytes).digest('hex'), ...(kept && { bytes }) };
};

describe('checkPages', () => {
  it('passes a page with the bytes Astro rendered', () => {
    expect(() => checkPages(site, [astro(page)], 'dist')).not.toThrow();
    expect(() => checkPages(site, [], 'dist')).not.toThrow();
  });

  it('names a page that differs, and where, with what each has there', () => {
    expect(() => checkPages(site, [astro(page.replace('Page 2', 'Page 3'))], 'dist')).toThrow(
      /The listing page page\/2\/index.html that the build wrote is not the page Astro renders \(at character 36: the build wrote …".*Page 2 of 26.*"…, Astro rendered …".*Page 3 of 26.*"…\)\.\n.*Nothing was published: dist\/ is unchanged\./,
    );
    expect(() => checkPages(site, [astro(`${page}\n`, false)], 'dist')).toThrow(/page\/2\/index.html .* \(its bytes differ\)/);
    // Said where it differs in characters, not bytes: a Chinese character is not cut.
    const chinese = '<p>第 2 頁</p>';
    writeFileSync(join(site, 'page/2/index.html'), chinese);
    expect(() => checkPages(site, [astro(chinese.replace('2', '3'))], 'dist')).toThrow(
      /at character 5: the build wrote …"<p>第 2 頁<\/p>"…/,
    );
  });
});
