import path from 'node:path';

/** Checks of a warehouse export's credentials that need no connection: done when it is queued and again when it runs. */
export interface CredentialProblem {
  field: string;
  reason: string;
  message: string;
}

export interface WarehouseCredentials {
  account?: string;
  database: string;
  schema?: string;
  user?: string;
  password?: string;
  /** Postgres: TLS with a verified certificate unless `disable`. */
  tls?: 'verify' | 'disable';
}

// One rule for Postgres and DuckDB schemas: no quoting surprises, and within Postgres's 63 bytes.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Where a warehouse export may write: a Postgres database, a DuckDB file, or a folder of Parquet files. */
export const WAREHOUSE_DESTINATIONS = ['postgres', 'duckdb', 'parquet'] as const;
export type WarehouseDestination = (typeof WAREHOUSE_DESTINATIONS)[number];

export const DEFAULT_SCHEMA = { postgres: 'public', duckdb: 'main' } as const;

/** `host`, `host:port` or `[v6]:port` → host and port (5432 by default). */
export function parseAccount(account: string): { host: string; port: number } | CredentialProblem {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s/]+))(?::(\d{1,5}))?$/.exec(account.trim());
  const port = match?.[3] === undefined ? 5432 : Number(match[3]);
  if (!match || port < 1 || port > 65535) {
    return {
      field: 'credentials.account',
      reason: 'invalid_format',
      message: 'credentials.account must be host or host:port (port 1-65535) of the Postgres server.',
    };
  }
  return { host: (match[1] ?? match[2])!, port };
}

/**
 * A file a destination names, resolved inside `dir`. Absolute paths and paths that climb out of
 * the folder are refused whatever `dir` is, so the check holds before the folder is known.
 */
export function duckdbFile(dir: string, database: string): { file: string } | CredentialProblem {
  const relative = path.normalize(database);
  const escapes =
    path.isAbsolute(database) ||
    relative === '..' ||
    relative.startsWith(`..${path.sep}`) ||
    relative === '.' ||
    relative.endsWith(path.sep) ||
    database.includes('\0');
  if (escapes) {
    return {
      field: 'credentials.database',
      reason: 'path_outside_folder',
      message: 'credentials.database must name a file inside the DuckDB export folder (a relative path, no "..").',
    };
  }
  const root = path.resolve(dir);
  return { file: path.join(root, relative) };
}

/**
 * The project's own folder of an export folder (`dir/<project id>`). Projects share `dir`: a
 * destination's path is resolved in here, so no setting of one project names another's file.
 */
export function projectFolder(dir: string, projectId: string): string {
  // Ids are UUIDs; anything else would be a bug that must not become a path outside the folder.
  if (!/^[0-9A-Za-z-]+$/.test(projectId)) throw new Error(`not a project id: ${JSON.stringify(projectId)}`);
  return path.join(path.resolve(dir), projectId);
}

/**
 * The DuckDB file a destination names, inside the project's own folder of `dir`: another project
 * naming the same file gets a file of its own, so it can neither lock, mix rows into, nor delete
 * this one (docs/adr/0084-tenant-isolated-exports.md).
 */
export function projectDuckdbFile(
  dir: string,
  projectId: string,
  database: string,
): { file: string } | CredentialProblem {
  return duckdbFile(projectFolder(dir, projectId), database);
}

/**
 * The folder a Parquet destination names, inside the project's own folder of `dir` (an export
 * replaces the folder's files). The path rule is the DuckDB file's.
 */
export function parquetFolder(
  dir: string,
  projectId: string,
  database: string,
): { folder: string } | CredentialProblem {
  const resolved = duckdbFile(projectFolder(dir, projectId), database);
  if ('file' in resolved) return { folder: resolved.file };
  return {
    ...resolved,
    message:
      'credentials.database must name a folder inside the Parquet export folder (a relative path, no "..", no trailing "/").',
  };
}

export function checkCredentials(
  destination: WarehouseDestination,
  credentials: WarehouseCredentials,
): CredentialProblem | undefined {
  if (credentials.schema !== undefined && !IDENTIFIER.test(credentials.schema)) {
    return {
      field: 'credentials.schema',
      reason: 'invalid_format',
      message: 'credentials.schema must be a plain identifier: a letter or _, then letters, digits or _ (at most 63).',
    };
  }
  // Which folder (and which project's) does not change what escapes it.
  if (destination === 'duckdb') {
    const file = duckdbFile('.', credentials.database);
    return 'file' in file ? undefined : file;
  }
  if (destination === 'parquet') {
    const folder = parquetFolder('.', 'project', credentials.database);
    return 'folder' in folder ? undefined : folder;
  }
  if (!credentials.account) {
    return {
      field: 'credentials.account',
      reason: 'required',
      message: 'credentials.account (host[:port]) is required for postgres.',
    };
  }
  const account = parseAccount(credentials.account);
  return 'host' in account ? undefined : account;
}
