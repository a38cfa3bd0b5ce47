/**
 * A Compose client that checks docker-compose.yml on machines without a Docker engine: the
 * `docker compose` plugin when present, else Debian's `docker-compose` (v1.29, which validates the
 * file against the Compose schema and prints it resolved without talking to an engine). Docker's
 * own plugin package is not in Debian, so `npm test` installs the Debian one first when neither is
 * there (scripts/test-machine.mjs): a fresh machine and CI check the file the same way.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DOCKER_COMPOSE_V1 = '/usr/bin/docker-compose';

/** The argv prefix of a Compose client: ['docker', 'compose'] or ['docker-compose']. */
export async function composeClient(): Promise<string[]> {
  const plugin = await run('docker', ['compose', 'version']).catch(() => undefined);
  if (plugin) return ['docker', 'compose'];
  if (!fs.existsSync(DOCKER_COMPOSE_V1)) {
    throw new Error(
      `neither docker compose nor ${DOCKER_COMPOSE_V1}: run node scripts/test-machine.mjs (npm test runs it first)`,
    );
  }
  return [DOCKER_COMPOSE_V1];
}

/**
 * `config`: validates the file (a non-zero exit names every problem) and prints it as Compose
 * reads it — anchors merged, variables interpolated.
 */
export async function composeConfig(file: string): Promise<string> {
  const [command, ...args] = await composeClient();
  const { stdout } = await run(command!, [...args, '-f', file, 'config'], { timeout: 60_000 });
  return stdout;
}

interface Service {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  init?: boolean;
  restart?: string;
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: unknown[];
  volumes?: unknown[];
  deploy?: { replicas?: number };
}

/** The services that run the image, each with its command, as `npm start` runs the roles' processes. */
export const ROLE_SERVICES: Record<string, { script: string; command: string[] }> = {
  api: { script: 'api', command: ['npm', 'run', 'api'] },
  processors: { script: 'processors', command: ['npm', 'run', 'processors', '--', '--only', 'raw-sink,sessionize'] },
  analytics: { script: 'processors', command: ['npm', 'run', 'processors', '--', '--only', 'analytics-sink'] },
  workers: { script: 'workers', command: ['npm', 'run', 'workers'] },
};

/**
 * What docker-compose.yml must say, checked on the file as parsed and on Compose's own reading of
 * it (`config`), whose formats differ only where this reads through String() and JSON.
 */
export function assertComposeShape(
  compose: { services: Record<string, Service> },
  expect: { scripts: Record<string, string>; apicurioVersion: string; postgresSettings: string[] },
): void {
  const { services } = compose;
  assert.deepEqual(Object.keys(services).sort(), [
    'analytics',
    'api',
    'kafka',
    'mail',
    'postgres',
    'processors',
    'registry',
    'workers',
  ]);
  for (const [role, { script, command }] of Object.entries(ROLE_SERVICES)) {
    const s = services[role]!;
    assert.ok(s.build, `${role} is built from the Dockerfile`);
    assert.equal(s.image, 'product-intelligence:local', `${role}: one image for every role`);
    assert.deepEqual(s.command, command);
    assert.ok(expect.scripts[script], `package.json has the script ${script}`);
    assert.equal(s.init, true, `${role}: an init passes signals on`);
    assert.equal(s.restart, 'unless-stopped');
    const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)]));
    assert.match(env.DATABASE_URL ?? '', /^postgres:\/\/postgres:postgres@postgres:5432\/pi$/, `${role} DATABASE_URL`);
    assert.equal(env.KAFKA_BROKERS, 'kafka:9092', `${role} KAFKA_BROKERS`);
    assert.equal(env.SCHEMA_REGISTRY_URL, 'http://registry:8080/apis/ccompat/v7', `${role} SCHEMA_REGISTRY_URL`);
    for (const dependency of ['postgres', 'kafka', 'registry']) {
      assert.equal(s.depends_on?.[dependency]?.condition, 'service_healthy', `${role} waits for ${dependency}`);
    }
  }
  const api = services.api!;
  assert.equal(String(api.environment!.HOST), '0.0.0.0', 'the API listens beyond the container');
  assert.equal(String(api.environment!.PORT), '3000');
  assert.match(JSON.stringify(api.ports), /3000/);
  assert.match(api.healthcheck!.test.join(' '), /http:\/\/127\.0\.0\.1:3000\/v1\/health/);
  const workers = services.workers!;
  assert.equal(workers.environment!.SMTP_URL, 'smtp://mail:1025');
  assert.equal(workers.environment!.DUCKDB_DIR, '/app/data/duckdb');
  assert.equal(workers.environment!.PARQUET_DIR, '/app/data/parquet');
  assert.match(JSON.stringify(workers.volumes), /exports:\/app\/data/);
  assert.ok(workers.depends_on!.mail, 'workers send report mails');
  assert.equal(services.processors!.ports, undefined, 'only the API publishes a port');

  assert.deepEqual(
    services.postgres!.command,
    ['postgres', ...expect.postgresSettings.flatMap((setting) => ['-c', setting])],
    'Postgres runs with the settings of the local stack',
  );
  assert.match(services.kafka!.image!, /^apache\/kafka:3\.9\./);
  assert.equal(services.registry!.image, `apicurio/apicurio-registry:${expect.apicurioVersion}`);
  assert.equal(services.registry!.environment!.APICURIO_RULES_GLOBAL_COMPATIBILITY, 'BACKWARD');
  for (const [name, s] of Object.entries(services)) {
    assert.ok(s.image, `${name} names its image`);
    for (const [dependency, { condition }] of Object.entries(s.depends_on ?? {})) {
      if (condition === 'service_healthy') {
        assert.ok(services[dependency]?.healthcheck, `${name} waits for ${dependency}, which needs a healthcheck`);
      }
    }
    if (s.healthcheck) assert.ok(['CMD', 'CMD-SHELL'].includes(s.healthcheck.test[0]!), `${name} healthcheck form`);
  }
}
