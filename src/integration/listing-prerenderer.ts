/**
 * How Astro renders in a build (its public `setPrerenderer`): Astro's own prerenderer, but the
 * listing's pages are not Astro's to write. Astro renders the frame of a listing page in each
 * language (src/pages/listing-frame/), which the build writes every listing page from
 * (src/outputs/listing-pages.ts), and the listing's pages that the build checks its own against
 * (page-check.ts); neither is written by Astro. Everything else (the 404 page, the schemas, the
 * OpenAPI document) Astro renders and writes as it always does.
 */
import { createHash } from 'node:crypto';
import type { AstroPrerenderer } from 'astro';
import { LANGUAGES, type Language } from '../listing/languages.ts';
import type { AstroPage } from './page-check.ts';

/** The routes of the listing's pages, by their component: written by the build, rendered by Astro only to be checked. */
const LISTING_PAGES = new Set([
  'src/pages/index.astro',
  'src/pages/page/[page].astro',
  'src/pages/zh-hk/index.astro',
  'src/pages/zh-hk/page/[page].astro',
]);
const FRAME_ROUTE = 'src/pages/listing-frame/[language].astro';

/** Astro renders pages of this size before it keeps only their hash for the check (CHECK_PAGES=all on a large listing). */
const BYTES_KEPT = 64 * 1024 * 1024;

/** What Astro rendered of the listing: the frames once every one is rendered, then the pages to check the build's against. */
export interface ListingRenders {
  onFrames: (frames: Record<Language, string>) => void;
  onChecked: (pages: AstroPage[]) => void;
}

/** The site path of the page at `pathname` (build.format 'directory'). */
function fileOf(pathname: string): string {
  const folder = pathname.replace(/^\/+|\/+$/g, '');
  return folder === '' ? 'index.html' : `${folder}/index.html`;
}

/** A page's body as Astro rendered it; an error for anything but a page. */
async function rendered(
  astroDefault: AstroPrerenderer,
  pathname: string,
  routeData: Parameters<AstroPrerenderer['render']>[1]['routeData'],
) {
  const url = new URL(pathname.endsWith('/') ? pathname : `${pathname}/`, 'http://localhost');
  const result = await astroDefault.render(new Request(url), { routeData });
  const response = result instanceof Response ? result : result.response;
  if (response.status !== 200) throw new Error(`Astro answered ${pathname} with ${response.status}, not a page`);
  return Buffer.from(await response.arrayBuffer());
}

/** A prerenderer for `setPrerenderer`: Astro's own, with the listing's pages and frames taken out of what it writes. */
export function listingPrerenderer({ onFrames, onChecked }: ListingRenders): (astroDefault: AstroPrerenderer) => AstroPrerenderer {
  return (astroDefault) => ({
    ...astroDefault,
    name: 'listing:frames',
    getStaticPaths: async () => {
      const paths = await astroDefault.getStaticPaths();
      const frames: Partial<Record<Language, string>> = {};
      for (const { pathname, route } of paths.filter(({ route }) => route.component === FRAME_ROUTE)) {
        const language = LANGUAGES.find((each) => pathname.replace(/\/$/, '').endsWith(`/${each}`));
        if (language === undefined) throw new Error(`the frame route rendered ${pathname}, of no language`);
        frames[language] = (await rendered(astroDefault, pathname, route)).toString('utf8');
      }
      const missing = LANGUAGES.filter((language) => frames[language] === undefined);
      if (missing.length > 0) throw new Error(`Astro rendered no listing page frame in ${missing.join(', ')} (${FRAME_ROUTE})`);
      onFrames(frames as Record<Language, string>);
      const checked: AstroPage[] = [];
      let kept = 0;
      for (const { pathname, route } of paths.filter(({ route }) => LISTING_PAGES.has(route.component))) {
        const bytes = await rendered(astroDefault, pathname, route);
        kept += bytes.length;
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        checked.push({ path: fileOf(pathname), sha256, ...(kept <= BYTES_KEPT && { bytes }) });
      }
      onChecked(checked);
      return paths.filter(({ route }) => route.component !== FRAME_ROUTE && !LISTING_PAGES.has(route.component));
    },
  });
}
