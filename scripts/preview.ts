/** `npm run preview`: serves the built site as the origin would answer it, on HOST:PORT. */
import { loadConfigOrExit } from '../src/config.ts';
import { createPreviewServer } from '../src/serve/preview-server.ts';
import { LISTING_PATH } from '../src/listing/routes.ts';

const config = loadConfigOrExit();
const server = createPreviewServer({ outDir: config.outDir });
server.on('error', (error) => {
  console.error(`Cannot serve on ${config.host}:${config.port}: ${error.message}`);
  process.exit(1);
});
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  console.log(`Serving ${config.outDir}/ at ${origin}/`);
  console.log(`  listing: ${origin}${LISTING_PATH}?page=1`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
