import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { SMTPServer } from 'smtp-server';
import type { RunningApi } from '../../api/server.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { jobSender, tickQueue } from '../../store/reports/queue.js';
import { startReportWorker } from '../../workers/reports/worker.js';
import {
  call,
  count,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
} from './helpers.js';

const fontDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts/',
);

async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl: fontDir }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    // Cells are separate text runs; pdf.js adds blank runs between some of them.
    const runs = content.items.map((item) => ('str' in item ? item.str : '')).filter((run) => run.trim() !== '');
    pages.push(runs.join('\n'));
  }
  return pages.join('\n');
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

interface Feature {
  name: string;
  visibility_rate: number;
  engagement_conversion: number;
  discovery_gap_score: number;
  users_saw: number;
  users_used: number;
}
interface Workflow {
  goal: string;
  path: string[];
  frequency: number;
  users: number;
  completion_rate: number;
  avg_time: number;
  efficiency_score: number;
  occurrences: number;
}
interface Run {
  id: string;
  trigger: string;
  status: string;
  period: { start: string; end: string };
  attempts: number;
  recipients: string[];
  sent_at: string | null;
  error: string | null;
}
type Report = { id: string; next_run_at: string; runs: Run[] } & Record<string, unknown>;

/**
 * Reports end to end: events through the pipeline into the tables, a report run through the
 * API, rendered and mailed by the worker (pg-boss) to a real SMTP server, and parsed back.
 */
describe('scheduled reports', () => {
  let pipeline: TestPipeline;
  let api: RunningApi;
  let admin: string;
  let reader: string;
  let projectId: string;
  let worker: { stop(): Promise<void> };
  let smtp: SMTPServer;
  let smtpUrl: string;
  const mails: ParsedMail[] = [];
  /** Recipients the SMTP server refuses, with how many more times and the reply code (450: for now, 550: for good). */
  const refusals = new Map<string, { left: number; code: number }>();
  const id = crypto.randomUUID().slice(0, 8);
  // Yesterday noon (UTC): inside the period of a run made today, whatever the schedule.
  const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;

  const workerServices = () => ({ ...services(), config: { ...services().config, smtpUrl, pollIntervalMs: 200 } });
  const mailTo = (address: string) => mails.filter((m) => addresses(m.to).includes(address));
  const create = async (json: Record<string, unknown>) => {
    const reply = await call<Report>(api, 'POST', '/analytics/reports', { key: admin, json });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body;
  };
  const runNow = async (reportId: string) => {
    const reply = await call<{ run_id: string; status: string }>(api, 'POST', `/analytics/reports/${reportId}/run`, {
      key: admin,
    });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    assert.equal(reply.body.status, 'queued');
    return reply.body.run_id;
  };
  const runOf = async (reportId: string, runId: string, status: string) =>
    waitFor(
      `run ${runId} ${status}`,
      async () => {
        const reply = await call<Report>(api, 'GET', `/analytics/reports/${reportId}`, { key: admin });
        const run = reply.body.runs.find((r) => r.id === runId);
        return run?.status === status ? run : undefined;
      },
      30_000,
    );

  before(async () => {
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onRcptTo(address, _session, callback) {
        const refusal = refusals.get(address.address);
        if (!refusal || refusal.left <= 0) return callback();
        refusal.left--;
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: refusal.code }));
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail) => {
            mails.push(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;

    pipeline = await startPipeline(['analytics']);
    api = pipeline.api;
    const project = await newProject(['events:write', 'admin'], ['analytics:read']);
    [admin, reader] = project.keys as [string, string];
    projectId = project.projectId;
    worker = await startReportWorker(workerServices(), { retry: { retryLimit: 1, retryDelay: 1 } });

    // Four users; export is seen by 4 and used by 3, filters seen by 3 and used by a fourth (a use
    // counts as seen), share seen by 2 and used by none.
    const seen: Record<string, string[]> = {
      export: ['u1', 'u2', 'u3', 'u4'],
      filters: ['u1', 'u2', 'u3'],
      share: ['u1', 'u2'],
    };
    const used: Record<string, string[]> = { export: ['u1', 'u2', 'u3'], filters: ['u4'] };
    const events = [];
    let s = 0;
    const at = () => new Date(day + 12 * 3600_000 + s++ * 1000).toISOString();
    for (const user of ['u1', 'u2', 'u3', 'u4']) {
      events.push({ user_id: `${user}-${id}`, event: 'page_view', properties: { page: '/home' }, timestamp: at() });
      for (const [feature, users] of Object.entries(seen)) {
        if (users.includes(user)) {
          const properties = { page: '/home', feature };
          events.push({ user_id: `${user}-${id}`, event: 'feature_impression', properties, timestamp: at() });
        }
      }
      for (const [feature, users] of Object.entries(used)) {
        if (users.includes(user)) {
          const properties = { page: '/home', feature };
          events.push({ user_id: `${user}-${id}`, event: 'feature_used', properties, timestamp: at() });
        }
      }
      events.push({ user_id: `${user}-${id}`, event: 'page_view', properties: { page: '/settings' }, timestamp: at() });
    }
    const sent = await call(api, 'POST', '/events/batch', { key: admin, json: { events } });
    assert.equal(sent.status, 202);
    await waitForAnalytics();
  });

  after(async () => {
    await worker?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
    await stopPipeline(pipeline);
  });

  it('mails a PDF whose text holds the top features with the numbers GET /analytics/features gives', async () => {
    const report = await create({
      name: `Weekly features ${id}`,
      type: 'feature_intelligence',
      schedule: 'weekly',
      format: 'pdf',
      recipients: [`pm-${id}@example.com`, `lead-${id}@example.com`],
    });
    assert.ok(Date.parse(report.next_run_at) > Date.now());
    assert.equal(new Date(report.next_run_at).getUTCDay(), 1);
    const runId = await runNow(report.id);
    const run = await runOf(report.id, runId, 'sent');
    assert.deepEqual([run.trigger, run.attempts, run.error], ['manual', 1, null]);
    assert.ok(run.sent_at);
    assert.deepEqual(run.recipients, [`pm-${id}@example.com`, `lead-${id}@example.com`]);

    const [mail] = mailTo(`pm-${id}@example.com`);
    assert.ok(mail, 'a mail to the first recipient');
    assert.deepEqual(addresses(mail.to), [`pm-${id}@example.com`, `lead-${id}@example.com`]);
    assert.equal(mail.subject, `Weekly features ${id}: ${run.period.start} to ${run.period.end}`);
    assert.equal(mail.attachments.length, 1);
    const pdf = mail.attachments[0]!;
    assert.equal(pdf.contentType, 'application/pdf');
    assert.equal(pdf.filename, `feature_intelligence-${run.period.start}_${run.period.end}.pdf`);
    const text = await pdfText(pdf.content);

    const { body } = await call<{ features: Feature[] }>(
      api,
      'GET',
      `/analytics/features?date_range=custom&start=${run.period.start}&end=${run.period.end}`,
      { key: reader },
    );
    assert.deepEqual(
      body.features.map((f) => [f.name, f.users_saw, f.users_used]),
      [
        ['export', 4, 3],
        ['filters', 4, 1],
        ['share', 2, 0],
      ],
    );
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    for (const f of body.features) {
      // One table row: the cells in column order.
      const row = [
        f.name,
        pct(f.visibility_rate),
        pct(f.engagement_conversion),
        f.discovery_gap_score.toFixed(3),
        String(f.users_saw),
        String(f.users_used),
      ].join('\n');
      assert.ok(text.includes(row), `${JSON.stringify(row)} in ${text}`);
    }
  });

  it('mails CSV as an attachment and HTML as the body', async () => {
    const csvReport = await create({
      name: `Daily CSV ${id}`,
      type: 'feature_intelligence',
      schedule: 'daily',
      format: 'csv',
      recipients: [`csv-${id}@example.com`],
    });
    const htmlReport = await create({
      name: `Monthly friction ${id}`,
      type: 'friction',
      schedule: 'monthly',
      format: 'html',
      recipients: [`html-${id}@example.com`],
    });
    const csvRun = await runOf(csvReport.id, await runNow(csvReport.id), 'sent');
    const htmlRun = await runOf(htmlReport.id, await runNow(htmlReport.id), 'sent');
    assert.deepEqual(csvRun.period, { start: new Date(day).toISOString().slice(0, 10), end: csvRun.period.start });

    const csvMail = mailTo(`csv-${id}@example.com`)[0]!;
    assert.equal(csvMail.attachments[0]!.contentType, 'text/csv');
    const rows = parse<Record<string, string>>(csvMail.attachments[0]!.content, { columns: true });
    const { body } = await call<{ features: Feature[] }>(
      api,
      'GET',
      `/analytics/features?date_range=custom&start=${csvRun.period.start}&end=${csvRun.period.end}`,
      { key: reader },
    );
    assert.deepEqual(
      rows.map((r) => [r.name, Number(r.visibility_rate), Number(r.engagement_conversion), Number(r.users_used)]),
      body.features.map((f) => [f.name, f.visibility_rate, f.engagement_conversion, f.users_used]),
    );

    const htmlMail = mailTo(`html-${id}@example.com`)[0]!;
    assert.equal(htmlMail.attachments.length, 0);
    assert.ok(htmlMail.html);
    const friction = await call<{
      friction_points: { page: string; element: string | null; friction_index: number }[];
    }>(
      api,
      'GET',
      `/analytics/friction?date_range=custom&start=${htmlRun.period.start}&end=${htmlRun.period.end}&include_zero=true`,
      { key: reader },
    );
    const pages = friction.body.friction_points.filter((p) => p.element === null);
    assert.deepEqual(pages.map((p) => p.page).sort(), ['/home', '/settings']);
    for (const p of pages) assert.ok(htmlMail.html.includes(`>${p.page}</td>`), p.page);
    assert.match(htmlMail.text ?? '', /2 pages with activity/);
  });

  it('retries a send refused for now, and fails one refused for good at once', async () => {
    const flaky = `flaky-${id}@example.com`;
    const gone = `gone-${id}@example.com`;
    refusals.set(flaky, { left: 1, code: 450 });
    refusals.set(gone, { left: 100, code: 550 });
    const recovers = await create({
      name: `Flaky ${id}`,
      type: 'friction',
      schedule: 'daily',
      format: 'csv',
      recipients: [flaky],
    });
    const fails = await create({ name: `Gone ${id}`, type: 'friction', schedule: 'daily', recipients: [gone] });
    const recovered = await runOf(recovers.id, await runNow(recovers.id), 'sent');
    assert.equal(recovered.attempts, 2);
    assert.equal(recovered.error, null);
    assert.equal(mailTo(flaky).length, 1);
    const failed = await runOf(fails.id, await runNow(fails.id), 'failed');
    assert.equal(failed.attempts, 1, 'a mailbox that does not exist is not asked again');
    assert.match(failed.error ?? '', /recipients were rejected|mailbox unavailable/);
    assert.equal(failed.sent_at, null);
  });

  it('registers one cron schedule per period in pg-boss, however many workers start', async () => {
    const schedules = () =>
      services()
        .db.query<{ name: string; cron: string; timezone: string }>(
          'select name, cron, timezone from pgboss.schedule order by name',
        )
        .then((r) => r.rows);
    const expected = [
      { name: 'report-tick-daily', cron: '0 6 * * *', timezone: 'UTC' },
      { name: 'report-tick-monthly', cron: '0 6 1 * *', timezone: 'UTC' },
      { name: 'report-tick-weekly', cron: '0 6 * * 1', timezone: 'UTC' },
    ];
    assert.deepEqual(await schedules(), expected);
    const second = await startReportWorker(workerServices());
    try {
      assert.deepEqual(await schedules(), expected);
    } finally {
      await second.stop();
    }
  });

  it('a tick sends each report of its schedule once per period, and a deleted report no more', async () => {
    const kept = await create({
      name: `Kept ${id}`,
      type: 'feature_intelligence',
      schedule: 'weekly',
      format: 'csv',
      recipients: [`kept-${id}@example.com`],
    });
    const dropped = await create({
      name: `Dropped ${id}`,
      type: 'feature_intelligence',
      schedule: 'weekly',
      format: 'csv',
      recipients: [`dropped-${id}@example.com`],
    });
    // Both existed before the last weekly sending time.
    await services().db.query(
      `update reports set created_at = now() - interval '40 days' where project_id = $1 and report_id = any($2)`,
      [projectId, [kept.id, dropped.id]],
    );
    const deleted = await call(api, 'DELETE', `/analytics/reports/${dropped.id}`, { key: admin });
    assert.deepEqual([deleted.status, deleted.body], [200, { id: dropped.id, deleted: true }]);
    assert.equal((await call(api, 'GET', `/analytics/reports/${dropped.id}`, { key: admin })).status, 404);

    const sender = jobSender(services().db);
    const ticks = [await sender.send(tickQueue('weekly'), {}), await sender.send(tickQueue('weekly'), {})];
    await waitFor('both ticks worked', async () => {
      const n = await count(`select 1 from pgboss.job where id = any($1) and state = 'completed'`, [ticks]);
      return n === 2;
    });
    const scheduled = await services().db.query<{ report_id: string; run_id: string }>(
      `select report_id, run_id from report_runs where project_id = $1 and trigger = 'schedule'`,
      [projectId],
    );
    assert.deepEqual(
      scheduled.rows.map((r) => r.report_id),
      [kept.id],
    );
    await runOf(kept.id, scheduled.rows[0]!.run_id, 'sent');
    assert.equal(mailTo(`kept-${id}@example.com`).length, 1);
    assert.equal(mailTo(`dropped-${id}@example.com`).length, 0);
  });

  it('lists reports page by page, newest first', async () => {
    const reply = await call<{ reports: Report[]; total: number; page: number; per_page: number }>(
      api,
      'GET',
      '/analytics/reports?per_page=2&page=1',
      { key: admin },
    );
    assert.equal(reply.status, 200);
    const total = await count('select 1 from reports where project_id = $1', [projectId]);
    assert.deepEqual([reply.body.total, reply.body.page, reply.body.per_page], [total, 1, 2]);
    // The last two created by the tests above (Kept is dated back 40 days, Dropped is deleted).
    assert.deepEqual(
      reply.body.reports.map((r) => r.name),
      [`Gone ${id}`, `Flaky ${id}`],
    );
    const next = await call<{ reports: Report[] }>(api, 'GET', '/analytics/reports?per_page=2&page=2', { key: admin });
    assert.deepEqual(
      next.body.reports.map((r) => r.name),
      [`Monthly friction ${id}`, `Daily CSV ${id}`],
    );
  });

  it('refuses bad bodies with the error format and stores nothing', async () => {
    const before = await count('select 1 from reports where project_id = $1', [projectId]);
    const good = {
      name: 'r',
      type: 'feature_intelligence',
      schedule: 'weekly',
      recipients: ['a@example.com'],
    };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...good, recipients: ['a@example.com', 'not an address'] }, 'recipients[1]', 'invalid_format'],
      [{ ...good, schedule: 'hourly' }, 'schedule', 'invalid_value'],
      [{ ...good, format: 'docx' }, 'format', 'invalid_value'],
      [{ ...good, recipients: [] }, 'recipients', 'min_items'],
      [{ ...good, type: 'paths' }, 'type', 'invalid_value'],
    ];
    for (const [json, field, reason] of cases) {
      const reply = await call(api, 'POST', '/analytics/reports', { key: admin, json });
      assert.equal(reply.status, 400);
      assert.deepEqual(
        [errorOf(reply).code, errorOf(reply).details.field, errorOf(reply).details.reason],
        ['invalid_request', field, reason],
      );
    }
    assert.equal(await count('select 1 from reports where project_id = $1', [projectId]), before);
  });

  it("answers 404 to another project's report, and lists none of them", async () => {
    const report = await create({ name: 'Mine', type: 'friction', schedule: 'daily', recipients: ['m@example.com'] });
    const other = (await newProject(['admin'])).keys[0]!;
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/run'],
      ['DELETE', ''],
    ] as const) {
      const reply = await call(api, method, `/analytics/reports/${report.id}${suffix}`, { key: other });
      assert.equal(reply.status, 404, `${method} ${suffix}`);
      assert.equal(errorOf(reply).code, 'not_found');
    }
    const list = await call<{ reports: unknown[]; total: number }>(api, 'GET', '/analytics/reports', { key: other });
    assert.deepEqual([list.body.total, list.body.reports.length], [0, 0]);
    assert.equal((await call(api, 'GET', `/analytics/reports/${report.id}`, { key: admin })).status, 200);
    assert.equal(await count('select 1 from report_runs where report_id = $1', [report.id]), 0);
  });

  it('mails workflows reports with the paths and numbers GET /analytics/workflows gives, by hand and on schedule', async () => {
    // Goal report_exported: three users go /home → /export → goal, one /home → /settings → goal
    // (seen once: "other"), one stops on /settings.
    const goal = `report_exported_${id}`;
    const steps: Record<string, string[]> = {
      w1: ['/home', '/export', goal],
      w2: ['/home', '/export', goal],
      w3: ['/home', '/export', goal],
      w4: ['/home', '/settings', goal],
      w5: ['/home', '/settings'],
    };
    const events = Object.entries(steps).flatMap(([user, names]) =>
      names.map((step, i) => ({
        user_id: `${user}-${id}`,
        event: step.startsWith('/') ? 'page_view' : step,
        properties: step.startsWith('/') ? { page: step } : {},
        timestamp: new Date(day + 15 * 3600_000 + i * 20_000).toISOString(),
      })),
    );
    const declared = await call(api, 'PUT', '/settings/goals', { key: admin, json: { goals: [goal] } });
    assert.equal(declared.status, 200, JSON.stringify(declared.body));
    assert.equal((await call(api, 'POST', '/events/batch', { key: admin, json: { events } })).status, 202);
    await waitForAnalytics();
    assert.equal(await refreshWorkflows(services(), projectId), 1);
    const { body } = await call<{ workflows: Workflow[] }>(api, 'GET', `/analytics/workflows?goal=${goal}`, {
      key: reader,
    });
    assert.deepEqual(
      body.workflows.map((w) => [w.path, w.occurrences]),
      [
        [['/home', '/export'], 3],
        [['other'], 1],
      ],
    );
    const { rows: mined } = await services().db.query<{ computed_at: Date }>(
      'select computed_at from workflow_goals where project_id = $1 and goal = $2',
      [projectId, goal],
    );
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

    const pdfReport = await create({
      name: `Workflows ${id}`,
      type: 'workflows',
      schedule: 'weekly',
      recipients: [`paths-${id}@example.com`],
    });
    const pdfRun = await runOf(pdfReport.id, await runNow(pdfReport.id), 'sent');
    const pdfMail = mailTo(`paths-${id}@example.com`)[0]!;
    const pdf = pdfMail.attachments[0]!;
    assert.equal(pdf.filename, `workflows-${pdfRun.period.start}_${pdfRun.period.end}.pdf`);
    const text = await pdfText(pdf.content);
    assert.ok(text.includes(`Goal: ${goal}`), text);
    assert.ok(text.includes(`mined ${mined[0]!.computed_at.toISOString()}`), text);
    assert.match(text.replace(/\n/g, ' '), /all of the project's history as last mined/);
    for (const w of body.workflows) {
      const row = [
        w.path.join(' > '),
        pct(w.frequency),
        String(w.users),
        pct(w.completion_rate),
        w.avg_time.toFixed(1),
        w.efficiency_score.toFixed(3),
      ].join('\n');
      assert.ok(text.includes(row), `${JSON.stringify(row)} in ${text}`);
    }
    assert.match(
      pdfMail.text ?? '',
      new RegExp(`${goal}: 4 completions;.* Most frequent path: /home > /export \\(75\\.0%\\)`),
    );

    // A CSV one sent by the monthly tick: workflows reports are scheduled like the others.
    const csvReport = await create({
      name: `Workflows CSV ${id}`,
      type: 'workflows',
      schedule: 'monthly',
      format: 'csv',
      recipients: [`paths-csv-${id}@example.com`],
    });
    await services().db.query(
      `update reports set created_at = now() - interval '40 days' where project_id = $1 and report_id = $2`,
      [projectId, csvReport.id],
    );
    await jobSender(services().db).send(tickQueue('monthly'), {});
    const scheduled = await waitFor('the scheduled workflows run', async () => {
      const { rows } = await services().db.query<{ run_id: string }>(
        `select run_id from report_runs where project_id = $1 and report_id = $2 and trigger = 'schedule'`,
        [projectId, csvReport.id],
      );
      return rows[0];
    });
    await runOf(csvReport.id, scheduled.run_id, 'sent');
    const csv = mailTo(`paths-csv-${id}@example.com`)[0]!.attachments[0]!;
    assert.equal(csv.contentType, 'text/csv');
    const rows = parse<Record<string, string>>(csv.content, { columns: true });
    assert.deepEqual(
      rows.map((r) => ({
        goal: r.goal,
        computed_at: r.computed_at,
        path: r.path,
        frequency: Number(r.frequency),
        occurrences: Number(r.occurrences),
        users: Number(r.users),
        completion_rate: Number(r.completion_rate),
        avg_time: Number(r.avg_time),
        efficiency_score: Number(r.efficiency_score),
      })),
      body.workflows.map((w) => ({
        goal,
        computed_at: mined[0]!.computed_at.toISOString(),
        path: w.path.join(' > '),
        frequency: w.frequency,
        occurrences: w.occurrences,
        users: w.users,
        completion_rate: w.completion_rate,
        avg_time: w.avg_time,
        efficiency_score: w.efficiency_score,
      })),
    );
  });
});
