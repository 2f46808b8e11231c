import { describe, expect, it } from 'vitest';
import { renderedOnce } from '../../src/components/rendered-once.ts';

/** A render that counts its calls and settles when told. */
function countedRender(html: string) {
  let calls = 0;
  let settle: (value: string) => void = () => undefined;
  const render = () => {
    calls += 1;
    return new Promise<string>((resolve) => (settle = resolve));
  };
  return { render, calls: () => calls, finish: () => settle(html) };
}

describe('renderedOnce', () => {
  it('renders once for the pages under way together and the pages after them', async () => {
    const scope = {};
    const search = countedRender('<form>en</form>');
    const underWay = [renderedOnce(scope, 'en 259', search.render), renderedOnce(scope, 'en 259', search.render)];
    search.finish();
    expect(await Promise.all(underWay)).toEqual(['<form>en</form>', '<form>en</form>']);
    expect(await renderedOnce(scope, 'en 259', search.render)).toBe('<form>en</form>');
    expect(search.calls()).toBe(1);
  });

  it('renders again for another key or another scope (another build’s listing)', async () => {
    const scope = {};
    await renderedOnce(scope, 'en 259', () => Promise.resolve('en'));
    expect(await renderedOnce(scope, 'zh-hk 259', () => Promise.resolve('zh'))).toBe('zh');
    expect(await renderedOnce(scope, 'en 260', () => Promise.resolve('en, 260'))).toBe('en, 260');
    expect(await renderedOnce({}, 'en 259', () => Promise.resolve('another build'))).toBe('another build');
    expect(await renderedOnce(scope, 'en 259', () => Promise.resolve('not asked'))).toBe('en');
  });

  it('gives a failed render’s error to every page that waited for it, and renders again for the next page', async () => {
    const scope = {};
    let fail!: (error: Error) => void;
    const failing = new Promise<string>((_resolve, reject) => (fail = reject));
    const waiting = [renderedOnce(scope, 'en', () => failing), renderedOnce(scope, 'en', () => Promise.resolve('not asked'))];
    fail(new Error('no such make'));
    for (const page of waiting) await expect(page).rejects.toThrow('no such make');
    expect(await renderedOnce(scope, 'en', () => Promise.resolve('rendered again'))).toBe('rendered again');
  });
});
