/** The records every route of the peer pages through, read once when the build first imports them, and their JSON pages. */
import { pageNumbers } from '../../../../src/listing/pagination.ts';
import { serialisePage } from '../../../../src/listing/serialise.ts';
import { ADDRESSES, peerCsv, readRecords } from '../../listing.ts';

export const records = readRecords(peerCsv());
export const jsonPageNumbers = (): number[] => pageNumbers(records.length);
export const jsonPage = (page: number): string => serialisePage(records, page, ADDRESSES);
