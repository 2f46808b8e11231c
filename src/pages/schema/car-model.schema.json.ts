import type { APIRoute } from 'astro';
import { recordJsonSchema } from '../../lib/contract.ts';
import { getDataset } from '../../lib/dataset.ts';

/** The JSON Schema of one record. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(recordJsonSchema(getDataset().addresses.baseUrl), null, 2), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
