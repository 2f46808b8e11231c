import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_SAFE_V8_FLAGS } from '../../src/integration/exit-safe-v8.ts';

describe("the build's assumption about V8's flags", () => {
  it('every flag the build sets is one this Node knows (Node refuses to start with an unknown one on its command line: `npm run build` would not start)', () => {
    const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const flag of EXIT_SAFE_V8_FLAGS) {
      const name = flag.replace(/^--no-/, '');
      expect(known, `V8 has no --${name} any more: see src/integration/exit-safe-v8.ts`).toMatch(new RegExp(`^\\s+--${name}\\s`, 'm'));
    }
  });

  it('Node starts with them on its command line, as `npm run build` gives them, and prints nothing', () => {
    const { stdout, stderr, status } = spawnSync(process.execPath, [...EXIT_SAFE_V8_FLAGS, '-e', '0'], { encoding: 'utf8' });
    expect({ stdout, stderr, status }).toEqual({ stdout: '', stderr: '', status: 0 });
  });

  it('V8 takes them as they are written: setting them prints nothing', () => {
    const script = `require('node:v8').setFlagsFromString(${JSON.stringify(EXIT_SAFE_V8_FLAGS.join(' '))})`;
    const { stdout, stderr, status } = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect({ stdout, stderr, status }).toEqual({ stdout: '', stderr: '', status: 0 });
  });

  it('`npm run build` gives them on the command line, before any code runs, in their order (the deopt flag before the code flag)', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { build: string } };
    const words = scripts.build.split(/\s+/);
    const script = words.indexOf('scripts/build.ts');
    expect(script, scripts.build).toBeGreaterThan(0);
    expect(words.slice(0, script).filter((word) => (EXIT_SAFE_V8_FLAGS as readonly string[]).includes(word))).toEqual([
      ...EXIT_SAFE_V8_FLAGS,
    ]);
    expect(EXIT_SAFE_V8_FLAGS.indexOf('--no-maglev-deopt-data-on-background')).toBeLessThan(
      EXIT_SAFE_V8_FLAGS.indexOf('--no-maglev-build-code-on-background'),
    );
  });
});
