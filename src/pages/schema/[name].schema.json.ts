import type { APIRoute, GetStaticPaths } from 'astro';
import { JSON_SCHEMAS, jsonSchemaDocument } from '../../listing/contract.ts';
import { getDataset } from '../../integration/dataset.ts';

type Name = keyof typeof JSON_SCHEMAS;

/** One file per JSON Schema of the contract: `/schema/page.schema.json`, … */
export const getStaticPaths = (() => Object.keys(JSON_SCHEMAS).map((name) => ({ params: { name } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) =>
  new Response(JSON.stringify(jsonSchemaDocument(params['name'] as Name, getDataset().addresses.baseUrl), null, 2), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
