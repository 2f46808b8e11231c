/** Every host configuration, generated from the route table for one built listing. */
import { ERROR_FILES } from '../../listing/routes.ts';
import { apacheFiles } from './apache.ts';
import { cloudflareFiles } from './cloudflare.ts';
import { netlifyFiles } from './netlify.ts';
import { nginxFiles } from './nginx.ts';
import type { HostFile, HostInput } from './shared.ts';
import { vercelFiles } from './vercel.ts';

export type { HostFile, HostInput } from './shared.ts';

export async function hostFiles(input: HostInput, deployDir: string): Promise<HostFile[]> {
  return [
    // The error bodies as files, for hosts that answer an error with a file (Netlify, Vercel).
    ...Object.values(ERROR_FILES).map(({ file, body }): HostFile => ({ place: 'site', path: file, content: body })),
    ...(await netlifyFiles(input, deployDir)),
    ...(await vercelFiles(input)),
    ...nginxFiles(input),
    ...apacheFiles(input),
    ...(await cloudflareFiles(input, deployDir)),
  ];
}
