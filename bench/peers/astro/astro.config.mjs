// The plain Astro peer (bench/peers.ts runs it): Astro's own static build, nothing of ours but the
// serialiser and the route names. Where it writes comes from the environment the bench gives it.
import { defineConfig } from 'astro/config';

export default defineConfig({
  outDir: process.env.PEER_OUT,
  cacheDir: process.env.PEER_CACHE,
  build: { format: 'directory' },
  telemetry: false,
});
