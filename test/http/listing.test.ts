/** The listing over real HTTP from the real preview server serving the real build of the fixture. */
import { inject } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';

listingBehaviour({ origin: () => inject('origin'), outDir: inject('outDir'), baseUrl: inject('baseUrl') });
