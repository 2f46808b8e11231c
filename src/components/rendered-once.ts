/**
 * HTML Astro rendered for one page, given to every later page that would render the same (see
 * SameOnEveryPage.astro). Kept for as long as its scope object lives (the make table of a build's
 * listing), so that nothing outlives the data it was made from.
 */
const rendered = new WeakMap<object, Map<string, Promise<string>>>();

/**
 * The HTML `render` gives for `key` in `scope`, rendered by the first caller only: the pages under
 * way at once (astro.config.mjs, `build.concurrency`) wait for that one render, not each their own.
 */
export function renderedOnce(scope: object, key: string, render: () => Promise<string>): Promise<string> {
  let byKey = rendered.get(scope);
  if (byKey === undefined) rendered.set(scope, (byKey = new Map()));
  let html = byKey.get(key);
  if (html === undefined) {
    const rendering = render();
    byKey.set(key, rendering);
    // Not swallowed: every caller awaits `rendering` and gets its error. This only forgets it, so that the next page renders again.
    rendering.catch(() => byKey.delete(key));
    html = rendering;
  }
  return html;
}
