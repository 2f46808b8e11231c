import type { APIRoute } from 'astro';
import { recordJsonSchema } from '../../listing/contract.ts';
import { getDataset } from '../../integration/dataset.ts';

/** The JSON Schema of one record. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(recordJsonSchema(getDataset().addresses.baseUrl), null, 2), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
