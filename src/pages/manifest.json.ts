import type { APIRoute } from 'astro';
import { getDataset } from '../lib/dataset.ts';
import { buildManifest } from '../lib/manifest.ts';

/** What this build holds: the preview server, deploy steps and consumers read it. */
export const GET: APIRoute = () => {
  const dataset = getDataset();
  return new Response(JSON.stringify(buildManifest(dataset), null, 2), {
    headers: { 'Content-Type': 'application/json' },
  });
};
