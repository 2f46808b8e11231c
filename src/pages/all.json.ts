import type { APIRoute } from 'astro';
import { getDataset } from '../lib/dataset.ts';
import { exportJson } from '../lib/export.ts';

/** Every record in listing order, as one JSON array. */
export const GET: APIRoute = () => {
  const { config, records } = getDataset();
  return new Response(exportJson(records, config.assetsUrl), { headers: { 'Content-Type': 'application/json' } });
};
