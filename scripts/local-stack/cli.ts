import { UsageError, runCli } from '../../lib/cli.js';
import { stackDown, stackStatus, stackUp } from './stack.js';

const show = async () => {
  const services = await stackStatus();
  for (const s of services) console.log(`${s.name.padEnd(9)} ${s.state.padEnd(9)} ${s.address}`);
  return services;
};

await runCli(
  {
    usage: 'scripts/stack up|down|status',
    summary:
      'The local stack (Kafka in KRaft mode, Apicurio Registry, Postgres): up starts what is not running and waits for it, down stops what up started, status exits 3 when a part is down.',
    positionals: 'command',
    options: {},
  },
  async ({ positionals }) => {
    const [command, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError('expected one command: up, down or status');
    switch (command) {
      case 'up':
        await stackUp();
        await show();
        return 0;
      case 'down':
        await stackDown();
        return 0;
      case 'status':
        return (await show()).every((s) => s.state !== 'down') ? 0 : 3;
      default:
        throw new UsageError(`expected up, down or status, got ${command ?? 'nothing'}`);
    }
  },
);
