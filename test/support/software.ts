/**
 * Software a suite needs from outside npm's tree (Debian's nginx, apache2, Chromium, the AWS CLI,
 * rsync; Netlify's and Vercel's local tools installed apart). CI installs all of it (.ci/run), so
 * there a missing one is a failure; elsewhere its suite is skipped, loudly, naming what to install.
 */

/** Whether the suite runs: yes where the software is there or under CI=true (it then fails); else no, with a warning. */
export function runsWith(available: boolean, suite: string, missing: string, install: string): boolean {
  if (available || process.env['CI'] === 'true') return true;
  console.warn(`${missing} is not installed: skipping ${suite} (${install})`);
  return false;
}
