/** A download's whole text by the definition of `RecordText`, for tests: the real writer is `writeDownloadFiles`. */
import type { RecordText } from '../../src/data/records-file.ts';
import type { CarModel } from '../../src/data/schema.ts';

/** Its start, each record's text with the separator between two, its end. */
export const textOf = (text: RecordText, records: readonly CarModel[]): string =>
  `${text.start}${records.map(text.record).join(text.separator)}${text.end}`;
