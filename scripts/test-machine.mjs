// The machine set-up `npm test` needs beyond npm: Debian's chromium (browser tests, driven by
// playwright-core), docker-compose v1 (checks docker-compose.yml without a Docker engine) and ruby
// with minitest (the Ruby client's suite), each installed from Debian's packages when absent. Run by
// `pretest` after scripts/bootstrap.mjs, so the tests themselves never install anything.
// Plain Node (no dependency of its own).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const has = (command, args) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const missing = [
  !fs.existsSync('/usr/bin/chromium') && 'chromium',
  !has('docker', ['compose', 'version']) && !fs.existsSync('/usr/bin/docker-compose') && 'docker-compose',
  !has('ruby', ['-e', 'require "minitest"']) && ['ruby', 'ruby-minitest'],
]
  .flat()
  .filter(Boolean);

if (missing.length > 0) {
  if (process.getuid?.() !== 0) {
    console.error(
      `test-machine: ${missing.join(', ')} missing and this is not root: install them from Debian's packages`,
    );
    process.exit(1);
  }
  console.error(`test-machine: installing ${missing.join(', ')} from Debian's packages …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'ignore', env });
}
