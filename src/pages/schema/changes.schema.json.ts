import type { APIRoute } from 'astro';
import { changesJsonSchema } from '../../listing/contract.ts';
import { getDataset } from '../../integration/dataset.ts';

/** The JSON Schema of `changes.json`. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(changesJsonSchema(getDataset().addresses.baseUrl), null, 2), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
