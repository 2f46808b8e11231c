import type { APIRoute, GetStaticPaths } from 'astro';
import { getDataset, pagesToRender } from '../../../../../../integration/dataset.ts';
import { LISTING_HEADERS } from '../../../../../../listing/routes.ts';
import { serialisePage } from '../../../../../../listing/serialise.ts';

/** One JSON file per page of the listing: the full page envelope, as the origin writes it. */
export const getStaticPaths = (() => pagesToRender('json').map((page) => ({ params: { page: String(page) }, props: { page } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ page: number }> = ({ props }) => {
  const { addresses, records } = getDataset();
  return new Response(serialisePage(records, props.page, addresses), {
    headers: { 'Content-Type': LISTING_HEADERS['Content-Type'] },
  });
};
