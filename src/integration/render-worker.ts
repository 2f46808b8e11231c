/** A thread that renders and writes the listing's pages (render-threads.ts) with the prerender bundle's app. */
import { servePool } from '../threads.ts';
import { appOnThread, type RenderThreadInput } from './astro-internals.ts';
import { pageWriter, type RenderTask } from './render-threads.ts';

await servePool(async (input: RenderThreadInput & { renderDir: string; publishedSiteDir?: string }) => {
  const render = await appOnThread(input);
  const write = pageWriter(input.renderDir, input.publishedSiteDir);
  return async ({ url, route, publishedSha256 }: RenderTask) => write(url, await render(new Request(url), route), publishedSha256);
});
