import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp, routeTable } from '../../api/app.js';
import { consoleOwnerLink } from '../../api/console/accounts.js';
import { openApiPath } from '../../api/openapi.js';
import { topicName } from '../../lib/kafka/topics.js';
import { API_TYPES, nodeClientTypes } from '../../scripts/build-node-client.js';
import { defaultOptions, sendSimulation } from '../../scripts/simulate.js';
import { simulate } from '../../scripts/simulate/generator.js';
import { refreshBehaviouralCohorts } from '../../workers/behavioural-cohorts/worker.js';
import { refreshJobs } from '../../workers/jobs/worker.js';
import { startReportWorker } from '../../workers/reports/worker.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import {
  call,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
  waitForSink,
} from './helpers.js';
import { AnswerChecker, type OpenApiDocument } from './openapi-answers.js';

type Body = Record<string, unknown>;

describe('OpenAPI document', function () {
  this.timeout(120_000);
  let pipeline: TestPipeline;
  let document: OpenApiDocument;
  let api: AnswerChecker;
  let admin: string;
  let read: string;
  let projectId: string;
  let jobId: string;
  let goal: string;

  // GET /health/details answers only the operator's token (docs/adr/0084-tenant-isolated-exports.md).
  const operatorToken = 'o'.repeat(64);

  before(async () => {
    process.env.PI_OPERATOR_TOKEN = operatorToken;
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    delete process.env.PI_OPERATOR_TOKEN;
    const reply = await call<OpenApiDocument>(pipeline.api, 'GET', '/openapi.json');
    assert.equal(reply.status, 200);
    document = reply.body;
    api = new AnswerChecker(pipeline.api.baseUrl, document, 'ExportedEvent');

    // The simulator's traffic and scenarios, with the scenario's job active before its goal events,
    // then every worker's pass: every table an answer reads has rows.
    const project = await newProject(['events:write', 'admin'], ['analytics:read']);
    [admin, read] = project.keys as [string, string];
    projectId = project.projectId;
    const options = { ...defaultOptions(29, 12, 2), scenarios: { perGroup: 12 } };
    const { job } = simulate(options).answers.scenarios!;
    goal = job.goal;
    const created = await call<{ id: string }>(pipeline.api, 'POST', '/jobs', {
      key: admin,
      json: { name: 'Create a project', goal, target_audience: job.target_audience },
    });
    jobId = created.body.id;
    await call(pipeline.api, 'PATCH', `/jobs/${jobId}`, { key: admin, json: { status: 'active' } });
    await sendSimulation(pipeline.api.baseUrl, admin, options);
    await waitForSink('raw-sink', topicName('events'), 60_000);
    await waitForAnalytics(60_000);
    await refreshWorkflows(services(), projectId);
    await refreshJobs(services(), projectId);
    await refreshBehaviouralCohorts(services(), projectId);
    // The report queue exists once the reports worker has started (POST …/send needs it).
    await (await startReportWorker(services())).stop();
  });
  after(() => stopPipeline(pipeline));

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('lists exactly the routes the server registers', () => {
    const deps = { db: services().db, log: services().log } as Parameters<typeof routeTable>[0];
    const { router } = createApp(deps);
    const registered = new Set<string>();
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        registered.add(`${method} ${openApiPath(String(layer.path).replace(/^\/v1/, ''))}`);
      }
    }
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    assert.deepEqual([...registered].sort(), [...documented].sort());
  });

  it("documents request bodies with the validator's schemas, answers with named schemas, errors with one", () => {
    const post = document.paths['/jobs']!.post as unknown as {
      requestBody: { content: Record<string, { schema: { $ref: string } }> };
      responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
    };
    assert.equal(post.requestBody.content['application/json']!.schema.$ref, '#/components/schemas/job-create');
    assert.equal(post.responses['201']!.content['application/json']!.schema.$ref, '#/components/schemas/JobCreated');
    const errors = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          // GET /health answers 503 with its own body: { status: degraded }.
          if (path === '/health' && status === '503') continue;
          if (Number(status) >= 400 && response.content) errors.add(JSON.stringify(response.content));
        }
      }
    }
    assert.deepEqual(
      [...errors],
      [JSON.stringify({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } })],
    );
    const exportAnswers = document.paths['/analytics/export/events']!.get!.responses['200']!.content!;
    assert.deepEqual(Object.keys(exportAnswers).sort(), ['application/json', 'application/x-ndjson', 'text/csv']);
  });

  it("the Node client's committed types are those of this document (npm run build:node-client)", async () => {
    const fresh = await nodeClientTypes(document as unknown as Record<string, unknown>);
    assert.ok(
      fresh === fs.readFileSync(API_TYPES, 'utf8'),
      'clients/node/src/api.ts is stale: npm run build:node-client',
    );
  });

  it('ingest and users answer as documented', async () => {
    const event = { user_id: 'u-doc', event: 'page_view', properties: { page: '/doc' } };
    await expectStatus(api.call('POST', '/events', { key: admin, json: event }), 202);
    await expectStatus(api.call('POST', '/events/batch', { key: admin, json: { events: [event, event] } }), 202);
    await expectStatus(api.call('POST', '/events', { key: admin, json: { event: 'x' } }), 400);
    await expectStatus(api.call('POST', '/events', { json: event }), 401);
    await expectStatus(api.call('POST', '/events', { key: read, json: event }), 403);
    const identify = { user_id: 'u-doc', properties: { plan: 'pro' } };
    await expectStatus(api.call('POST', '/users/identify', { key: admin, json: identify }), 201);
    await expectStatus(api.call('POST', '/users/identify', { key: admin, json: identify }), 200);
    const params = { user_id: 'u-doc' };
    await expectStatus(api.call('GET', '/users/{user_id}', { key: admin, params }), 200);
    await expectStatus(
      api.call('PATCH', '/users/{user_id}', { key: admin, params, json: { properties: { plan: 'free' } } }),
      200,
    );
    await expectStatus(api.call('DELETE', '/users/{user_id}', { key: admin, params }), 200);
    await expectStatus(api.call('GET', '/users/{user_id}', { key: admin, params: { user_id: 'nobody' } }), 404);
  });

  it('jobs answer as documented', async () => {
    const created = await api.call<{ id: string }>('POST', '/jobs', {
      key: admin,
      json: { name: 'Documented', goal: 'doc_done', priority: 'high', automation: { level: 'subtle_hints' } },
    });
    assert.equal(created.status, 201);
    const params = { job_id: created.body.id };
    await expectStatus(api.call('GET', '/jobs', { key: admin }), 200);
    await expectStatus(api.call('GET', '/jobs/{job_id}', { key: admin, params: { job_id: jobId } }), 200);
    await expectStatus(api.call('PATCH', '/jobs/{job_id}', { key: admin, params, json: { status: 'active' } }), 200);
    await expectStatus(api.call('PATCH', '/jobs/{job_id}', { key: admin, params, json: { status: 'draft' } }), 409);
    await expectStatus(api.call('DELETE', '/jobs/{job_id}', { key: admin, params }), 200);
    await expectStatus(api.call('POST', '/jobs', { key: admin, json: {} }), 400);
  });

  it('analytics reads answer as documented', async () => {
    const features = await api.call<{ features: { name: string }[] }>('GET', '/analytics/features', {
      key: read,
      query: '?date_range=last_30_days',
    });
    assert.ok(features.body.features.length > 0, 'the simulator used features');
    await expectStatus(
      api.call('GET', '/analytics/features', { key: read, query: '?include_context=false&segment=plan:pro' }),
      200,
    );
    const feature = { feature_name: features.body.features[0]!.name };
    await expectStatus(api.call('GET', '/analytics/features/{feature_name}', { key: read, params: feature }), 200);
    const friction = await api.call<{ friction_points: unknown[] }>('GET', '/analytics/friction', { key: read });
    assert.ok(friction.body.friction_points.length > 0, 'the simulator planted friction');
    await expectStatus(api.call('GET', '/analytics/friction/trends', { key: read }), 200);
    await expectStatus(api.call('GET', '/analytics/friction/trends', { key: read, query: '?by=page' }), 200);
    await expectStatus(
      api.call('GET', '/analytics/context/events/{event_name}', { key: read, params: { event_name: 'click' } }),
      200,
    );
    const workflows = await api.call<{ workflows: { workflow_id: string }[] }>('GET', '/analytics/workflows', {
      key: read,
    });
    assert.ok(workflows.body.workflows.length > 0, 'the scenarios planted workflows');
    const workflow = { workflow_id: workflows.body.workflows[0]!.workflow_id };
    await expectStatus(
      api.call('GET', '/analytics/workflows/{workflow_id}/efficiency', { key: read, params: workflow }),
      200,
    );
    // A goal never asked for: mined by the workflows worker (not running here), so 202 computing.
    await expectStatus(api.call('GET', '/analytics/workflows', { key: read, query: '?goal=never_asked' }), 202);
    await expectStatus(api.call('GET', '/analytics/jobs/{job_id}', { key: read, params: { job_id: jobId } }), 200);
    const cohorts = await api.call<{ cohorts: { id: string }[] }>('GET', '/analytics/cohorts', { key: read });
    assert.ok(cohorts.body.cohorts.length > 0, 'the scenarios planted behavioural groups');
    const cohort = { cohort_id: cohorts.body.cohorts[0]!.id };
    await expectStatus(api.call('GET', '/analytics/cohorts/{cohort_id}', { key: read, params: cohort }), 200);
    await expectStatus(api.call('GET', '/analytics/cohorts/{cohort_id}/users', { key: read, params: cohort }), 200);
    await expectStatus(api.call('GET', '/analytics/friction', { key: read, query: '?min_friction_index=2' }), 400);
    await expectStatus(api.call('GET', '/analytics/features', { key: 'pi_not_a_key' }), 401);
  });

  it('exports answer as documented, in JSON, CSV and NDJSON', async () => {
    for (const format of ['json', 'csv', 'ndjson']) {
      const reply = await api.call<string | unknown[]>('GET', '/analytics/export/events', {
        key: read,
        query: `?format=${format}&date_range=last_30_days`,
      });
      assert.equal(reply.status, 200, format);
      const rows = Array.isArray(reply.body)
        ? reply.body.length
        : reply.body.trim().split('\n').length - (format === 'csv' ? 1 : 0);
      assert.ok(rows > 0, `${format}: no rows`);
    }
    const exported = await api.call<{ id: string }>('POST', '/analytics/export/warehouse', {
      key: admin,
      json: {
        destination: 'postgres',
        credentials: { account: 'warehouse.example.com', database: 'analytics' },
        tables: ['events'],
      },
    });
    assert.equal(exported.status, 202);
    await expectStatus(
      api.call('GET', '/analytics/export/warehouse/{export_id}', {
        key: read,
        params: { export_id: exported.body.id },
      }),
      200,
    );
  });

  it('cohorts, reports, keys and settings answer as documented', async () => {
    const cohort = await api.call<{ id: string }>('POST', '/cohorts', {
      key: admin,
      json: { name: 'Active', criteria: { days_active: { gte: 1 } } },
    });
    assert.equal(cohort.status, 201);
    await expectStatus(api.call('GET', '/cohorts', { key: admin }), 200);
    const custom = { cohort_id: cohort.body.id };
    await expectStatus(api.call('GET', '/cohorts/{cohort_id}/users', { key: admin, params: custom }), 200);
    await expectStatus(api.call('GET', '/cohorts/{cohort_id}', { key: admin, params: custom }), 200);
    // Both types under one id space: the custom cohort in the analytics detail too, then deleted.
    await expectStatus(api.call('GET', '/analytics/cohorts/{cohort_id}', { key: admin, params: custom }), 200);
    await expectStatus(api.call('DELETE', '/cohorts/{cohort_id}', { key: admin, params: custom }), 200);

    const report = await api.call<{ id: string }>('POST', '/analytics/reports', {
      key: admin,
      json: { name: 'Weekly', type: 'feature_intelligence', schedule: 'weekly', recipients: ['pm@example.com'] },
    });
    assert.equal(report.status, 201);
    const params = { report_id: report.body.id };
    await expectStatus(api.call('POST', '/analytics/reports/{report_id}/run', { key: admin, params }), 202);
    await expectStatus(api.call('GET', '/analytics/reports', { key: admin }), 200);
    await expectStatus(api.call('GET', '/analytics/reports/{report_id}', { key: admin, params }), 200);
    await expectStatus(api.call('DELETE', '/analytics/reports/{report_id}', { key: admin, params }), 200);

    const key = await api.call<{ id: string }>('POST', '/api-keys', {
      key: admin,
      json: { name: 'doc', scopes: ['analytics:read'] },
    });
    assert.equal(key.status, 201);
    await expectStatus(api.call('GET', '/api-keys', { key: admin }), 200);
    await expectStatus(api.call('DELETE', '/api-keys/{key_id}', { key: admin, params: { key_id: key.body.id } }), 200);

    const settings = await api.call<{ overrides: Body }>('GET', '/settings/analytics', { key: admin });
    assert.equal(settings.status, 200);
    await expectStatus(
      api.call('PUT', '/settings/analytics', { key: admin, json: { quadrant: { visibilityRate: 0.4 } } }),
      200,
    );
    await expectStatus(api.call('GET', '/settings/rate-limit', { key: admin }), 200);
    await expectStatus(api.call('GET', '/settings/name-caps', { key: admin }), 200);
    await expectStatus(api.call('GET', '/settings/retention', { key: admin }), 200);
    await expectStatus(api.call('PUT', '/settings/retention', { key: admin, json: { alertsDays: 90 } }), 200);
    await expectStatus(api.call('PUT', '/settings/goals', { key: admin, json: { goals: [goal] } }), 200);
    await expectStatus(api.call('GET', '/settings/goals', { key: admin }), 200);
  });

  it('webhooks, deliveries and the integration endpoint answer as documented', async () => {
    const hook = await api.call<{ id: string }>('POST', '/webhooks', {
      key: admin,
      json: { url: 'https://hooks.example.com/pi', events: ['job.completed'] },
    });
    assert.equal(hook.status, 201);
    await expectStatus(api.call('GET', '/webhooks', { key: admin }), 200);
    const subscription = { webhook_id: hook.body.id };
    await expectStatus(api.call('GET', '/webhooks/{webhook_id}', { key: admin, params: subscription }), 200);
    await expectStatus(
      api.call('PATCH', '/webhooks/{webhook_id}', { key: admin, params: subscription, json: { status: 'paused' } }),
      200,
    );
    await expectStatus(api.call('POST', '/webhooks/{webhook_id}/test', { key: admin, params: subscription }), 202);
    const integration = { url: 'https://crm.example.com/pi' };
    await expectStatus(api.call('PUT', '/settings/integrations/webhook', { key: admin, json: integration }), 201);
    await expectStatus(api.call('PUT', '/settings/integrations/webhook', { key: admin, json: integration }), 200);
    await expectStatus(api.call('GET', '/settings/integrations/webhook', { key: admin }), 200);
    const test = await api.call<{ delivery_id: string }>('POST', '/settings/integrations/webhook/test', { key: admin });
    assert.equal(test.status, 202);
    const delivery = { delivery_id: test.body.delivery_id };
    await expectStatus(api.call('GET', '/webhooks/deliveries', { key: admin }), 200);
    await expectStatus(
      api.call('POST', '/webhooks/deliveries/{delivery_id}/redeliver', { key: admin, params: delivery }),
      409,
    );
    // No sender runs here: the delivery is given up by hand, as the sender does after its retries.
    await services().db.query(
      `update webhook_deliveries set status = 'failed', finished_at = now() where project_id = $1 and delivery_id = $2`,
      [projectId, delivery.delivery_id],
    );
    await expectStatus(
      api.call('POST', '/webhooks/deliveries/{delivery_id}/redeliver', { key: admin, params: delivery }),
      202,
    );
    await expectStatus(api.call('GET', '/webhooks/deliveries/{delivery_id}', { key: admin, params: delivery }), 200);
    await expectStatus(api.call('DELETE', '/settings/integrations/webhook', { key: admin }), 200);
    await expectStatus(
      api.call('DELETE', '/webhooks/{webhook_id}', { key: admin, params: { webhook_id: hook.body.id } }),
      200,
    );
  });

  it('the service routes and the console answer as documented', async () => {
    await expectStatus(api.call('GET', '/health'), 200);
    await expectStatus(api.call('GET', '/health/details', { key: operatorToken }), 200);
    await expectStatus(api.call('GET', '/health/details', { key: admin }), 403);
    await expectStatus(api.call('GET', '/openapi.json'), 200);

    const { link, email } = await consoleOwnerLink(services().db, projectId, pipeline.api.baseUrl);
    const origin = new URL(pipeline.api.baseUrl).origin;
    const token = decodeURIComponent(link.split('#token=')[1]!);
    const signedIn = await api.call<{ csrf_token: string }>('POST', '/console/sign-in/link', { json: { token } });
    assert.equal(signedIn.status, 200);
    let session = consoleHeaders(signedIn, origin);
    const password = 'a documented console password';
    await expectStatus(api.call('PUT', '/console/password', { headers: session, json: { password } }), 200);
    const again = await api.call<{ csrf_token: string }>('POST', '/console/sign-in', { json: { email, password } });
    assert.equal(again.status, 200);
    session = consoleHeaders(again, origin);
    await expectStatus(api.call('GET', '/console/session', { headers: session }), 200);
    await expectStatus(api.call('POST', '/console/stream-token', { headers: session }), 201);
    const invited = await api.call<{ member: { id: string } }>('POST', '/console/members', {
      headers: session,
      json: { email: 'member@example.com' },
    });
    assert.equal(invited.status, 201);
    const member = { member_id: invited.body.member.id };
    await expectStatus(api.call('GET', '/console/members', { headers: session }), 200);
    await expectStatus(
      api.call('POST', '/console/members/{member_id}/sign-in-link', { headers: session, params: member }),
      201,
    );
    await expectStatus(
      api.call('PATCH', '/console/members/{member_id}', { headers: session, params: member, json: { role: 'viewer' } }),
      200,
    );
    await expectStatus(api.call('DELETE', '/console/members/{member_id}', { headers: session, params: member }), 200);
    await expectStatus(api.call('GET', '/audit-log', { key: admin }), 200);
    await expectStatus(api.call('POST', '/console/stream-token', { key: admin }), 403);
    await expectStatus(api.call('POST', '/console/sign-out', { headers: session }), 200);
    const third = await api.call<{ csrf_token: string }>('POST', '/console/sign-in', { json: { email, password } });
    await expectStatus(
      api.call('POST', '/console/sign-out-everywhere', { headers: consoleHeaders(third, origin) }),
      200,
    );
  });

  it('every documented success answer was produced and checked', () => {
    assert.deepEqual(api.unseenSuccesses(), []);
  });
});

async function expectStatus(reply: Promise<{ status: number; body: unknown }>, status: number): Promise<void> {
  const { status: actual, body } = await reply;
  assert.equal(actual, status, JSON.stringify(body));
}

/** A console session's cookie, with the Origin and CSRF token a change needs. */
function consoleHeaders(
  reply: { headers: Headers; body: { csrf_token: string } },
  origin: string,
): Record<string, string> {
  const cookie = reply.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { Cookie: cookie, Origin: origin, 'X-CSRF-Token': reply.body.csrf_token };
}
