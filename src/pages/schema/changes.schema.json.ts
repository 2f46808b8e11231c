import type { APIRoute } from 'astro';
import { changesJsonSchema } from '../../lib/contract.ts';
import { getDataset } from '../../lib/dataset.ts';

/** The JSON Schema of `changes.json`. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(changesJsonSchema(getDataset().addresses.baseUrl), null, 2), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
