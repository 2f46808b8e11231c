import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mountCaseless } from '../support/mounts.ts';
import { tempDir } from '../support/site.ts';
import { cleanEnvironment } from '../../scripts/lib/servers.ts';
import { CONFIG_VARIABLES, ConfigError, DEFAULT_DATA_FILE, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('works with no configuration: local addresses, the embedded dataset', () => {
    expect(loadConfig({})).toEqual({
      baseUrl: 'http://localhost:4321',
      assetsUrl: 'http://localhost:4321/assets',
      dataFile: DEFAULT_DATA_FILE,
      outDir: 'dist',
      deployDir: 'deploy',
      reportFile: 'dist-report.json',
      allowShrink: false,
      fullBuild: false,
      changesKept: 30,
      checkAllPages: false,
      port: 4321,
      host: '127.0.0.1',
      liveUrl: undefined,
      deployTo: undefined,
    });
  });

  it('compares with the live site at LIVE_URL, else at BASE_URL where that is set', () => {
    expect(loadConfig({ BASE_URL: 'https://cars.example.com/' }).liveUrl).toBe('https://cars.example.com');
    expect(loadConfig({ BASE_URL: 'https://cars.example.com', LIVE_URL: 'https://staging.example.com/' }).liveUrl).toBe(
      'https://staging.example.com',
    );
    expect(() => loadConfig({ LIVE_URL: 'cars.example.com' })).toThrow(/LIVE_URL must be an absolute http\(s\) URL/);
  });

  it('deploys to one of the hosts it knows', () => {
    expect(loadConfig({ DEPLOY_TO: 'netlify' }).deployTo).toBe('netlify');
    expect(() => loadConfig({ DEPLOY_TO: 'ftp' })).toThrow(/DEPLOY_TO must be one of rsync, s3, cloudflare, netlify, vercel; got "ftp"/);
  });

  it('keeps CHANGES_KEPT change documents, a whole number from 1', () => {
    expect(loadConfig({ CHANGES_KEPT: '5' }).changesKept).toBe(5);
    for (const value of ['0', '-1', 'ten', '1.5'])
      expect(() => loadConfig({ CHANGES_KEPT: value }), value).toThrow(/CHANGES_KEPT must be a whole number from 1 to 9999/);
  });

  it('reads the contact and licence /openapi.json states: `Name <email> (URL)`, and an SPDX identifier or `Name (URL)`', () => {
    expect(loadConfig({ API_CONTACT: ' Cars HK <api@cars.example.com> (https://cars.example.com/contact) ' }).contact).toEqual({
      name: 'Cars HK',
      url: 'https://cars.example.com/contact',
      email: 'api@cars.example.com',
    });
    expect(loadConfig({ API_CONTACT: '<api@cars.example.com>' }).contact).toEqual({ email: 'api@cars.example.com' });
    expect(loadConfig({ API_CONTACT: 'Cars HK (https://cars.example.com)' }).contact).toEqual({
      name: 'Cars HK',
      url: 'https://cars.example.com',
    });
    // SPDX identifiers match without regard to case; the name is the SPDX list's, the URL its page there.
    for (const value of ['CC-BY-4.0', 'cc-by-4.0'])
      expect(loadConfig({ API_LICENSE: value }).license).toEqual({
        name: 'Creative Commons Attribution 4.0 International',
        url: 'https://spdx.org/licenses/CC-BY-4.0.html',
      });
    expect(loadConfig({ API_LICENSE: 'Cars HK data terms (https://cars.example.com/terms)' }).license).toEqual({
      name: 'Cars HK data terms',
      url: 'https://cars.example.com/terms',
    });
    expect(loadConfig({ API_CONTACT: '', API_LICENSE: '' })).toMatchObject({ contact: undefined, license: undefined });
  });

  it('names what is wrong with a contact or a licence', () => {
    const problems: Record<string, [Record<string, string>, string]> = {
      'a bare email': [{ API_CONTACT: 'api@cars.example.com' }, 'API_CONTACT must be written "Name <email> (URL)", each part optional'],
      'a bare URL': [{ API_CONTACT: 'https://cars.example.com' }, 'an email goes in <…>, a URL in (…)'],
      'parts out of order': [
        { API_CONTACT: 'Cars HK (https://cars.example.com) <api@cars.example.com>' },
        'must be written "Name <email> (URL)"',
      ],
      'no email': [{ API_CONTACT: 'Cars HK <api>' }, "API_CONTACT's email must be an address such as api@cars.example.com"],
      'no web URL': [{ API_CONTACT: 'Cars HK (ftp://cars.example.com)' }, "API_CONTACT's URL must be an absolute http(s) URL"],
      'no SPDX identifier': [{ API_LICENSE: 'CC-BY-4' }, 'API_LICENSE must be an SPDX licence identifier such as CC-BY-4.0'],
      'an SPDX expression': [{ API_LICENSE: 'MIT OR Apache-2.0' }, 'or a name and the absolute http(s) URL of other terms'],
      'terms without a URL': [{ API_LICENSE: 'Our terms' }, 'API_LICENSE must be an SPDX licence identifier'],
    };
    for (const [name, [environment, message]] of Object.entries(problems)) {
      expect(() => loadConfig(environment), name).toThrow(ConfigError);
      expect(() => loadConfig(environment), name).toThrow(message);
      expect(() => loadConfig(environment), name).toThrow(`; got ${JSON.stringify(Object.values(environment)[0])}`);
    }
  });

  it('follows PORT in the default addresses and drops trailing slashes', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    const config = loadConfig({ BASE_URL: 'https://cars.example.com/', ASSETS_URL: 'https://cdn.example.com/static//' });
    expect(config.baseUrl).toBe('https://cars.example.com');
    expect(config.assetsUrl).toBe('https://cdn.example.com/static');
  });

  it('writes the build report beside the output folder unless told where', () => {
    expect(loadConfig({ OUT_DIR: '/tmp/site/' })).toMatchObject({ outDir: '/tmp/site', reportFile: '/tmp/site-report.json' });
    expect(loadConfig({ REPORT_FILE: 'reports/build.json' }).reportFile).toBe('reports/build.json');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ BASE_URL: '', PORT: '' }).port).toBe(4321);
  });

  it('names every invalid variable and its value', () => {
    const attempt = () => loadConfig({ BASE_URL: 'cars.example.com', ASSETS_URL: 'ftp://x', PORT: '70000', HOST: 'a b' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('BASE_URL must be an absolute http(s) URL such as https://cars.example.com; got "cars.example.com"');
      expect(message).toContain('ASSETS_URL must be an absolute http(s) URL');
      expect(message).toContain('PORT must be a whole number from 0 to 65535; got "70000"');
      expect(message).toContain('HOST must be a host name or an IP address');
    }
  });

  it('refuses folders and files that would overlap: the site, the host files, the data and the report', () => {
    expect(() => loadConfig({ DEPLOY_DIR: 'dist' })).toThrow(/OUT_DIR \(dist\) and DEPLOY_DIR \(dist\) must be two folders/);
    expect(() => loadConfig({ DEPLOY_DIR: 'dist/hosts' })).toThrow(/neither inside the other/);
    expect(() => loadConfig({ OUT_DIR: 'deploy/site/' })).toThrow(/neither inside the other/);
    expect(() => loadConfig({ DATA_FILE: 'cars.csv', DEPLOY_DIR: 'cars.csv' })).toThrow(/DATA_FILE \(cars.csv\) must not be in DEPLOY_DIR/);
    expect(() => loadConfig({ DATA_FILE: 'dist/cars.csv' })).toThrow(/must not be in OUT_DIR/);
    expect(() => loadConfig({ DATA_FILE: 'cars.csv', REPORT_FILE: './cars.csv' })).toThrow(/REPORT_FILE must not be the data file/);
    expect(() => loadConfig({ REPORT_FILE: 'dist/report.json' })).toThrow(/REPORT_FILE \(dist\/report.json\) must not be in OUT_DIR/);
    // Names that only begin alike are apart.
    expect(loadConfig({ OUT_DIR: 'dist', DEPLOY_DIR: 'dist-hosts', REPORT_FILE: 'dist-report.json' }).deployDir).toBe('dist-hosts');
    expect(loadConfig({ OUT_DIR: 'site', DEPLOY_DIR: '..deploy' }).deployDir).toBe('..deploy');
  });

  it('checks a few pages of each build against Astro, or every page with CHECK_PAGES=all', () => {
    expect(loadConfig({}).checkAllPages).toBe(false);
    expect(loadConfig({ CHECK_PAGES: 'all' }).checkAllPages).toBe(true);
    expect(() => loadConfig({ CHECK_PAGES: 'every' })).toThrow(/CHECK_PAGES must be sample .* or all/);
  });

  describe('compares paths as the disk they are on does', () => {
    /** Every clash the configuration checks, each written with the case of one name changed; all but the last name missing, or all there. */
    const clashes = (root: string): [Record<string, string>, RegExp][] => [
      [{ OUT_DIR: `${root}/dist`, DEPLOY_DIR: `${root}/Dist/hosts` }, /neither inside the other/],
      [{ OUT_DIR: `${root}/Deploy/site`, DEPLOY_DIR: `${root}/deploy` }, /neither inside the other/],
      [{ OUT_DIR: `${root}/dist`, DATA_FILE: `${root}/DIST/cars.csv` }, /must not be in OUT_DIR/],
      [{ OUT_DIR: `${root}/site`, DEPLOY_DIR: `${root}/deploy`, DATA_FILE: `${root}/Deploy/cars.csv` }, /must not be in DEPLOY_DIR/],
      [{ OUT_DIR: `${root}/dist`, REPORT_FILE: `${root}/Dist/report.json` }, /must not be in OUT_DIR/],
      [{ OUT_DIR: `${root}/site`, DEPLOY_DIR: `${root}/deploy`, REPORT_FILE: `${root}/DEPLOY/report.json` }, /must not be in DEPLOY_DIR/],
      [{ DATA_FILE: `${root}/data/cars.csv`, REPORT_FILE: `${root}/Data/Cars.CSV` }, /REPORT_FILE must not be the data file/],
    ];
    const folders = ['dist', 'deploy', 'site', 'data'];

    it('on a disk that ignores case (FAT, as macOS and Windows disks do): Dist is dist', (context) => {
      const workspace = tempDir('config-caseless');
      const disk = mountCaseless(join(workspace, 'fat'));
      if (typeof disk === 'string') return context.skip(disk);
      try {
        for (const made of [false, true]) {
          // Missing, each name is compared as the disk compares names (a probe); there, as the disk lists it.
          if (made) for (const folder of folders) mkdirSync(join(disk.dir, folder));
          if (made) writeFileSync(join(disk.dir, 'data/cars.csv'), '');
          for (const [variables, refusal] of clashes(disk.dir))
            expect(() => loadConfig(variables), JSON.stringify(variables)).toThrow(refusal);
        }
      } finally {
        disk.unmount();
        rmSync(workspace, { recursive: true, force: true });
      }
    });

    it("on a disk that minds case (Linux's): Dist and dist are two folders", () => {
      const workspace = tempDir('config-cased');
      try {
        for (const made of [false, true]) {
          if (made) for (const folder of folders) mkdirSync(join(workspace, folder));
          if (made) writeFileSync(join(workspace, 'data/cars.csv'), '');
          for (const [variables] of clashes(workspace)) expect(() => loadConfig(variables), JSON.stringify(variables)).not.toThrow();
        }
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    });

    it('through symbolic links: a data file reached through a link into OUT_DIR is in it', () => {
      const workspace = tempDir('config-links');
      try {
        mkdirSync(join(workspace, 'dist'));
        symlinkSync(join(workspace, 'dist'), join(workspace, 'data'));
        expect(() => loadConfig({ OUT_DIR: join(workspace, 'dist'), DATA_FILE: join(workspace, 'data/cars.csv') })).toThrow(
          /must not be in OUT_DIR/,
        );
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    });
  });

  it('refuses a base URL with a query or fragment', () => {
    expect(() => loadConfig({ BASE_URL: 'https://cars.example.com/?a=1' })).toThrow(/must not have a query string/);
  });
});

describe('a child process started by the tests', () => {
  /** A value for every variable the configuration reads (the type insists on each) that changes what it gives. */
  const set: Record<(typeof CONFIG_VARIABLES)[number], string> = {
    PORT: '8088',
    HOST: '0.0.0.0',
    BASE_URL: 'https://shell.example.com',
    ASSETS_URL: 'https://shell.example.com/img',
    API_CONTACT: 'Shell <shell@example.com>',
    API_LICENSE: 'MIT',
    DATA_FILE: 'shell.csv',
    OUT_DIR: 'shell-dist',
    DEPLOY_DIR: 'shell-deploy',
    REPORT_FILE: 'shell-report.json',
    ALLOW_SHRINK: '1',
    FULL_BUILD: '1',
    CHECK_PAGES: 'all',
    CHANGES_KEPT: '7',
    LIVE_URL: 'https://shell.example.com',
    DEPLOY_TO: 'netlify',
  };

  it('gets none of the configuration the shell that ran them holds (ALLOW_SHRINK included)', () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, set);
      for (const [name, value] of Object.entries(set)) expect(loadConfig({ [name]: value }), name).not.toEqual(loadConfig({}));
      expect(loadConfig(cleanEnvironment())).toEqual(loadConfig({}));
    } finally {
      for (const name of Object.keys(set)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});
