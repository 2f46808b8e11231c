import type { APIRoute } from 'astro';
import { pageJsonSchema } from '../../listing/contract.ts';
import { getDataset } from '../../integration/dataset.ts';

/** The JSON Schema of a page envelope. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(pageJsonSchema(getDataset().addresses.baseUrl), null, 2), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
