/**
 * Randomised rebuilds, as a data maintainer really works: seeded sequences of edits (prices spread
 * or clustered, names with commas, quotes and line breaks, rows inserted, deleted and moved, logos,
 * the file re-saved with other quoting, CRLF or a BOM, bad rows, repeated ids, shrinks refused then
 * allowed, new addresses, no change, back to the data of some builds ago), maintainer actions
 * between builds (delete dist/, the kept previous build, the caches; edit a source file), builds
 * killed with SIGKILL at random instants and at each step of publication, and two builds started at
 * once. After every round it checks what a user of the published site relies on:
 *
 * - dist/ and deploy/ equal a clean build of the same data and code byte for byte (the manifest's
 *   `builtAt` and the change report aside), folders included;
 * - no file that was published changed bytes or time (the replaced build's tree is as it was);
 * - a refused or killed build left dist/ and deploy/ as they were (or, killed after publishing,
 *   equal to a clean build of its data);
 * - a file whose bytes changed is newer than the one it replaced, an unchanged one kept its time;
 * - changes.json's rows and URLs match the real differences.
 *
 * Used by test/rebuilds/ (a short seeded run in `npm test`) and `npm run fuzz` (long runs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { KILL_POINTS } from '../../src/publish/kill-points.ts';
import { pagePath } from '../../src/listing/routes.ts';
import { storeDirOf } from '../../src/publish/store.ts';
import { cleanEnvironment, projectRoot, tempDir } from '../../scripts/lib/servers.ts';
import { ASTRO_BUILD, projectCopy } from './site.ts';

/** A small fast PRNG (mulberry32): a seed gives the same run on every machine. */
function randomOf(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]!, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof randomOf>;

// ---------------------------------------------------------------------------------------------
// Data: rows of cells, written in one of the shapes real exports have.

type Row = string[];
interface Style {
  quoteAll: boolean;
  crlf: boolean;
  bom: boolean;
}
interface Dataset {
  header: Row;
  rows: Row[];
  style: Style;
}

const F = { id: 0, name: 1, minSeat: 3, minPrice: 7, maxPrice: 8, logo: 12 } as const;
const LOGOS = ['media/brand/logo/toyota.svg', 'media/brand/logo/bmw.svg', 'media/brand/logo/kia.svg', ''];
const NAMES = ['新車 New "Quoted" Name', 'Comma, inside the name', 'Line\nbreak inside', '平治 Mercedes-Benz C 200 AMG Line', 'Plain Name'];

function textOf({ header, rows, style }: Dataset): string {
  const text = stringify([header, ...rows], { quoted: style.quoteAll, record_delimiter: style.crlf ? 'windows' : 'unix' });
  return `${style.bom ? '\uFEFF' : ''}${text}`;
}

function generated(rows: number, file: string): Dataset {
  const result = spawnSync(process.execPath, [join(projectRoot, 'scripts/generate.ts'), String(rows), file], {
    encoding: 'utf8',
    env: cleanEnvironment(),
  });
  if (result.status !== 0) throw new Error(`generate failed: ${result.stderr}`);
  const [header, ...body] = parse(readFileSync(file)) as Row[];
  return { header: header!, rows: body, style: { quoteAll: false, crlf: false, bom: false } };
}

const copyOf = (data: Dataset): Dataset => ({ header: [...data.header], rows: data.rows.map((row) => [...row]), style: { ...data.style } });
const nextId = (data: Dataset) => Math.max(...data.rows.map((row) => Number(row[F.id]))) + 1;

/** What a round does to the data, and what the build should then do. */
type Expect = 'publish' | 'refuse';
interface Edit {
  name: string;
  apply: (data: Dataset, random: Random) => Expect;
}

const raisePrices = (row: Row, by: number) => {
  row[F.minPrice] = String(Number(row[F.minPrice]) + by);
  row[F.maxPrice] = String(Number(row[F.maxPrice]) + by);
};

const EDITS: readonly Edit[] = [
  {
    name: 'prices spread (1 %)',
    apply: (data, random) => {
      const by = 1 + random.int(9000);
      for (let index = random.int(100); index < data.rows.length; index += 100) raisePrices(data.rows[index]!, by);
      return 'publish';
    },
  },
  {
    name: 'prices clustered',
    apply: (data, random) => {
      const start = random.int(data.rows.length - 20);
      for (let index = start; index < start + 20; index += 1) raisePrices(data.rows[index]!, 7);
      return 'publish';
    },
  },
  {
    name: 'a name with a comma, quotes or a line break',
    apply: (data, random) => {
      data.rows[random.int(data.rows.length)]![F.name] = random.pick(NAMES);
      return 'publish';
    },
  },
  {
    name: 'rows inserted',
    apply: (data, random) => {
      for (let count = 1 + random.int(3); count > 0; count -= 1) {
        const row = [...random.pick(data.rows)];
        row[F.id] = String(nextId(data));
        data.rows.splice(random.int(data.rows.length + 1), 0, row);
      }
      return 'publish';
    },
  },
  {
    name: 'rows deleted',
    apply: (data, random) => {
      for (let count = 1 + random.int(3); count > 0; count -= 1) data.rows.splice(random.int(data.rows.length), 1);
      return 'publish';
    },
  },
  {
    name: 'a row moved',
    apply: (data, random) => {
      const [row] = data.rows.splice(random.int(data.rows.length), 1);
      data.rows.splice(random.int(data.rows.length + 1), 0, row!);
      return 'publish';
    },
  },
  {
    name: 'a logo changed',
    apply: (data, random) => {
      data.rows[random.int(data.rows.length)]![F.logo] = random.pick(LOGOS);
      return 'publish';
    },
  },
  {
    name: 're-saved in another shape (quoting, CRLF, BOM)',
    apply: (data, random) => {
      data.style = { quoteAll: random.chance(0.5), crlf: random.chance(0.5), bom: random.chance(0.3) };
      return 'publish';
    },
  },
  { name: 'no change', apply: () => 'publish' },
  {
    name: 'a bad value',
    apply: (data, random) => {
      data.rows[random.int(data.rows.length)]![F.minSeat] = 'many';
      return 'refuse';
    },
  },
  {
    name: 'a repeated id',
    apply: (data, random) => {
      data.rows[random.int(data.rows.length)]![F.id] = data.rows[random.int(data.rows.length)]![F.id]!;
      return data.rows.length === new Set(data.rows.map((row) => row[F.id])).size ? 'publish' : 'refuse';
    },
  },
  {
    name: 'a third of the rows gone (refused, then allowed)',
    apply: (data) => {
      data.rows.splice(0, Math.ceil(data.rows.length / 3));
      return 'refuse';
    },
  },
];

interface Env {
  BASE_URL: string;
  ASSETS_URL: string;
}

interface BuildRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function startBuildProcess(project: string, env: Record<string, string>): { done: Promise<BuildRun>; kill: () => void } {
  const child = spawn(process.execPath, ASTRO_BUILD, {
    cwd: project,
    env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<BuildRun>((resolve) => child.once('close', (status, signal) => resolve({ status, signal, output })));
  return { done, kill: () => child.kill('SIGKILL') };
}

// ---------------------------------------------------------------------------------------------
// What is published, as a user sees it.

interface FileState {
  hash: string;
  mtimeNs: bigint;
}
interface Tree {
  files: Map<string, FileState>;
  folders: string[];
}

function treeOf(dir: string): Tree {
  const files = new Map<string, FileState>();
  const folders: string[] = [];
  if (!existsSync(dir)) return { files, folders };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(dir, path);
    if (entry.isDirectory()) folders.push(name);
    else if (entry.isFile())
      files.set(name, {
        hash: createHash('sha256').update(readFileSync(path)).digest('hex'),
        mtimeNs: statSync(path, { bigint: true }).mtimeNs,
      });
  }
  return { files, folders: folders.sort() };
}

/**
 * A tree's bytes as a clean build is compared with: what describes the build (its id, time, the build
 * that changed the files, the change documents) left out, as `publishedTree` does.
 */
function comparable(tree: Tree, site: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const describes = (name: string) => name.endsWith('changes.json') || /(^|\/)history\//.test(name);
  for (const [name, { hash }] of tree.files) {
    if (describes(name)) continue;
    if (name.endsWith('manifest.json') && site !== undefined) {
      const {
        builtAt: _builtAt,
        buildId: _buildId,
        changedBy: _changedBy,
        files,
        ...manifest
      } = JSON.parse(readFileSync(join(site, name), 'utf8')) as {
        builtAt: string;
        buildId: string;
        changedBy: string;
        files: Record<string, string>;
      };
      const dataFiles = Object.fromEntries(Object.entries(files).filter(([path]) => !describes(path)));
      out[name] = JSON.stringify({ ...manifest, files: dataFiles });
    } else out[name] = hash;
  }
  return out;
}

interface Published {
  /** The build folders dist/ and deploy/ show, or undefined. */
  real: string | undefined;
  realDeploy: string | undefined;
  site: Tree;
  deploy: Tree;
  allJson: string | undefined;
  dataSha256: string | undefined;
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function publishedState(site: string, deploy: string): Published {
  return {
    real: realOrUndefined(site),
    realDeploy: realOrUndefined(deploy),
    site: treeOf(site),
    deploy: treeOf(deploy),
    allJson: existsSync(join(site, 'all.json')) ? readFileSync(join(site, 'all.json'), 'utf8') : undefined,
    dataSha256: existsSync(join(site, 'manifest.json'))
      ? (JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8')) as { data: { sha256: string } }).data.sha256
      : undefined,
  };
}

class CheckFailed extends Error {
  override name = 'CheckFailed';
}

function check(condition: boolean, message: () => string): asserts condition {
  if (!condition) throw new CheckFailed(message());
}

function sameTrees(actual: Tree, expected: Tree, what: string, withTimes: boolean): void {
  const names = new Set([...actual.files.keys(), ...expected.files.keys()]);
  for (const name of names) {
    const a = actual.files.get(name);
    const e = expected.files.get(name);
    check(a !== undefined && e !== undefined, () => `${what}: ${name} is ${a ? 'extra' : 'missing'}`);
    check(a.hash === e.hash, () => `${what}: ${name} changed bytes`);
    if (withTimes) check(a.mtimeNs === e.mtimeNs, () => `${what}: ${name} changed time (${e.mtimeNs} → ${a.mtimeNs})`);
  }
  check(JSON.stringify(actual.folders) === JSON.stringify(expected.folders), () => `${what}: folders differ`);
}

function sameAsClean(kind: string, actual: Record<string, string>, clean: Record<string, string>): void {
  const names = new Set([...Object.keys(actual), ...Object.keys(clean)]);
  for (const name of names) {
    check(name in actual, () => `${kind} lacks ${name}, which a clean build has`);
    check(name in clean, () => `${kind} has ${name}, which a clean build does not`);
    check(actual[name] === clean[name], () => `${kind}: ${name} differs from a clean build's`);
  }
}

/** Rows by id from an all.json text. */
const rowsById = (text: string | undefined) =>
  new Map(((text ? JSON.parse(text) : []) as Record<string, unknown>[]).map((row) => [row['id'] as number, JSON.stringify(row)]));

/** changes.json against the real differences between `before` and the published site now. */
function checkChanges(where: string, site: string, before: Published, after: Published): void {
  // A build that changed nothing (or found nothing to build) keeps the change document of the build
  // that last changed the site: the same changes.json, describing that build, not this one.
  const changedFiles = [...after.site.files].filter(
    ([name, file]) => name !== 'manifest.json' && before.site.files.get(name)?.hash !== file.hash,
  );
  if (changedFiles.length === 0 && after.site.files.size === before.site.files.size) return;
  const changes = JSON.parse(readFileSync(join(site, 'changes.json'), 'utf8')) as {
    rows: { added: number[]; removed: number[]; changed: { id: number }[] };
    urls: string[];
  };
  const { baseUrl } = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8')) as { baseUrl: string };
  const old = rowsById(before.allJson);
  const now = rowsById(after.allJson);
  const added = [...now.keys()].filter((id) => !old.has(id)).sort();
  const removed = [...old.keys()].filter((id) => !now.has(id)).sort();
  const changed = [...now.keys()].filter((id) => old.has(id) && old.get(id) !== now.get(id)).sort();
  const sorted = (ids: number[]) => [...ids].sort();
  check(
    JSON.stringify(sorted(changes.rows.added)) === JSON.stringify(added),
    () => `${where}: changes.json rows.added ${JSON.stringify(changes.rows.added)}, really ${JSON.stringify(added)}`,
  );
  check(
    JSON.stringify(sorted(changes.rows.removed)) === JSON.stringify(removed),
    () => `${where}: changes.json rows.removed differ from the real ones`,
  );
  check(
    JSON.stringify(sorted(changes.rows.changed.map(({ id }) => id))) === JSON.stringify(changed),
    () => `${where}: changes.json rows.changed differ from the real ones`,
  );
  // Every served file whose bytes changed, or that is gone, has its URL listed.
  const urls = new Set(changes.urls);
  const notServed = /(^|\/)(\.htaccess|_headers|_redirects|vercel\.json|\.assetsignore)$/;
  const names = new Set([...before.site.files.keys(), ...after.site.files.keys()]);
  for (const name of names) {
    if (notServed.test(name) || name === 'changes.json') continue;
    if (before.site.files.get(name)?.hash === after.site.files.get(name)?.hash) continue;
    const page = /^car\/api\/capture_car\/latest\/page\/(\d+)\.json$/.exec(name);
    const path = page ? pagePath(Number(page[1])) : `/${name.replace(/(^|\/)index\.html$/, '$1')}`;
    check(urls.has(`${baseUrl}${path}`), () => `${where}: changes.json does not list ${baseUrl}${path}, whose file ${name} changed`);
  }
}

/** Changed files are newer than the ones they replace; unchanged ones keep their time. */
function checkTimes(where: string, before: Tree, after: Tree, { unchangedKeepTime = true } = {}): void {
  for (const [name, now] of after.files) {
    const then = before.files.get(name);
    if (!then) continue;
    if (then.hash === now.hash) {
      if (unchangedKeepTime) check(now.mtimeNs === then.mtimeNs, () => `${where}: ${name}: bytes unchanged but its time changed`);
    } else check(now.mtimeNs > then.mtimeNs, () => `${where}: ${name}: bytes changed but it is not newer than the file it replaced`);
  }
}

// ---------------------------------------------------------------------------------------------
// A kept file damaged in place, as a disk error, a sync tool or a half-restored CI cache leaves it.

const DAMAGES = ['truncated', 'bytes flipped', 'zeroed', 'emptied'] as const;

/** Every kept file a build takes bytes from: the preparations' files, the host files, the published build's record and stamp. */
function keptFiles(project: string, store: string): string[] {
  const prepared = join(project, 'node_modules/.astro/listing-data');
  const files = existsSync(prepared)
    ? readdirSync(prepared, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && !entry.parentPath.includes('.tmp'))
        .map((entry) => join(entry.parentPath, entry.name))
    : [];
  for (const file of [join(store, 'host-files.json'), join(store, 'current', 'build-record.v8'), join(store, 'current-build.json')])
    if (existsSync(file)) files.push(file);
  return files.sort();
}

/** Damages one kept file, chosen and damaged by `draws` (numbers in [0, 1)); says which and how. */
function damageKeptFile(project: string, store: string, [which, how, where]: number[]): string | undefined {
  const files = keptFiles(project, store).filter((file) => statSync(file).size > 0);
  if (files.length === 0) return undefined;
  const file = files[Math.floor(which! * files.length)]!;
  const damage = DAMAGES[Math.floor(how! * DAMAGES.length)]!;
  const bytes = readFileSync(file);
  const at = Math.floor(where! * bytes.length);
  if (damage === 'truncated') truncateSync(file, at);
  else if (damage === 'emptied') truncateSync(file, 0);
  else {
    const fd = openSync(file, 'r+');
    try {
      const patch = damage === 'zeroed' ? Buffer.alloc(Math.min(64, bytes.length - at)) : Buffer.from([bytes[at]! ^ 0xff]);
      writeSync(fd, patch, 0, patch.length, at);
    } finally {
      closeSync(fd);
    }
  }
  return `damaged ${relative(project, file).startsWith('..') ? relative(store, file) : relative(project, file)} (${damage})`;
}

// ---------------------------------------------------------------------------------------------
// The run.

const MODES = ['plain', 'killed at a step', 'two at once', 'plain', 'killed at random'] as const;

export interface RebuildOptions {
  seed: number;
  rounds: number;
  rows: number;
  /** A folder on another file system than the project (and its caches) for the site: a web root on its own disk. */
  siteDisk?: string;
  log?: (line: string) => void;
}

export interface RebuildSummary {
  seed: number;
  rounds: number;
  builds: number;
  published: number;
  refused: number;
  killed: number;
  killedAfterPublishing: number;
  concurrent: number;
  /** Builds that found the published build current (the same data, code and settings): nothing built. */
  nothingToBuild: number;
  seconds: number;
}

export async function runRebuilds({ seed, rounds, rows, siteDisk, log = () => undefined }: RebuildOptions): Promise<RebuildSummary> {
  const started = performance.now();
  // Each round draws from its own generator: a kill's timing or the winner of two builds at once
  // does not change what later rounds do, so a seed replays the same rounds.
  let random = randomOf(seed);
  const workspace = tempDir('rebuilds');
  const summary: RebuildSummary = {
    seed,
    rounds,
    builds: 0,
    published: 0,
    refused: 0,
    killed: 0,
    killedAfterPublishing: 0,
    concurrent: 0,
    nothingToBuild: 0,
    seconds: 0,
  };
  try {
    const project = projectCopy(workspace);
    const siteParent = siteDisk === undefined ? project : mkdtempSync(join(siteDisk, 'rebuilds-'));
    const site = join(siteParent, 'dist');
    const deploy = join(siteParent, 'deploy');
    const store = storeDirOf(site);
    const dataFile = join(workspace, 'cars.csv');
    let data = generated(rows, dataFile);
    // Every draw is made whether or not it is used, for the same reason.
    const history: Dataset[] = [];
    let env: Env = { BASE_URL: 'https://cars.example.com', ASSETS_URL: 'https://img.example.com/logos' };
    let allowShrinkNext = false;
    let templateEdits = 0;
    /** The data and addresses the published site was built from. */
    let publishedWith: { text: string; env: Env } | undefined;
    /** Typical build time, for kills at random instants. */
    let buildMs = 4000;

    const envOf = (file: string, extra: Record<string, string> = {}) => ({
      ...env,
      DATA_FILE: file,
      OUT_DIR: site,
      DEPLOY_DIR: deploy,
      ...extra,
    });

    /** A clean build of `text` with `buildEnv` at the same paths (what is there moved aside meanwhile). */
    const cleanBuild = async (file: string, text: string, buildEnv: Env) => {
      const aside = [site, deploy, store, join(project, 'node_modules/.astro'), file];
      for (const path of aside) if (existsSync(path) || isLink(path)) renameSync(path, `${path}.aside`);
      try {
        // The same path: the manifest names the data file.
        writeFileSync(file, text);
        const run = await startBuildProcess(project, { ...buildEnv, DATA_FILE: file, OUT_DIR: site, DEPLOY_DIR: deploy }).done;
        check(run.status === 0, () => `the clean build failed:\n${run.output}`);
        return { site: comparable(treeOf(site), site), deploy: comparable(treeOf(deploy), deploy), folders: treeOf(site).folders };
      } finally {
        for (const path of aside) rmSync(path, { recursive: true, force: true });
        for (const path of aside) if (existsSync(`${path}.aside`) || isLink(`${path}.aside`)) renameSync(`${path}.aside`, path);
      }
    };

    const expectClean = async (what: string, text: string, buildEnv: Env, file = dataFile) => {
      const clean = await cleanBuild(file, text, buildEnv);
      sameAsClean(`${what}: dist/`, comparable(treeOf(site), site), clean.site);
      sameAsClean(`${what}: deploy/`, comparable(treeOf(deploy), deploy), clean.deploy);
      check(
        JSON.stringify(treeOf(site).folders) === JSON.stringify(clean.folders),
        () => `${what}: dist/ has other folders than a clean build`,
      );
    };

    for (let round = 1; round <= rounds; round += 1) {
      const where = `seed ${seed}, round ${round}`;
      random = randomOf(seed * 100_003 + round);
      // The maintainer's actions between builds.
      const actions: string[] = [];
      const [deleteDist, deleteCaches, deletePrevious, editSource, goBack, newAddresses, damageCache] = [
        0.08, 0.08, 0.08, 0.06, 0.12, 0.08, 0.15,
      ].map((p) => random.chance(p));
      const damageDraws = [random.next(), random.next(), random.next()];
      if (deleteDist) {
        rmSync(site, { recursive: true, force: true });
        actions.push('deleted dist/');
      }
      if (deleteCaches) {
        rmSync(join(project, 'node_modules/.astro'), { recursive: true, force: true });
        actions.push('deleted the caches');
      }
      if (deletePrevious && isLink(join(store, 'previous')) && existsSync(join(store, 'previous'))) {
        rmSync(realpathSync(join(store, 'previous')), { recursive: true, force: true });
        actions.push('deleted the kept previous build');
      }
      if (damageCache) {
        const damaged = damageKeptFile(project, store, damageDraws);
        if (damaged) actions.push(damaged);
      }
      if (editSource) {
        const pagination = join(project, 'src/components/Pagination.astro');
        writeFileSync(pagination, `${readFileSync(pagination, 'utf8')}\n<span hidden>edit ${(templateEdits += 1)}</span>\n`);
        actions.push('edited a source file');
      }

      // The data and addresses of this round.
      let expect: Expect = 'publish';
      let editName: string;
      const extra: Record<string, string> = {};
      if (allowShrinkNext) {
        extra['ALLOW_SHRINK'] = '1';
        allowShrinkNext = false;
        editName = 'the shrink again, allowed';
      } else if (history.length > 2 && goBack) {
        data = copyOf(history[history.length - 1 - random.int(Math.min(history.length, 4))]!);
        editName = 'back to the data of an earlier build';
      } else if (newAddresses) {
        env = random.chance(0.5)
          ? { ...env, BASE_URL: random.pick(['https://cars.example.com', 'https://listing.example.org/cars']) }
          : { ...env, ASSETS_URL: random.pick(['https://img.example.com/logos', 'https://cdn.example.org/img']) };
        editName = 'new addresses';
      } else {
        const edit = random.pick(EDITS);
        const next = copyOf(data);
        expect = edit.apply(next, random);
        editName = edit.name;
        if (expect === 'publish') data = next;
        else if (edit.name.startsWith('a third')) {
          data = next;
          allowShrinkNext = true;
        } else {
          // Refused data: written and built, then the maintainer goes back to the good file.
          writeFileSync(dataFile, textOf(next));
        }
      }
      // A shrink is refused only against a published site with the rows it would remove.
      if (expect === 'refuse' && editName.startsWith('a third') && !existsSync(join(site, 'manifest.json'))) {
        expect = 'publish';
        allowShrinkNext = false;
      }
      const text = expect === 'publish' || editName.startsWith('a third') ? textOf(data) : readFileSync(dataFile, 'utf8');
      writeFileSync(dataFile, text);

      // How the build runs.
      // Each way of running comes round in turn, so that a short run has them all.
      const mode = expect === 'refuse' ? 'plain' : MODES[(round - 1) % MODES.length]!;
      const before = publishedState(site, deploy);
      log(`${where}: ${editName}${actions.length ? ` (after: ${actions.join(', ')})` : ''}; ${mode}; expect ${expect}`);

      if (mode === 'two at once') {
        // A second maintainer builds the data of some builds ago at the same moment.
        const otherData = history.length > 0 ? random.pick(history) : data;
        const otherFile = join(workspace, 'other.csv');
        const otherText = textOf(otherData);
        writeFileSync(otherFile, otherText);
        const first = startBuildProcess(project, envOf(dataFile, extra));
        const second = startBuildProcess(project, envOf(otherFile, { ALLOW_SHRINK: '1' }));
        const [a, b] = await Promise.all([first.done, second.done]);
        summary.builds += 2;
        summary.concurrent += 1;
        check(
          a.status === 0 || (a.status === 1 && /would remove/.test(a.output)),
          () => `${where}: the first of two builds failed:\n${a.output}`,
        );
        check(b.status === 0, () => `${where}: the second of two builds failed:\n${b.output}`);
        // The build that published last won: its data file is the one the manifest names.
        const published = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8')) as { data: { sha256: string; file: string } };
        const otherWon = published.data.file.endsWith('other.csv');
        const winner = otherWon ? otherText : text;
        const sha = (value: string) => createHash('sha256').update(value).digest('hex');
        check(published.data.sha256 === sha(winner), () => `${where}: dist/ names ${published.data.file} but holds other data`);
        checkBuildsIntact(where, before);
        await expectClean(where, winner, env, otherWon ? otherFile : dataFile);
        const after = publishedState(site, deploy);
        // Two publications: a file the first changed and the second changed back is rightly newer than before.
        checkTimes(where, before.site, after.site, { unchangedKeepTime: otherText === text });
        // The winner's change report describes what it replaced: the other build's site, unless that
        // was refused. Checked where that site is the one before the pair: the same data, addresses and code.
        const report = JSON.parse(readFileSync(join(site, 'changes.json'), 'utf8')) as { previousDataSha256: string | null };
        const sameAsBefore =
          a.status !== 0 ||
          (report.previousDataSha256 === before.dataSha256 && editName !== 'new addresses' && !actions.includes('edited a source file'));
        if (
          before.allJson !== undefined &&
          before.dataSha256 !== undefined &&
          report.previousDataSha256 === before.dataSha256 &&
          sameAsBefore
        )
          checkChanges(where, site, before, after);
        publishedWith = { text: winner, env: { ...env } };
        data = otherWon ? copyOf(otherData) : data;
        if (a.status === 1) allowShrinkNext = false;
        summary.published += 1;
      } else {
        const killAt = mode === 'killed at a step' ? random.pick(KILL_POINTS) : undefined;
        const running = startBuildProcess(project, envOf(dataFile, { ...extra, ...(killAt && { LISTING_KILL_AT: killAt }) }));
        const startedAt = performance.now();
        if (mode === 'killed at random') setTimeout(running.kill, 300 + random.int(Math.round(buildMs * 1.1)));
        const run = await running.done;
        summary.builds += 1;
        const after = publishedState(site, deploy);
        checkBuildsIntact(where, before);
        if (run.signal === 'SIGKILL') {
          summary.killed += 1;
          // Killed: what is published is the old site, or (after the rename) the new one, whole.
          if (after.real === before.real) {
            sameTrees(after.site, before.site, `${where}: dist/ after a killed build`, true);
            // With dist/ deleted nothing is published, and deploy/ means nothing until a build publishes.
            if (before.real !== undefined) sameTrees(after.deploy, before.deploy, `${where}: deploy/ after a killed build`, true);
            // Not published: a shrink it was allowed to make is still to be made, and still allowed.
            if (extra['ALLOW_SHRINK']) allowShrinkNext = true;
          } else {
            summary.killedAfterPublishing += 1;
            await expectClean(`${where} (killed after publishing)`, text, env);
            checkTimes(where, before.site, after.site);
            publishedWith = { text, env: { ...env } };
            history.push(copyOf(data));
          }
        } else if (expect === 'refuse' && !extra['ALLOW_SHRINK']) {
          summary.refused += 1;
          check(run.status === 1, () => `${where}: a build of bad data exited ${run.status}, not 1:\n${run.output}`);
          check(!/Stack trace|\n\s+at /.test(run.output), () => `${where}: a refusal printed a stack trace:\n${run.output}`);
          check(
            /Nothing was published/.test(run.output),
            () => `${where}: a refusal did not say that nothing was published:\n${run.output}`,
          );
          check(after.real === before.real, () => `${where}: a refused build changed what dist/ shows`);
          sameTrees(after.site, before.site, `${where}: dist/ after a refused build`, true);
          sameTrees(after.deploy, before.deploy, `${where}: deploy/ after a refused build`, true);
          if (!editName.startsWith('a third')) writeFileSync(dataFile, textOf(data));
        } else {
          check(run.status === 0, () => `${where}: the build failed (${run.status}):\n${run.output}`);
          if (run.output.includes('Nothing to build')) {
            summary.nothingToBuild += 1;
            log(`${where}: nothing to build`);
          } else buildMs = (buildMs + (performance.now() - startedAt)) / 2;
          summary.published += 1;
          await expectClean(where, text, env);
          checkTimes(where, before.site, after.site);
          if (before.allJson !== undefined && publishedWith && before.real !== undefined) checkChanges(where, site, before, after);
          publishedWith = { text, env: { ...env } };
          history.push(copyOf(data));
        }
      }
    }
    summary.seconds = (performance.now() - started) / 1000;
    return summary;

    /** The build that was published before (now the kept previous one, or still current) is as it was: nothing published was written again. */
    function checkBuildsIntact(where: string, before: Published): void {
      if (before.real !== undefined && existsSync(before.real))
        sameTrees(treeOf(before.real), before.site, `${where}: the replaced build's site`, true);
      if (before.realDeploy !== undefined && existsSync(before.realDeploy))
        sameTrees(treeOf(before.realDeploy), before.deploy, `${where}: the replaced build's deploy/`, true);
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    if (siteDisk !== undefined)
      for (const name of readdirSync(siteDisk))
        if (name.startsWith('rebuilds-')) rmSync(join(siteDisk, name), { recursive: true, force: true });
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
