/**
 * A job of the shipped GitHub Actions workflow run here as GitHub's runner runs it, step by step:
 * each `run` step's command as written, by `bash --noprofile --norc -eo pipefail` (the workflow's
 * shell), in the checkout, with the workflow's, the job's and the step's `env` (their `vars.*` and
 * `secrets.*` given by the test) and the runner's variables (GITHUB_ACTIONS, GITHUB_WORKSPACE, a
 * GITHUB_STEP_SUMMARY file a step); the job stops at the first step that fails. Of the actions it
 * uses, the checkout is the test's copy of the project, and the cache's restore and save are what
 * actions/cache does: a tar archive of the listed paths, kept in a folder the test gives (empty:
 * the cache is gone).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cleanEnvironment, projectRoot } from '../../scripts/lib/servers.ts';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
  if?: string;
}
interface Workflow {
  env?: Record<string, string>;
  defaults?: { run?: { shell?: string } };
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

/**
 * A checkout of the project at `dir`, as a fresh clone has it: its files as Git has them (committed
 * or not, the ignored ones aside). With `linkedPackages`, a node_modules folder of links to the
 * project's packages (its own node_modules/.astro), as an install would leave it.
 */
export function checkoutOf(dir: string, { linkedPackages = false } = {}): string {
  for (const file of execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: projectRoot, encoding: 'utf8' }).split(
    '\0',
  )) {
    if (file !== '' && existsSync(join(projectRoot, file))) cpSync(join(projectRoot, file), join(dir, file), { recursive: true });
  }
  if (linkedPackages) {
    mkdirSync(join(dir, 'node_modules'));
    for (const entry of readdirSync(join(projectRoot, 'node_modules'))) {
      if (entry !== '.astro') symlinkSync(join(projectRoot, 'node_modules', entry), join(dir, 'node_modules', entry));
    }
  }
  return dir;
}

const WORKFLOW_FILE = join(projectRoot, '.github/workflows/site.yml');
export const readWorkflow = (): Workflow => parse(readFileSync(WORKFLOW_FILE, 'utf8')) as Workflow;

/** What a step did: its name, its command (a `run` step's) or action, exit code, output and job summary. */
export interface StepRun {
  name: string;
  run?: string;
  uses?: string;
  status: number;
  stdout: string;
  stderr: string;
  summary: string;
}

export interface JobInput {
  /** The checkout: the project as a fresh clone has it. */
  checkout: string;
  /** Where the cache of the build store lives between runs (the archive is absent: the cache is gone). */
  cacheDir: string;
  vars?: Record<string, string>;
  secrets?: Record<string, string>;
  /** Variables of the machine the runner is on, besides the runner's own (npm's configuration, say). */
  machine?: Record<string, string>;
  /** Steps not run, by their command (already done in this checkout), each said in the step's output. */
  alreadyDone?: readonly string[];
}

const CACHE_ARCHIVE = 'cache.tar';

/** `${{ vars.NAME }}` and `${{ secrets.NAME }}` as the test gives them (unset: empty, as on GitHub); any other expression is not for `env`. */
function expand(value: string, { vars = {}, secrets = {} }: Pick<JobInput, 'vars' | 'secrets'>): string {
  return value
    .replace(
      /\$\{\{\s*(vars|secrets)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g,
      (_whole, context: string, name: string) => (context === 'vars' ? vars[name] : secrets[name]) ?? '',
    )
    .replace(/\$\{\{.*?\}\}/g, (expression) => {
      throw new Error(`the test's runner reads only vars.* and secrets.* in env, not ${expression}`);
    });
}

const expandAll = (env: Record<string, string> | undefined, input: JobInput) =>
  Object.fromEntries(Object.entries(env ?? {}).map(([name, value]) => [name, expand(String(value), input)]));

/** The cache's paths (one a line in `path`), as the checkout holds them. */
const cachePaths = (step: Step) =>
  String(step.with?.['path'] ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

function action(step: Step, input: JobInput): Omit<StepRun, 'name' | 'summary'> {
  const uses = step.uses!;
  const archive = join(input.cacheDir, CACHE_ARCHIVE);
  const done = (stdout: string) => ({ uses, status: 0, stdout, stderr: '' });
  if (uses.startsWith('actions/checkout@')) return done('checked out (the test copy of the project)');
  if (uses.startsWith('actions/cache/restore@')) {
    if (!existsSync(archive)) return done('Cache not found');
    const result = spawnSync('tar', ['-xf', archive, '-C', input.checkout], { encoding: 'utf8' });
    return { uses, status: result.status ?? 1, stdout: 'Cache restored', stderr: result.stderr };
  }
  if (uses.startsWith('actions/cache/save@')) {
    const present = cachePaths(step).filter((path) => existsSync(join(input.checkout, path)));
    mkdirSync(input.cacheDir, { recursive: true });
    const result = spawnSync('tar', ['-cf', archive, '-C', input.checkout, ...present], { encoding: 'utf8' });
    return { uses, status: result.status ?? 1, stdout: `Cache saved (${present.join(', ')})`, stderr: result.stderr };
  }
  throw new Error(`the test's runner does not know the action ${uses}`);
}

/** Runs job `job` of the workflow; stops at the first step that fails, as GitHub does. */
export function runJob(job: string, input: JobInput, workflow = readWorkflow()): StepRun[] {
  const definition = workflow.jobs[job];
  if (!definition) throw new Error(`no job ${job}`);
  const shell = workflow.defaults?.run?.shell;
  if (shell !== 'bash') throw new Error(`the test's runner runs the bash shell the workflow names, not ${shell}`);
  const summaries = join(input.checkout, '..', 'step-summaries');
  rmSync(summaries, { recursive: true, force: true });
  mkdirSync(summaries, { recursive: true });
  const runs: StepRun[] = [];
  for (const [index, step] of definition.steps.entries()) {
    if (step.if !== undefined) throw new Error(`the test's runner does not evaluate a step's if: ${step.if}`);
    const name = step.name ?? step.run ?? step.uses ?? `step ${index}`;
    if (step.uses !== undefined) {
      runs.push({ name, ...action(step, input), summary: '' });
    } else if (input.alreadyDone?.includes(step.run!)) {
      runs.push({ name, run: step.run!, status: 0, stdout: `(already done in this checkout: ${step.run})`, stderr: '', summary: '' });
    } else {
      const summary = join(summaries, `step-${index}.md`);
      writeFileSync(summary, '');
      const script = join(summaries, `step-${index}.sh`);
      writeFileSync(script, step.run!);
      const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd: input.checkout,
        encoding: 'utf8',
        timeout: 600_000,
        killSignal: 'SIGKILL',
        env: {
          ...cleanEnvironment(),
          ...input.machine,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: input.checkout,
          GITHUB_STEP_SUMMARY: summary,
          ...expandAll(workflow.env, input),
          ...expandAll(definition.env, input),
          ...expandAll(step.env, input),
        },
      });
      runs.push({
        name,
        run: step.run!,
        status: result.status ?? 1,
        stdout: result.stdout,
        stderr: result.stderr,
        summary: readFileSync(summary, 'utf8'),
      });
    }
    if (runs.at(-1)!.status !== 0) break;
  }
  return runs;
}
