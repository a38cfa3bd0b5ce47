import { ConfigError } from '../../lib/config.js';
import { stackDown, stackStatus, stackUp } from './stack.js';

const usage = 'usage: scripts/stack up|down|status';

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'up':
      await stackUp();
      for (const s of await stackStatus()) console.log(`${s.name.padEnd(9)} ${s.state.padEnd(9)} ${s.address}`);
      return 0;
    case 'down':
      await stackDown();
      return 0;
    case 'status': {
      const services = await stackStatus();
      for (const s of services) console.log(`${s.name.padEnd(9)} ${s.state.padEnd(9)} ${s.address}`);
      return services.every((s) => s.state !== 'down') ? 0 : 3;
    }
    default:
      console.error(usage);
      return 2;
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
