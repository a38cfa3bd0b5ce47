import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { RunningApi } from '../../api/server.js';
import type { Services } from '../../lib/services.js';
import { runWarehouseExportPass } from '../../workers/warehouse-export/worker.js';
import { call, closeServices, errorOf, newProject, services, startTestApi } from './helpers.js';

interface Status {
  id: string;
  status: string;
  error: string | null;
}

/** Every file under `dir` with a digest of its bytes: what an export created or changed. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(full, crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
  }
  return files;
}

const touched = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([file, digest]) => before.get(file) !== digest && !file.endsWith('.wal')).map(([file]) => file);

/** The project ids of the exported events in a DuckDB file, with how many rows each. */
async function projectsIn(file: string): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      'select project_id, count(*)::integer as n from main.pi_events group by project_id',
    );
    return Object.fromEntries(reader.getRowObjects().map((r) => [String(r.project_id), Number(r.n)]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Another process holding a DuckDB file open, as a worker running a long export into it does (DuckDB locks it). */
async function holdOpen(file: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { DuckDBInstance } from '@duckdb/node-api';
       const instance = await DuckDBInstance.create(${JSON.stringify(file)});
       await instance.connect();
       console.log('open');
       process.stdin.resume();
       process.stdin.on('end', () => process.exit(0));`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  return child;
}

describe('warehouse export files: each project in its own folder', function () {
  this.timeout(60_000);
  let api: RunningApi;
  let worker: Services;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-export-files-'));
  const duckdbDir = path.join(dir, 'duckdb');

  before(async () => {
    api = await startTestApi();
    worker = { ...services(), config: { ...services().config, duckdbDir, parquetDir: path.join(dir, 'parquet') } };
    fs.mkdirSync(duckdbDir, { recursive: true });
  });

  after(async () => {
    await api.close();
    await closeServices();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A project with `events` raw events of its own and an admin key. */
  async function project(events: number) {
    const { projectId, keys } = await newProject(['admin']);
    await services().db.query(
      `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                               kafka_partition, kafka_offset)
       select $1, 'm' || i, 'u' || i, 'click', '{}', now(), now(), 0, i from generate_series(1, $2::int) i`,
      [projectId, events],
    );
    const exportTo = async (database: string) => {
      const json = { destination: 'duckdb', credentials: { database }, tables: ['events'] };
      const queued = await call<Status>(api, 'POST', '/analytics/export/warehouse', { key: keys[0]!, json });
      if (queued.status !== 202) return queued;
      await runWarehouseExportPass(worker);
      return call<Status>(api, 'GET', `/analytics/export/warehouse/${queued.body.id}`, { key: keys[0]! });
    };
    return { projectId, exportTo };
  }

  it("no setting of project A reads, mixes into or overwrites B's file: the same name is a file of A's own", async () => {
    const [a, b] = [await project(3), await project(5)];
    const empty = snapshot(duckdbDir);
    const ofB = await b.exportTo('shared.duckdb');
    assert.equal(ofB.body.status, 'succeeded', ofB.body.error ?? '');
    const afterB = snapshot(duckdbDir);
    const [fileOfB] = touched(empty, afterB);
    assert.ok(fileOfB, "B's export wrote a file");

    // The same name, and every way of spelling B's file from inside the folder.
    for (const database of ['shared.duckdb', './shared.duckdb', 'x/../shared.duckdb', `${b.projectId}/shared.duckdb`]) {
      const ofA = await a.exportTo(database);
      assert.equal(ofA.body.status, 'succeeded', `${database}: ${ofA.body.error ?? ''}`);
    }
    // Climbing out to B's file, or naming it whole, is refused before anything is queued.
    const relative = path.relative(path.join(duckdbDir, a.projectId), fileOfB);
    for (const database of [relative, `../${path.relative(duckdbDir, fileOfB)}`, fileOfB]) {
      const refused = await a.exportTo(database);
      assert.equal(refused.status, 400, database);
      assert.equal(errorOf(refused).details.reason, 'path_outside_folder', database);
    }

    const afterA = snapshot(duckdbDir);
    assert.equal(afterA.get(fileOfB), afterB.get(fileOfB), "B's file is byte for byte what B's export wrote");
    const filesOfA = touched(afterB, afterA);
    assert.ok(filesOfA.length >= 2, 'A has files of its own');
    for (const file of filesOfA) {
      assert.ok(file.startsWith(path.join(duckdbDir, a.projectId) + path.sep), `${file} is in A's folder`);
      assert.deepEqual(await projectsIn(file), { [a.projectId]: 3 }, `${file} holds A's rows only`);
    }
    assert.deepEqual(await projectsIn(fileOfB), { [b.projectId]: 5 }, "B's file holds B's rows only");
  });

  it("A's export holding its file open does not lock B out of the same name", async () => {
    const [a, b] = [await project(2), await project(4)];
    const before = snapshot(duckdbDir);
    assert.equal((await a.exportTo('locked.duckdb')).body.status, 'succeeded');
    const [fileOfA] = touched(before, snapshot(duckdbDir));
    assert.ok(fileOfA);
    const holder = await holdOpen(fileOfA);
    try {
      const ofB = await b.exportTo('locked.duckdb');
      assert.equal(ofB.body.status, 'succeeded', ofB.body.error ?? '');
      assert.equal(ofB.body.error, null);
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.stdin!.end();
      await exited;
    }
    assert.deepEqual(await projectsIn(fileOfA), { [a.projectId]: 2 }, "A's file holds A's rows only");
  });
});
