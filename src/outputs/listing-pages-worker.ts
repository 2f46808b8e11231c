/** Writes a run of the listing's pages on a worker thread (`startListingPages`), noting its progress; answers with `writeListingPages`'s. */
import { serveThread } from '../threads.ts';
import { writeListingPages, type ListingPagesInput, type WrittenListingPages } from './listing-pages.ts';

await serveThread<ListingPagesInput, WrittenListingPages, number>(writeListingPages);
