import type { APIRoute, GetStaticPaths } from 'astro';
import { getDataset } from '../../../../../../lib/dataset.ts';
import { pageNumbers } from '../../../../../../lib/listing.ts';
import { jsonPageKey } from '../../../../../../lib/page-keys.ts';
import { LISTING_HEADERS } from '../../../../../../lib/routes.ts';
import { serialisePage } from '../../../../../../lib/serialise.ts';

/** One JSON file per page of the listing: the full page envelope, as the origin writes it. */
export const getStaticPaths = (() => {
  const { addresses, records } = getDataset();
  return pageNumbers(records.length).map((page) => ({
    params: { page: String(page) },
    props: { page },
    cacheKey: jsonPageKey(records, page, addresses),
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ page: number }> = ({ props }) => {
  const { addresses, records } = getDataset();
  return new Response(serialisePage(records, props.page, addresses), {
    headers: { 'Content-Type': LISTING_HEADERS['Content-Type'] },
  });
};
