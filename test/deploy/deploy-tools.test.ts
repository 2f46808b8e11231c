/**
 * The deploy commands README recommends, really run after each build of a run of edits:
 * `aws s3 sync --delete` (Debian's AWS CLI against s3rver, a local S3 server) and
 * `rsync -a --delete`. Neither compares bytes: aws uploads a file whose size differs or that is
 * newer than the object, rsync copies one whose size or time differs. So what reaches the host
 * rests on the build's promises about times: a file whose bytes changed is newer than the one it
 * replaces, a file whose bytes did not change keeps its time.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { describesBuild, projectCopy, projectRoot, runBuild, tempDir, treeHashes } from '../support/site.ts';
import { runsWith } from '../support/software.ts';

const AWS = '/usr/bin/aws';
const RSYNC = '/usr/bin/rsync';

const runs = runsWith(existsSync(AWS) && existsSync(RSYNC), 'the deploy suite', 'the AWS CLI or rsync', 'apt-get install awscli rsync');

const BUCKET = 'site';
/** Written anew by a build (they describe the build), so they may travel whatever their bytes. */
const withoutPerBuild = (files: readonly string[]) => files.filter((file) => !describesBuild(file));

const [header, ...shippedRows] = readFileSync(join(projectRoot, 'data/captured-car-models.csv'), 'utf8').replace(/\r?\n$/, '').split(/\r?\n/) as [string, ...string[]];
/** Five pages, the last with one row: a build of a few seconds, and removing a row removes a page, so deletions travel too. */
const rows = shippedRows.slice(0, 41);
const csv = (lines: readonly string[]) => `${[header, ...lines].join('\n')}\n`;

const MAX_PRICE = header.split(',').indexOf('max_price');
const EDITED_ROW = 3;
const shippedPrice = rows[EDITED_ROW]!.split(',')[MAX_PRICE]!;
// The same number of characters: aws uploads a file whose size changed whatever its time, so
// only an edit that keeps every size tests the times.
const editedPrice = shippedPrice.replace(/^\d+/, (digits) => String(Number(digits) + 1000));
/** The shipped rows with the edited row's max_price set (the fields have no quoted commas). */
const withPrice = (price: string) => rows.map((line, index) => (index === EDITED_ROW ? line.split(',').with(MAX_PRICE, price).join(',') : line));

const workspace = tempDir('deploy-tools');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
/** The project the builds run in: a copy of its own, so that other files' builds run beside this one's (vitest.config.ts). */
const project = projectCopy(join(workspace, 'maintainer'));
/** The commands run in the workspace, so that they name the site `dist/` as README does. */
const dist = join(workspace, 'dist');
const mirror = join(workspace, 'mirror');

const foldersIn = (dir: string) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();

const NO_DIFFERENCE = { missing: [], extra: [], otherBytes: [] };
/** Files of `expected` absent from `actual`, files only in `actual`, and files with other bytes. */
function treeDifferences(expected: Record<string, string>, actual: Record<string, string>) {
  return {
    missing: Object.keys(expected).filter((file) => !(file in actual)).sort(),
    extra: Object.keys(actual).filter((file) => !(file in expected)).sort(),
    otherBytes: Object.keys(expected).filter((file) => file in actual && actual[file] !== expected[file]).sort(),
  };
}

const execute = promisify(execFile);
async function command(file: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  // Asynchronous: the S3 server answering the CLI runs in this process.
  const { stdout } = await execute(file, args, { cwd: workspace, env, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/**
 * The CLI's environment: dummy credentials for s3rver, nothing of the caller's AWS settings (a
 * profile, an endpoint or a region of one's own must not send these commands anywhere else), and
 * no instance metadata lookup, which would go to the network.
 */
const awsEnvironment: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_'))),
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_CONFIG_FILE: join(workspace, 'no-aws-config'),
  AWS_SHARED_CREDENTIALS_FILE: join(workspace, 'no-aws-credentials'),
  AWS_PAGER: '',
};

interface Publication {
  /** Files whose bytes differ from the previous build's, new files included. */
  changed: string[];
  /** The previous build's files and folders this build has not. */
  removedFiles: string[];
  removedFolders: string[];
  /** Keys `aws s3 sync` uploaded and deleted, by its output, and any other line it printed. */
  uploaded: string[];
  deleted: string[];
  otherAwsOutput: string[];
  /** Files rsync copied and files and folders it deleted, by its itemized changes. */
  copied: string[];
  rsyncDeletedFiles: string[];
  rsyncDeletedFolders: string[];
}

describe.runIf(runs)('the deploy commands after each build: aws s3 sync --delete, rsync -a --delete', () => {
  let s3: S3rver | undefined;
  let endpoint = '';
  beforeAll(async () => {
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(workspace, 's3'), configureBuckets: [{ name: BUCKET }] });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await s3?.close();
  });
  const aws = (...args: string[]) => command(AWS, ['--endpoint-url', endpoint, ...args], awsEnvironment);

  let previousFiles: Record<string, string> = {};
  let previousFolders: string[] = [];
  let builds = 0;

  /** Builds `lines` into dist/, then publishes dist/ with both commands, as README says. */
  async function publish(lines: readonly string[]): Promise<Publication> {
    // Both tools see times to the second (S3 keeps an object's upload time to the second): a
    // build in the same second as the last publication could not be told from it.
    if (builds > 0) await sleep(1100);
    const dataFile = join(workspace, `data-${builds++}.csv`);
    writeFileSync(dataFile, csv(lines));
    const build = runBuild({
      DATA_FILE: dataFile,
      OUT_DIR: dist,
      DEPLOY_DIR: join(workspace, 'deploy'),
      BASE_URL: 'https://cars.example.com',
      ASSETS_URL: 'https://img.example.com/logos',
    }, project);
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    const files = treeHashes(dist);
    const folders = foldersIn(dist);

    const publication: Publication = {
      changed: Object.keys(files).filter((file) => files[file] !== previousFiles[file]).sort(),
      removedFiles: Object.keys(previousFiles).filter((file) => !(file in files)).sort(),
      removedFolders: previousFolders.filter((folder) => !folders.includes(folder)).sort(),
      uploaded: [],
      deleted: [],
      otherAwsOutput: [],
      copied: [],
      rsyncDeletedFiles: [],
      rsyncDeletedFolders: [],
    };
    previousFiles = files;
    previousFolders = folders;

    // And the other way round: an upload in the same second as the build would be kept as older
    // than the files it uploaded (S3 truncates to the second), and they would all travel again.
    await sleep(1100);
    const syncOutput = await aws('s3', 'sync', 'dist/', `s3://${BUCKET}/`, '--delete', '--no-progress');
    for (const line of syncOutput.split('\n').filter(Boolean)) {
      const upload = new RegExp(`^upload: dist/.* to s3://${BUCKET}/(.+)$`).exec(line);
      const deletion = new RegExp(`^delete: s3://${BUCKET}/(.+)$`).exec(line);
      if (upload) publication.uploaded.push(upload[1]!);
      else if (deletion) publication.deleted.push(deletion[1]!);
      else publication.otherAwsOutput.push(line);
    }

    const rsyncOutput = await command(RSYNC, ['-a', '--delete', '--itemize-changes', 'dist/', 'mirror/']);
    for (const line of rsyncOutput.split('\n').filter(Boolean)) {
      // `YXcstpoguax name`: 11 characters of changes, a space, the name; folders end in '/'.
      const [changes, name] = [line.slice(0, 11).trimEnd(), line.slice(12)];
      if (changes === '*deleting') (name.endsWith('/') ? publication.rsyncDeletedFolders : publication.rsyncDeletedFiles).push(name.replace(/\/$/, ''));
      // '>f': the file's bytes were sent; other lines only set a folder's or a file's attributes.
      else if (changes.startsWith('>f')) publication.copied.push(name);
    }
    for (const list of [publication.uploaded, publication.deleted, publication.copied, publication.rsyncDeletedFiles, publication.rsyncDeletedFolders]) list.sort();
    return publication;
  }

  /** The bucket and the rsync target hold dist/ exactly, and only what changed travelled. */
  async function expectPublished(publication: Publication): Promise<void> {
    const files = treeHashes(dist);
    const listing = JSON.parse(await aws('s3api', 'list-objects-v2', '--bucket', BUCKET, '--output', 'json')) as {
      Contents?: { Key: string; ETag: string }[];
    };
    expect.soft((listing.Contents ?? []).map((object) => object.Key).sort(), 'the keys in the bucket').toEqual(Object.keys(files).sort());
    // An object's ETag is the MD5 of its bytes where it was uploaded in one part, as aws s3 sync
    // uploads every file under 8 MiB (all of these): the bucket's bytes, without downloading them
    // (aws s3 cp of the whole bucket took 1.6 s a build).
    const md5s = Object.fromEntries(Object.keys(files).map((file) => [file, createHash('md5').update(readFileSync(join(dist, file))).digest('hex')]));
    const etags = Object.fromEntries((listing.Contents ?? []).map(({ Key, ETag }) => [Key, ETag.replaceAll('"', '')]));
    expect.soft(treeDifferences(md5s, etags), 'the bucket against dist/ (each object’s ETag, the MD5 of its bytes)').toEqual(NO_DIFFERENCE);

    expect.soft(treeDifferences(files, treeHashes(mirror)), 'the rsync target against dist/').toEqual(NO_DIFFERENCE);
    expect.soft(foldersIn(mirror), 'the rsync target’s folders').toEqual(foldersIn(dist));
    // rsync -a copies a link as a link: one into the build's own folders would be broken on a host.
    const links = readdirSync(mirror, { withFileTypes: true, recursive: true }).filter((entry) => !entry.isFile() && !entry.isDirectory());
    expect.soft(links.map((entry) => relative(mirror, join(entry.parentPath, entry.name))), 'the rsync target holds only files and folders').toEqual([]);

    expect.soft(publication.otherAwsOutput, 'aws s3 sync printed only uploads and deletions').toEqual([]);
    expect.soft(withoutPerBuild(publication.uploaded), 'uploaded by aws s3 sync: the files whose bytes changed').toEqual(withoutPerBuild(publication.changed));
    expect.soft(publication.deleted, 'deleted by aws s3 sync: the files gone from dist/').toEqual(publication.removedFiles);
    expect.soft(withoutPerBuild(publication.copied), 'copied by rsync: the files whose bytes changed').toEqual(withoutPerBuild(publication.changed));
    expect.soft(publication.rsyncDeletedFiles, 'files deleted by rsync: the files gone from dist/').toEqual(publication.removedFiles);
    expect.soft(publication.rsyncDeletedFolders, 'folders deleted by rsync: the folders gone from dist/').toEqual(publication.removedFolders);
  }

  it('the first build: every file travels', async () => {
    const publication = await publish(rows);
    expect(publication.changed).toEqual(Object.keys(treeHashes(dist)).sort());
    await expectPublished(publication);
  });

  it('one price changed, every size kept: only the files that show it travel', async () => {
    expect(editedPrice).toHaveLength(shippedPrice.length);
    const publication = await publish(withPrice(editedPrice));
    // The edit reached the downloads: a publication that sends nothing would prove nothing.
    expect(publication.changed).toContain('all.json');
    await expectPublished(publication);
  });

  it('the price back (the first CSV, byte for byte): the first bytes travel again, as newer files', async () => {
    const publication = await publish(rows);
    expect(publication.changed).toContain('all.json');
    await expectPublished(publication);
  });

  it('the price changed again (the second CSV, byte for byte)', async () => {
    const publication = await publish(withPrice(editedPrice));
    expect(publication.changed).toContain('all.json');
    await expectPublished(publication);
  });

  it('a row removed: the pages after it travel, the last page is deleted', async () => {
    const publication = await publish(withPrice(editedPrice).toSpliced(15, 1));
    expect(publication.removedFolders).toContain('page/5');
    await expectPublished(publication);
  });
});

/**
 * Each `X/` beside a name that starts with `X` and a character sorting before '/' (`X.json`,
 * `X-2`). S3 lists `X.json` before the keys under `X/` (byte order) and the CLI walks a folder in
 * that order too, but a store that lists its keys as it walks its own folders (s3rver does: `X/`
 * before `X.json`) disagrees with the CLI: `aws s3 sync --delete` then takes the key for missing
 * on each side and uploads and deletes it in one run, and the object may be gone after.
 */
function namesOutOfWalkOrder(dir: string): string[] {
  const pairs: string[] = [];
  for (const folder of ['', ...foldersIn(dir)]) {
    const entries = readdirSync(join(dir, folder), { withFileTypes: true });
    for (const subfolder of entries.filter((entry) => entry.isDirectory())) {
      for (const entry of entries) {
        const next = entry.name.charAt(subfolder.name.length);
        if (entry.name.startsWith(subfolder.name) && next !== '' && next < '/') pairs.push(`${join(folder, subfolder.name)}/ beside ${join(folder, entry.name)}`);
      }
    }
  }
  return pairs.sort();
}

describe('the published tree', () => {
  it('has no folder X/ beside a name X followed by a character that sorts before "/" (X.json)', () => {
    expect(namesOutOfWalkOrder(inject('outDir'))).toEqual([]);
  });
});
