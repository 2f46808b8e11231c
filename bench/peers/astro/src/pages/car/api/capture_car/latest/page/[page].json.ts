/** Every JSON page of the listing, one static endpoint a page, from our serialiser. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { jsonPage, jsonPageNumbers } from '../../../../../../records.ts';

export const getStaticPaths = (() => jsonPageNumbers().map((page) => ({ params: { page: String(page) } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) => new Response(jsonPage(Number(params['page'])));
