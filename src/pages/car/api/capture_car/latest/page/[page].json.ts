import type { APIRoute, GetStaticPaths } from 'astro';
import { getDataset } from '../../../../../../lib/dataset.ts';
import { pageNumbers } from '../../../../../../lib/listing.ts';
import { LISTING_HEADERS } from '../../../../../../lib/routes.ts';
import { serialisePage } from '../../../../../../lib/serialise.ts';

/** One JSON file per page of the listing: the full page envelope, as the origin writes it. */
export const getStaticPaths = (() =>
  pageNumbers(getDataset().records.length).map((page) => ({ params: { page: String(page) }, props: { page } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ page: number }> = ({ props }) => {
  const { config, records } = getDataset();
  return new Response(serialisePage(records, props.page, config), {
    headers: { 'Content-Type': LISTING_HEADERS['Content-Type'] },
  });
};
