import type { APIRoute } from 'astro';
import { openApiDocument } from '../listing/contract.ts';
import { getDataset } from '../integration/dataset.ts';
import { publisher } from 'virtual:listing/dataset';

/** The OpenAPI 3.1 description of the listing. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(openApiDocument(getDataset().addresses.baseUrl, publisher), null, 2), {
    headers: { 'Content-Type': 'application/json' },
  });
