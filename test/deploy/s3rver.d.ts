/** The part of s3rver's programmatic API the deploy test uses: the package ships no types. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    /** 0: a free port, chosen when the server listens (see run()). */
    port?: number;
    silent?: boolean;
    /** Where the buckets and objects are kept. */
    directory: string;
    /** Buckets created before the server listens. */
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Creates the configured buckets, then listens; resolves with the address it listens on. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
