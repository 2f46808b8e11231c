/**
 * `npm run check-live` as a pull request runs it: the live site is the preview server holding
 * build A; a fresh checkout builds B (a clean build, no store); the check reads the live site and
 * reports what publishing B changes. Then B is built over A, as the push that merges it does, and
 * its `changes.json` must say exactly the rows and URLs the check said.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Changes } from '../../src/listing/documents.ts';
import { buildSite, fixture, freePort, projectCopy, runScript, startPreview, tempDir, type RunningPreview } from '../support/site.ts';

const workspace = tempDir('live-check');
const project = projectCopy(workspace);
const addresses = { BASE_URL: 'https://cars.example.com', ASSETS_URL: 'https://img.example.com' };
const liveDist = join(workspace, 'live/dist');
const checkoutDist = join(workspace, 'checkout/dist');

const [header, ...rows] = readFileSync(fixture('listing-23.csv'), 'utf8').trimEnd().split('\n') as [string, ...string[]];
const MAX_PRICE = header.split(',').indexOf('max_price');
/** Build B: row 5 removed, row 9's max_price changed, two rows added (ids 901, 902): 24 rows, 3 pages as before. */
const edited = [
  ...rows
    .filter((row) => !row.startsWith('5,'))
    .map((row) => (row.startsWith('9,') ? row.split(',').with(MAX_PRICE, '999999').join(',') : row)),
  ...[901, 902].map((id) => `${id},豐田 Toyota Added ${id},${id},5,7,1496,1998,200000,250000,true,false,${id},`),
];
const dataB = join(project, 'data/b.csv');
writeFileSync(dataB, `${[header, ...edited].join('\n')}\n`);

let live: RunningPreview | undefined;
beforeAll(async () => {
  buildSite({ ...addresses, DATA_FILE: fixture('listing-23.csv'), OUT_DIR: liveDist }, project);
  live = await startPreview({ OUT_DIR: liveDist });
});
afterAll(async () => {
  await live?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('npm run check-live', () => {
  it("reports the rows and URLs that the build of B then publishes in changes.json, as text, the job summary's Markdown and JSON", () => {
    buildSite({ ...addresses, DATA_FILE: 'data/b.csv', OUT_DIR: checkoutDist }, project);
    const summary = join(workspace, 'summary.md');
    const reportFile = join(workspace, 'report.json');
    const check = runScript(
      'check-live.ts',
      { ...addresses, DATA_FILE: 'data/b.csv', OUT_DIR: checkoutDist, LIVE_URL: live!.origin, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
      { root: project, args: ['--json', reportFile] },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { rows: Changes['rows']; urls: string[]; files: Changes['files'] };

    buildSite({ ...addresses, DATA_FILE: 'data/b.csv', OUT_DIR: liveDist }, project);
    const changes = JSON.parse(readFileSync(join(liveDist, 'changes.json'), 'utf8')) as Changes;
    expect(changes.rows).toEqual({ added: [901, 902], removed: [5], changed: [{ id: 9, fields: ['max_price'] }] });
    expect(report.rows).toEqual(changes.rows);
    // The check names the change document by the id of the build it compared; the build published has its own.
    const checkedBuild = (JSON.parse(readFileSync(join(checkoutDist, 'manifest.json'), 'utf8')) as { buildId: string }).buildId;
    const asPublished = (text: string) => text.replace(checkedBuild, changes.buildId);
    expect(report.urls.map(asPublished).sort()).toEqual([...changes.urls].sort());
    expect(report.files.changed.map(asPublished).sort()).toEqual([...changes.files.changed].sort());
    expect(report.files.removed).toEqual(changes.files.removed);
    expect(changes.urls).toContain('https://cars.example.com/car/api/capture_car/latest?page=1');

    expect(check.stdout).toContain(`data/b.csv against the live site ${live!.origin}`);
    expect(check.stdout).toContain('rows: +2 −1 ~1 rows');
    expect(check.stdout).toContain('changed (id: fields): 9: max_price');
    expect(check.stdout).toMatch(/shrink guard: passes: 1 of the 23 published rows removed \(4\.3 %; the limit is 20 %\)/);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toContain(`### What this data publishes on ${live!.origin}`);
    expect(markdown).toContain('| rows | +2 −1 ~1 rows |');
    expect(markdown).toContain(`- https://cars.example.com/car/api/capture_car/latest?page=1`);
  });

  it('refuses data that removes more than a fifth of the live rows, and lets it through with ALLOW_SHRINK=1', () => {
    const cut = join(project, 'data/cut.csv');
    writeFileSync(cut, `${[header, ...rows.slice(0, 10)].join('\n')}\n`);
    const dist = join(workspace, 'cut/dist');
    buildSite({ ...addresses, DATA_FILE: 'data/cut.csv', OUT_DIR: dist }, project);
    const environment = { ...addresses, DATA_FILE: 'data/cut.csv', OUT_DIR: dist, LIVE_URL: live!.origin };
    const refused = runScript('check-live.ts', environment, { root: project });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/shrink guard: refuses: 15 of the 24 published rows removed/);
    expect(refused.stderr).toContain('The shrink guard refuses this data');
    expect(runScript('check-live.ts', { ...environment, ALLOW_SHRINK: '1' }, { root: project }).status).toBe(0);
  });

  it('says what it cannot do: no live address, a build of other data, a live site that does not answer', async () => {
    const skipped = runScript('check-live.ts', { OUT_DIR: checkoutDist }, { root: project });
    expect(skipped.status).toBe(0);
    expect(skipped.stdout).toContain('check-live: skipped: set LIVE_URL (or BASE_URL)');
    const otherData = runScript('check-live.ts', { ...addresses, OUT_DIR: checkoutDist, LIVE_URL: live!.origin }, { root: project });
    expect(otherData.status).toBe(1);
    expect(otherData.stderr).toContain(`is built from another version of data/captured-car-models.csv: run npm run build`);
    const noData = runScript('check-live.ts', { ...addresses, DATA_FILE: 'data/none.csv', OUT_DIR: checkoutDist, LIVE_URL: live!.origin }, { root: project });
    expect(noData.status).toBe(1);
    expect(noData.stderr).toMatch(/^data\/none\.csv: does not exist \(ENOENT\)/);
    // A port no server listens on.
    const closedPort = await freePort();
    const gone = runScript('check-live.ts', { ...addresses, DATA_FILE: 'data/b.csv', OUT_DIR: checkoutDist, LIVE_URL: `http://127.0.0.1:${closedPort}` }, { root: project });
    expect(gone.status).toBe(1);
    expect(gone.stderr).toMatch(/^The live site cannot be read: http:\/\/127\.0\.0\.1:\d+\/manifest\.json cannot be reached \(ECONNREFUSED\)/);
    expect(gone.stderr).not.toMatch(/\n\s+at /);
  });
});
