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
}

// One rule for Postgres and DuckDB schemas: no quoting surprises, and within Postgres's 63 bytes.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

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
 * The DuckDB file a destination names, resolved inside `dir`. Absolute paths and paths that climb
 * out of the folder are refused whatever `dir` is, so the check holds before the folder is known.
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

export function checkCredentials(
  destination: 'postgres' | 'duckdb',
  credentials: WarehouseCredentials,
  duckdbDir = '.',
): CredentialProblem | undefined {
  if (credentials.schema !== undefined && !IDENTIFIER.test(credentials.schema)) {
    return {
      field: 'credentials.schema',
      reason: 'invalid_format',
      message: 'credentials.schema must be a plain identifier: a letter or _, then letters, digits or _ (at most 63).',
    };
  }
  if (destination === 'duckdb') {
    const file = duckdbFile(duckdbDir, credentials.database);
    return 'file' in file ? undefined : file;
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
