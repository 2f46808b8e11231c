/** A real nginx (Debian's) on a loopback port, serving a built site with the generated configuration: for the tests and the bench. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { NGINX_DEFAULT_LISTEN } from '../../src/serve/hosts/nginx.ts';
import { freePort, stopChild, tempDir } from './servers.ts';

const NGINX_BINARY = '/usr/sbin/nginx';
export const hasNginx = existsSync(NGINX_BINARY);

export interface RunningNginx {
  origin: string;
  stop: () => Promise<void>;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolveOpen) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolveOpen(true);
      });
      socket.on('error', () => resolveOpen(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** Starts nginx with the generated `deploy/nginx.conf`; only its `listen` line is changed. */
export async function startNginx(deployDir: string): Promise<RunningNginx> {
  const port = await freePort();
  const dir = tempDir('nginx');
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
  const generated = readFileSync(join(deployDir, 'nginx.conf'), 'utf8');
  const listen = `listen ${NGINX_DEFAULT_LISTEN};`;
  if (!generated.includes(listen)) throw new Error(`generated nginx.conf has no "${listen}" line`);
  writeFileSync(join(dir, 'site.conf'), generated.replace(listen, `listen 127.0.0.1:${port};`));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
worker_processes 1;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
  );
  const child = spawn(NGINX_BINARY, ['-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'inherit' });
  await waitForPort(port, 10_000);
  return { origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child, 'SIGQUIT') };
}
