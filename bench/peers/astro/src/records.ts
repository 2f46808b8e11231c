/** The records every route of the peer pages through, read once when the build first imports them, and their pages. */
import type { GetStaticPaths } from 'astro';
import { PAGE_SIZE, pageNumbers } from '../../../../src/listing/pagination.ts';
import { serialisePage } from '../../../../src/listing/serialise.ts';
import { ADDRESSES, peerCsv, readRecords } from '../../listing.ts';

const records = readRecords(peerCsv());
export const jsonPageNumbers = (): number[] => pageNumbers(records.length);
export const jsonPage = (page: number): string => serialisePage(records, page, ADDRESSES);
/** The HTML pages of a language: Astro's paginate, PAGE_SIZE records a page. */
export const htmlPagePaths = (({ paginate }) => paginate(records, { pageSize: PAGE_SIZE })) satisfies GetStaticPaths;
