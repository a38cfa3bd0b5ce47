import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { resolveTarget } from '../../lib/targets.js';
import { DEFAULT_SCHEMA, parseAccount } from '../../domain/exports/credentials.js';
import { type WarehouseTable, columnType, destinationColumns, createTableSql, quoteIdent } from './tables.js';
import type { WarehouseWriter, WriterTarget } from './writer.js';

/** Transposes rows into one array per column, for `insert … select * from unnest(…)`. */
export const toColumnArrays = (rows: unknown[][], width: number): unknown[][] =>
  Array.from({ length: width }, (_, i) => rows.map((row) => row[i]));

/**
 * TLS unless the destination says `disable`: the certificate is checked against the system's CAs
 * (and WAREHOUSE_CA_FILE) and the account's host name, although the connection goes to the address
 * the SSRF guard resolved.
 */
function tlsOptions(credentials: WriterTarget['credentials'], host: string, caFile: string | undefined) {
  if (credentials.tls === 'disable') return false;
  return {
    rejectUnauthorized: true,
    ...(net.isIP(host) === 0 ? { servername: host } : {}),
    ...(caFile ? { ca: [...tls.rootCertificates, fs.readFileSync(caFile, 'utf8')] } : {}),
    checkServerIdentity: (_: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(host, cert),
  };
}

export async function openPostgresWriter(
  { projectId, exportId, credentials, targets, timeoutMs, deadline }: WriterTarget,
  caFile: string | undefined,
): Promise<WarehouseWriter> {
  const account = parseAccount(credentials.account ?? '');
  if (!('host' in account)) throw new Error(account.message);
  const schema = credentials.schema ?? DEFAULT_SCHEMA.postgres;
  const client = new pg.Client({
    host: await resolveTarget(account.host, targets),
    port: account.port,
    database: credentials.database,
    user: credentials.user,
    password: credentials.password,
    ssl: tlsOptions(credentials, account.host, caFile),
    // A destination that accepts the connection and then stays silent fails the export after
    // this, instead of holding a worker slot for ever.
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'pi-warehouse-export',
  });
  // A connection lost mid-export surfaces as the failed query; this only keeps it from crashing the process.
  client.on('error', () => undefined);
  // end() with a statement outstanding (or while connecting) destroys the socket: what waits fails now.
  // A commit that started is left to finish, so a stopped export either committed or replaced nothing.
  let committing = false;
  const hangUp = () => {
    if (!committing) void client.end().catch(() => undefined);
  };
  deadline.addEventListener('abort', hangUp, { once: true });
  try {
    await client.connect();
  } catch (err) {
    deadline.removeEventListener('abort', hangUp);
    throw err;
  }
  try {
    await client.query('begin');
    // Two exports of one project into one database would trip over each other's rows: one at a time.
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`pi-warehouse-export:${projectId}`]);
    await client.query(`create schema if not exists ${quoteIdent(schema)}`);
  } catch (err) {
    deadline.removeEventListener('abort', hangUp);
    await client.end().catch(() => undefined);
    throw err;
  }
  const name = (table: WarehouseTable) => `${quoteIdent(schema)}.${quoteIdent(table.target)}`;
  return {
    async replace(table) {
      await client.query(createTableSql(table, schema, 'postgres'));
      await client.query(`delete from ${name(table)} where project_id = $1`, [projectId]);
    },
    async append(table, rows) {
      const columns = table.columns;
      const arrays = columns.map((c, i) => `$${i + 3}::${columnType(c.kind, 'postgres')}[]`);
      await client.query(
        `insert into ${name(table)} (${destinationColumns(table)
          .map((c) => quoteIdent(c.name))
          .join(', ')})
         select $1, $2, u.* from unnest(${arrays.join(', ')}) as u`,
        [projectId, exportId, ...toColumnArrays(rows, columns.length)],
      );
    },
    async commit() {
      committing = true;
      await client.query('commit');
    },
    // Without a commit, hanging up is the rollback: the server aborts the transaction. end()
    // destroys the socket when a timed-out statement is still outstanding, and is itself bounded.
    async close() {
      deadline.removeEventListener('abort', hangUp);
      const giveUp = new AbortController();
      await Promise.race([
        client.end().catch(() => undefined),
        sleep(timeoutMs, undefined, { signal: giveUp.signal }).catch(() => undefined),
      ]);
      giveUp.abort();
    },
  };
}
