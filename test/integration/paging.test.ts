import assert from 'node:assert/strict';
import { createKey } from '../../store/api-keys.js';
import {
  call,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';
import type { OpenApiDocument } from './openapi-answers.js';

interface Parameter {
  name: string;
  in: string;
  schema: { type?: string; minimum?: number; maximum?: number; default?: number; deprecated?: boolean };
}
interface Operation {
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Schema {
  $ref?: string;
  oneOf?: Schema[];
  type?: string | string[];
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}
type Page = { total: number; page_number: number; page?: number; per_page: number; next: number | null };

/** GET answers holding an array of records that are not lists of a resource, and why. */
const NOT_LISTS: Record<string, string> = {
  '/analytics/export/events': 'an export: streamed whole, in its formats',
  '/analytics/workflows/{workflow_id}/efficiency': 'the steps of one path',
  '/settings/name-caps': 'a fixed number of days',
  '/console/members': "the console's own: a project's people",
};

const DAY_MS = 86_400_000;
const NOW = Date.now();
/** The UTC day `offset` days from today, and a time of it. */
const day = (offset: number) => new Date(NOW + offset * DAY_MS).toISOString().slice(0, 10);
const at = (offset: number, time: string) => `${day(offset)}T${time}Z`;

describe('paging: one convention on every list, whole lists up to a cap by default', function () {
  this.timeout(180_000);
  let pipeline: TestPipeline;
  let document: OpenApiDocument & { paths: Record<string, Record<string, Operation>> };
  let write: string;
  let admin: string;
  let projectId: string;
  let cohortId: string;
  const USERS = 25;
  const ids = Array.from({ length: USERS }, (_, i) => String(i).padStart(2, '0'));
  const get = <T = Record<string, unknown>>(path: string) => call<T & Page>(pipeline.api, 'GET', path, { key: admin });

  before(async () => {
    pipeline = await startPipeline(['analytics']);
    const project = await newProject(['events:write'], ['admin']);
    [write, admin] = project.keys as [string, string];
    projectId = project.projectId;
    document = (await call<typeof document>(pipeline.api, 'GET', '/openapi.json')).body;
    // 25 users, each on a page and a feature of their own with a dead click there: 25 of each list.
    const events: object[] = ids.flatMap((i) => [
      { user_id: `u${i}`, event: 'page_view', properties: { page: `/p${i}` }, timestamp: at(0, '00:00:01') },
      {
        user_id: `u${i}`,
        event: 'feature_impression',
        properties: { page: `/p${i}`, feature: `f${i}` },
        timestamp: at(0, '00:00:02'),
      },
      {
        user_id: `u${i}`,
        event: 'click',
        properties: { page: `/p${i}`, element: '#dead', ui_response: false },
        timestamp: at(0, '00:00:03'),
      },
    ]);
    // The daily series: a sees `daily` two days ago and today; b uses it today in two sessions.
    events.push(
      { user_id: 'a', event: 'feature_impression', properties: { feature: 'daily' }, timestamp: at(-2, '12:00:00') },
      { user_id: 'a', event: 'feature_impression', properties: { feature: 'daily' }, timestamp: at(0, '00:00:10') },
      { user_id: 'b', event: 'feature_used', properties: { feature: 'daily' }, timestamp: at(0, '00:00:20') },
      { user_id: 'b', event: 'feature_used', properties: { feature: 'daily' }, timestamp: at(0, '03:00:00') },
    );
    const sent = await call(pipeline.api, 'POST', '/events/batch', { key: write, json: { events } });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    await waitForAnalytics();
    const cohort = await call<{ id: string }>(pipeline.api, 'POST', '/cohorts', {
      key: admin,
      json: { name: 'Everyone', criteria: { events: { gte: 1 } } },
    });
    assert.equal(cohort.status, 201, JSON.stringify(cohort.body));
    cohortId = cohort.body.id;
  });
  after(() => stopPipeline(pipeline));

  /** The schemas an answer may take (through $ref and oneOf). */
  function variants(schema: Schema): Schema[] {
    if (schema.$ref) return variants(document.components.schemas[schema.$ref.split('/').pop()!] as Schema);
    return schema.oneOf ? schema.oneOf.flatMap(variants) : [schema];
  }
  function gets(): [string, Operation, Schema[]][] {
    return Object.entries(document.paths).flatMap(([path, operations]) => {
      const operation = operations.get;
      const ok = Object.entries(operation?.responses ?? {}).find(([status]) => status.startsWith('2'));
      const schema = ok?.[1].content?.['application/json']?.schema;
      return operation && schema ? [[path, operation, variants(schema)] as [string, Operation, Schema[]]] : [];
    });
  }
  const param = (operation: Operation, name: string) => operation.parameters?.find((p) => p.name === name);
  /** The friction routes: `page` is a page of the product there (the contract's filter), never a page number. */
  const pageIsAlias = (path: string) => !path.startsWith('/analytics/friction');

  it('every GET that answers records of a resource (not one resource in detail) is a paged list', () => {
    const unpaged = gets()
      .filter(([path, operation, schemas]) => {
        const records = schemas.some(
          (s) =>
            s.type === 'array' ||
            Object.values(s.properties ?? {}).some(
              (p) => p.type === 'array' && (p.items?.$ref || p.items?.type === 'object'),
            ),
        );
        // A path ending in an id is one resource; its arrays are parts of it.
        return records && !path.endsWith('}') && !param(operation, 'per_page');
      })
      .map(([path]) => path);
    assert.deepEqual(unpaged.sort(), Object.keys(NOT_LISTS).sort());
  });

  it('every list documents page_number, per_page up to its cap (the default) and page where it is the alias', () => {
    const lists = gets().filter(([, operation]) => param(operation, 'per_page'));
    assert.ok(lists.length >= 13, `lists: ${lists.map(([p]) => p).join(', ')}`);
    for (const [path, operation, schemas] of lists) {
      const perPage = param(operation, 'per_page')!.schema;
      assert.equal(perPage.type, 'integer', path);
      assert.equal(perPage.default, perPage.maximum, `${path}: per_page defaults to the cap`);
      assert.ok(perPage.maximum! >= 100, `${path}: per_page values that worked (up to 100) still do`);
      assert.deepEqual(param(operation, 'page_number')?.schema.minimum, 1, path);
      const page = param(operation, 'page');
      if (pageIsAlias(path)) assert.deepEqual([page?.schema.type, page?.schema.deprecated], ['integer', true], path);
      else assert.notEqual(page?.schema.type, 'integer', `${path}: page is not a page number here`);
      for (const schema of schemas) {
        for (const field of ['total', 'page_number', 'per_page', 'next']) {
          assert.ok(schema.required?.includes(field), `${path} answers ${field}`);
        }
        assert.equal('page' in (schema.properties ?? {}), pageIsAlias(path), `${path}: page in the answer`);
      }
    }
  });

  it('every list answers whole by default, pages with page_number and its alias, and refuses both at once', async () => {
    for (const [template, operation] of gets().filter(([, op]) => param(op, 'per_page'))) {
      const path = template.replace('{cohort_id}', cohortId);
      const cap = param(operation, 'per_page')!.schema.maximum!;
      const whole = await get(path);
      assert.equal(whole.status, 200, `${path}: ${JSON.stringify(whole.body)}`);
      const items = Object.values(whole.body).find(Array.isArray) as unknown[];
      assert.ok(whole.body.total <= cap, path);
      assert.equal(items.length, whole.body.total, `${path}: the whole list`);
      assert.deepEqual(
        [whole.body.page_number, whole.body.per_page, whole.body.next],
        [1, cap, null],
        `${path}: ${JSON.stringify(whole.body)}`,
      );
      assert.equal(whole.body.page, pageIsAlias(template) ? 1 : undefined, path);

      const second = await get(`${path}?page_number=2&per_page=1`);
      assert.equal(second.status, 200, `${path}: ${JSON.stringify(second.body)}`);
      assert.deepEqual([second.body.page_number, second.body.per_page], [2, 1], path);
      assert.equal(second.body.next, whole.body.total > 2 ? 3 : null, path);

      const older = await get(`${path}?page=2&per_page=1`);
      if (pageIsAlias(template)) {
        assert.deepEqual(older.body, second.body, `${path}: page is page_number's older name`);
        const both = await get(`${path}?page=1&page_number=1`);
        assert.equal(both.status, 400, path);
        assert.deepEqual(errorOf(both).details, { field: 'page', reason: 'not_allowed' }, path);
      } else if (template === '/analytics/friction') {
        // The contract's page filter: no page /2.
        assert.deepEqual([older.status, older.body.total], [200, 0], path);
      } else {
        assert.equal(older.status, 400, path);
        assert.equal(errorOf(older).details.reason, 'not_applicable', path);
        assert.match(errorOf(older).message, /page_number/, path);
      }
    }
  });

  it('analytics lists longer than 20 come whole, and next walks the pages', async () => {
    const features = await get<{ features: { name: string }[] }>('/analytics/features?date_range=last_7_days');
    assert.equal(features.body.features.length, USERS + 1);
    const points = await get<{ friction_points: unknown[] }>('/analytics/friction?date_range=last_7_days');
    assert.equal(points.body.friction_points.length, 2 * USERS, 'a page and its element each');
    const trends = await get<{ trends: unknown[] }>('/analytics/friction/trends?by=page&date_range=last_7_days');
    assert.equal(trends.body.trends.length, USERS);
    const members = await get<{ users: unknown[] }>(`/analytics/cohorts/${cohortId}/users`);
    assert.equal(members.body.users.length, USERS + 2);

    const walked: string[] = [];
    for (let next: number | null = 1; next !== null;) {
      const page: Awaited<ReturnType<typeof get<{ features: { name: string }[] }>>> = await get(
        `/analytics/features?date_range=last_7_days&per_page=10&page_number=${next}`,
      );
      walked.push(...page.body.features.map((f) => f.name));
      next = page.body.next;
    }
    assert.deepEqual(
      walked,
      features.body.features.map((f) => f.name),
    );
  });

  it('a list longer than its cap answers the cap, with next', async () => {
    const db = services().db;
    for (let made = 0; made < 1000; made += 100) {
      await Promise.all(Array.from({ length: 100 }, () => createKey(db, projectId, ['analytics:read'])));
    }
    const first = await get<{ api_keys: unknown[] }>('/api-keys');
    assert.deepEqual(
      [first.body.api_keys.length, first.body.total, first.body.per_page, first.body.next],
      [1000, 1002, 1000, 2],
    );
    const last = await get<{ api_keys: unknown[] }>(`/api-keys?page_number=${first.body.next}`);
    assert.deepEqual([last.body.api_keys.length, last.body.page_number, last.body.next], [2, 2, null]);
    const tooMany = await get('/api-keys?per_page=1001');
    assert.deepEqual(errorOf(tooMany).details, { field: 'per_page', reason: 'out_of_range' });
  });

  it("a feature's detail carries its use per UTC day of the range, from the answer tables", async () => {
    const reply = await get<{ usage_over_time: unknown[] }>(
      `/analytics/features/daily?date_range=custom&start=${day(-3)}&end=${day(0)}`,
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const none = { users_saw: 0, users_used: 0, impressions: 0, uses: 0 };
    assert.deepEqual(reply.body.usage_over_time, [
      { date: day(-3), ...none },
      { date: day(-2), ...none, users_saw: 1, impressions: 1 },
      { date: day(-1), ...none },
      // a (seen two days ago too) and b (two sessions) count once each; a use is a sighting too.
      { date: day(0), users_saw: 2, users_used: 1, impressions: 1, uses: 2 },
    ]);
  });
});
