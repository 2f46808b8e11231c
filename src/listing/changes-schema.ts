/** The schema of `changes.json`, part of the listing's contract (published as a JSON Schema). */
import { z } from 'zod';
import { FIELDS } from '../data/schema.ts';

export const changesSchema = z
  .object({
    previousDataSha256: z.string().nullable().describe('SHA-256 of the data file of the site this build replaced; null for a first build.'),
    dataSha256: z.string().describe('SHA-256 of the data file of this build.'),
    rows: z.object({
      added: z.array(z.int()).describe('ids of rows that are new.'),
      removed: z.array(z.int()).describe('ids of rows that are gone.'),
      changed: z
        .array(z.object({ id: z.int(), fields: z.array(z.enum(FIELDS)) }))
        .describe('Rows whose published fields changed, with those fields.'),
    }),
    urls: z.array(z.url()).describe('Every URL whose answer changed, query forms included: what a CDN purge needs.'),
  })
  .meta({ title: 'Changes of the last build', description: 'What the last build changed in the site it replaced.' });

export type Changes = z.infer<typeof changesSchema>;
