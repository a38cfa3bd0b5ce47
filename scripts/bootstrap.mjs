// `npm start` and `npm test` on a fresh clone: installs the dependencies when node_modules is missing
// or older than package-lock.json, then builds the browser tracker, the admin console bundles and the
// Node client's dist/ (all git-ignored build output).
// Plain Node (no dependency of its own), so it runs before anything is installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const installed = mtime('node_modules/.package-lock.json');
if (installed === 0 || installed < mtime('package-lock.json')) {
  console.error('installing dependencies (npm install) …');
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { stdio: 'inherit' });
}
for (const script of [['build:tracker'], ['console:build'], ['build:node-client', '--', '--compile-only']]) {
  execFileSync('npm', ['run', '--silent', ...script], { stdio: 'inherit' });
}
