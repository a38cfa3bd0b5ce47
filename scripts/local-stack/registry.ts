import { findJava } from './java.js';
import { apicurioHome } from './maven.js';
import { stackPath } from './paths.js';
import { type Daemon, startDaemon, waitUntil } from './process.js';

export const registryDaemon: Daemon = {
  name: 'registry',
  pidFile: stackPath('registry.pid'),
  logFile: stackPath('registry.log'),
};

export async function registryAnswers(ccompatUrl: string): Promise<boolean> {
  const res = await fetch(`${ccompatUrl}/subjects`, { signal: AbortSignal.timeout(2000) });
  return res.ok;
}

export interface RegistryOptions {
  port: number;
  managementPort: number;
  /** JDBC-style parts of the Postgres database that stores the schemas (ids survive restarts). */
  db: { host: string; port: number; database: string; user: string; password: string };
}

export async function startRegistry(options: RegistryOptions, log: (m: string) => void): Promise<void> {
  const home = await apicurioHome(log);
  const java = await findJava(21);
  const { db } = options;
  log(`starting Apicurio Registry on 127.0.0.1:${options.port}`);
  startDaemon(
    registryDaemon,
    java,
    ['-Xms64m', '-Xmx384m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-jar', 'quarkus-run.jar'],
    {
      cwd: home,
      env: {
        QUARKUS_HTTP_HOST: '127.0.0.1',
        QUARKUS_HTTP_PORT: String(options.port),
        QUARKUS_MANAGEMENT_HOST: '127.0.0.1',
        QUARKUS_MANAGEMENT_PORT: String(options.managementPort),
        APICURIO_STORAGE_KIND: 'sql',
        APICURIO_STORAGE_SQL_KIND: 'postgresql',
        APICURIO_DATASOURCE_URL: `jdbc:postgresql://${db.host}:${db.port}/${db.database}`,
        APICURIO_DATASOURCE_USERNAME: db.user,
        APICURIO_DATASOURCE_PASSWORD: db.password,
        APICURIO_DATASOURCE_JDBC_INITIAL_SIZE: '1',
        APICURIO_DATASOURCE_JDBC_MIN_SIZE: '1',
        APICURIO_DATASOURCE_JDBC_MAX_SIZE: '5',
        APICURIO_RULES_GLOBAL_COMPATIBILITY: 'BACKWARD',
        QUARKUS_LOG_LEVEL: 'INFO',
      },
    },
  );
  const url = `http://127.0.0.1:${options.port}/apis/ccompat/v7`;
  await waitUntil('registry', () => registryAnswers(url), { timeoutMs: 180_000, daemon: registryDaemon });
}
