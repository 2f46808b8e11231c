import type { APIRoute } from 'astro';
import { getDataset } from '../lib/dataset.ts';
import { buildSearchIndex } from '../lib/search.ts';
import { logoUrl } from '../lib/serialise.ts';

/** The compact index the browsable pages search in. */
export const GET: APIRoute = () => {
  const { config, records } = getDataset();
  const index = buildSearchIndex(records, (logo) => logoUrl(logo, config.assetsUrl) ?? '');
  return new Response(JSON.stringify(index), { headers: { 'Content-Type': 'application/json' } });
};
