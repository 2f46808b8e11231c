import type { APIRoute, GetStaticPaths } from 'astro';
import { getDataset, getPageKeys } from '../../../../../../integration/dataset.ts';
import { pageNumbers } from '../../../../../../listing/pagination.ts';
import { LISTING_HEADERS } from '../../../../../../listing/routes.ts';
import { serialisePage } from '../../../../../../listing/serialise.ts';

/** One JSON file per page of the listing: the full page envelope, as the origin writes it. */
export const getStaticPaths = (() => {
  const keys = getPageKeys();
  return pageNumbers(getDataset().records.length).map((page) => ({
    params: { page: String(page) },
    props: { page },
    ...(keys && { cacheKey: keys.json[page - 1]! }),
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ page: number }> = ({ props }) => {
  const { addresses, records } = getDataset();
  return new Response(serialisePage(records, props.page, addresses), {
    headers: { 'Content-Type': LISTING_HEADERS['Content-Type'] },
  });
};
