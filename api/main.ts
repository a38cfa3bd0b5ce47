import cluster from 'node:cluster';
import { UsageError, runCli } from '../lib/cli.js';
import { runRole } from '../lib/role.js';
import { apiPoolLimits, startApi } from './server.js';

await runCli(
  {
    usage: 'npm run api -- [--processes n]',
    summary:
      'The API role: REST API, WebSocket stream and OpenAPI document on HOST:PORT. Stateless: run more copies behind a load balancer, or --processes n on one port.',
    options: { processes: { type: 'string', arg: 'n', help: 'HTTP server processes sharing the port (default 1)' } },
  },
  async ({ values }) => {
    const processes = Number(values.processes ?? 1);
    if (!Number.isInteger(processes) || processes < 1 || processes > 64) {
      throw new UsageError('--processes: expected a whole number from 1 to 64');
    }
    if (processes > 1 && cluster.isPrimary) {
      // node:cluster shares the port between the processes; a dead one ends the role, whose
      // supervisor (npm start, or the container runtime) restarts it whole.
      let stopping = false;
      for (let i = 0; i < processes; i++) cluster.fork();
      cluster.on('exit', () => {
        if (!stopping) process.exit(1);
        else if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      });
      const stopAll = (signal: NodeJS.Signals) => {
        stopping = true;
        for (const worker of Object.values(cluster.workers ?? {})) worker?.kill(signal);
      };
      process.once('SIGINT', stopAll);
      process.once('SIGTERM', stopAll);
      if (process.send) process.once('disconnect', () => stopAll('SIGTERM'));
      return;
    }
    await runRole(
      'api',
      async (services) => {
        const api = await startApi(services.config, services);
        return [{ stop: () => api.close() }];
      },
      { limits: apiPoolLimits },
    );
  },
);
