// `npm run dev`: the server (restarted on changes, `node --watch`) and the web app's Vite dev
// server (hot reload on http://localhost:5173, proxying /api and /ws to the server) together.
// Ctrl-C stops both. PARLEY_URL points Vite elsewhere (then no server is started here).
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const children: ChildProcess[] = [];
let stopping = false;

function start(label: string, command: string, args: string[], cwd = root): void {
  const child = spawn(command, args, { cwd, stdio: 'inherit', env: process.env });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`parley dev: ${label} exited (${code ?? signal}); stopping\n`);
    stop(code ?? 1);
  });
}

function stop(code: number): void {
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
  setTimeout(() => process.exit(code), 2000).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null))).then(() =>
    process.exit(code),
  );
}

if (!process.env['PARLEY_URL']) start('the server', process.execPath, ['--watch-path=server/src', 'server/src/main.ts']);
// Vite itself, not through npm: a signal reaches the process that listens.
start('vite', process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js')], join(root, 'web'));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
