import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, errorOf, newProject, services, startTestApi } from './helpers.js';

describe('cohorts, webhooks, API keys, reports and exports', () => {
  let api: RunningApi;
  let projectId: string;
  let admin: string;
  let reader: string;

  before(async () => {
    api = await startTestApi();
    const project = await newProject(['admin'], ['analytics:read']);
    projectId = project.projectId;
    [admin, reader] = project.keys as [string, string];
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  describe('cohorts', () => {
    before(async () => {
      // user_metrics is the pipeline's table; here its rows are laid down directly.
      const users: [string, number, number, number, number, number][] = [
        // user, events, days_active, sessions, features_used, last seen (days ago)
        ['power-1', 500, 20, 60, 9, 0],
        ['power-2', 300, 12, 40, 6, 1],
        ['casual-1', 20, 2, 3, 1, 3],
        ['dormant-1', 50, 5, 8, 3, 45],
      ];
      for (const [user, events, days, sessions, features, ago] of users) {
        await services().db.query(
          `insert into user_metrics (project_id, user_id, events, days_active, sessions, features_used, friction_index, last_seen_at)
           values ($1, $2, $3, $4, $5, $6, 0.1, now() - make_interval(days => $7))`,
          [projectId, user, events, days, sessions, features, ago],
        );
      }
    });

    it('creates a cohort and evaluates its membership over user metrics', async () => {
      const created = await call<{ id: string; size: number; type: string }>(api, 'POST', '/cohorts', {
        key: admin,
        json: { name: 'Power users', criteria: { features_used: { gte: 5 }, days_active: { gte: 10 } } },
      });
      assert.equal(created.status, 201);
      assert.equal(created.body.size, 2);
      assert.equal(created.body.type, 'custom');

      const members = await call<{ users: { user_id: string }[]; total: number }>(
        api,
        'GET',
        `/cohorts/${created.body.id}/users?per_page=1&page=2`,
        { key: admin },
      );
      assert.equal(members.status, 200);
      assert.equal(members.body.total, 2);
      assert.deepEqual(
        members.body.users.map((u) => u.user_id),
        ['power-2'],
      );

      const dormant = await call<{ size: number; id: string }>(api, 'POST', '/cohorts', {
        key: admin,
        json: { name: 'Dormant', criteria: { last_seen_days: { gt: 30 }, events: { between: [10, 100] } } },
      });
      assert.equal(dormant.body.size, 1);
      const mid = await call<{ size: number }>(api, 'POST', '/cohorts', {
        key: admin,
        json: { name: 'Mid', criteria: { sessions: { lt: 50, ne: 8 }, days_active: { lte: 12, eq: 12 } } },
      });
      assert.equal(mid.body.size, 1);

      const list = await call<{ cohorts: { id: string; size: number }[]; total: number }>(api, 'GET', '/cohorts', {
        key: admin,
      });
      assert.equal(list.body.total, 3);
      assert.deepEqual(
        list.body.cohorts.map((c) => c.size),
        [1, 1, 2],
      );
    });

    it('compares integer metrics with fractional and large bounds', async () => {
      // power-1 and power-2 have 60 and 40 sessions; everyone has fewer than 3e9 events.
      const fraction = await call<{ size: number }>(api, 'POST', '/cohorts', {
        key: admin,
        json: { name: 'fraction', criteria: { sessions: { gte: 39.5 }, events: { lt: 3e9 } } },
      });
      assert.equal(fraction.status, 201);
      assert.equal(fraction.body.size, 2);
      assert.equal((await call(api, 'GET', '/cohorts', { key: admin })).status, 200);
    });

    it('names an unknown metric or operator', async () => {
      const metric = await call(api, 'POST', '/cohorts', {
        key: admin,
        json: { name: 'x', criteria: { mood: { gte: 1 } } },
      });
      assert.equal(metric.status, 400);
      assert.deepEqual(
        [errorOf(metric).details.field, errorOf(metric).details.reason],
        ['criteria.mood', 'unknown_metric'],
      );
      const operator = await call(api, 'POST', '/cohorts', {
        key: admin,
        json: { name: 'x', criteria: { sessions: { approx: 1 } } },
      });
      assert.deepEqual(
        [errorOf(operator).details.field, errorOf(operator).details.reason],
        ['criteria.sessions.approx', 'unknown_operator'],
      );
      assert.equal((await call(api, 'GET', '/cohorts/coh_0000000000000000/users', { key: admin })).status, 404);
    });
  });

  describe('webhook subscriptions', () => {
    it('creates (secret once), lists without secret and deletes', async () => {
      const created = await call<Record<string, unknown>>(api, 'POST', '/webhooks', {
        key: admin,
        json: { url: 'https://hooks.example.com/pi', events: ['job.completed', 'cohort.changed'] },
      });
      assert.equal(created.status, 201);
      assert.match(created.body.secret as string, /^whsec_[A-Za-z0-9+/]{43}=$/);
      const list = await call<{ webhooks: Record<string, unknown>[]; total: number }>(api, 'GET', '/webhooks', {
        key: admin,
      });
      assert.equal(list.body.total, 1);
      assert.deepEqual(list.body.webhooks[0], {
        id: created.body.id,
        url: 'https://hooks.example.com/pi',
        events: ['job.completed', 'cohort.changed'],
        status: 'active',
        created_at: created.body.created_at,
        updated_at: created.body.updated_at,
      });
      const del = await call(api, 'DELETE', `/webhooks/${String(created.body.id)}`, { key: admin });
      assert.deepEqual(del.body, { id: created.body.id, deleted: true });
      assert.equal((await call(api, 'DELETE', `/webhooks/${String(created.body.id)}`, { key: admin })).status, 404);
    });

    it('requires https and known event names', async () => {
      const cases: [unknown, string, string][] = [
        [{ url: 'http://hooks.example.com', events: ['job.completed'] }, 'url', 'https_required'],
        [{ url: 'https://u:p@hooks.example.com', events: ['job.completed'] }, 'url', 'credentials_in_url'],
        [{ url: 'not a url', events: ['job.completed'] }, 'url', 'invalid_format'],
        [{ url: 'https://h.example.com', events: ['job.exploded'] }, 'events[0]', 'invalid_value'],
        [{ url: 'https://h.example.com', events: [] }, 'events', 'min_items'],
        [{ events: ['job.completed'] }, 'url', 'required'],
      ];
      for (const [json, field, reason] of cases) {
        const reply = await call(api, 'POST', '/webhooks', { key: admin, json });
        assert.equal(reply.status, 400, JSON.stringify(json));
        assert.deepEqual([errorOf(reply).details.field, errorOf(reply).details.reason], [field, reason]);
      }
    });
  });

  describe('API keys', () => {
    it('creates a key shown once, lists keys without it, and revokes at once', async () => {
      const created = await call<{ id: string; key: string; scopes: string[] }>(api, 'POST', '/api-keys', {
        key: admin,
        json: { name: 'ingest', scopes: ['events:write'] },
      });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body.scopes, ['events:write']);
      const ok = await call(api, 'POST', '/events', { key: created.body.key, json: { user_id: 'u', event: 'e' } });
      assert.equal(ok.status, 202);
      const list = await call<{ api_keys: Record<string, unknown>[] }>(api, 'GET', '/api-keys', { key: admin });
      assert.ok(list.body.api_keys.some((k) => k.id === created.body.id && k.revoked_at === null));
      assert.ok(!JSON.stringify(list.body).includes(created.body.key));

      const revoked = await call(api, 'DELETE', `/api-keys/${created.body.id}`, { key: admin });
      assert.equal(revoked.status, 200);
      const refused = await call(api, 'POST', '/events', { key: created.body.key, json: { user_id: 'u', event: 'e' } });
      assert.equal(refused.status, 401);
      const bad = await call(api, 'POST', '/api-keys', { key: admin, json: { scopes: ['root'] } });
      assert.deepEqual([errorOf(bad).details.field, errorOf(bad).details.reason], ['scopes[0]', 'invalid_value']);
    });
  });

  describe('reports and exports: requests and validation', () => {
    it('schedules a valid report and refuses bad recipients', async () => {
      const report = {
        name: 'Weekly Feature Intelligence',
        type: 'feature_intelligence',
        schedule: 'weekly',
        recipients: ['pm@example.com'],
        format: 'pdf',
      };
      const ok = await call<Record<string, unknown>>(api, 'POST', '/analytics/reports', { key: admin, json: report });
      assert.equal(ok.status, 201);
      assert.match(String(ok.body.next_run_at), /^\d{4}-\d\d-\d\dT06:00:00\.000Z$/);
      const bad = await call(api, 'POST', '/analytics/reports', {
        key: admin,
        json: { ...report, recipients: ['pm@example.com', 'not-an-address'] },
      });
      assert.deepEqual([errorOf(bad).details.field, errorOf(bad).details.reason], ['recipients[1]', 'invalid_format']);
      const schedule = await call(api, 'POST', '/analytics/reports', {
        key: admin,
        json: { ...report, schedule: 'hourly' },
      });
      assert.equal(errorOf(schedule).details.field, 'schedule');
    });

    it('queues a warehouse export to a supported destination and lists the supported ones otherwise', async () => {
      const ok = await call<{ id: string; status: string }>(api, 'POST', '/analytics/export/warehouse', {
        key: admin,
        json: { destination: 'duckdb', credentials: { database: 'pi.duckdb' }, tables: ['events', 'users'] },
      });
      assert.equal(ok.status, 202);
      assert.equal(ok.body.status, 'queued');
      const status = await call<Record<string, unknown>>(api, 'GET', `/analytics/export/warehouse/${ok.body.id}`, {
        key: reader,
      });
      assert.equal(status.status, 200);
      assert.ok(!('credentials' in status.body));
      const unsupported = await call(api, 'POST', '/analytics/export/warehouse', {
        key: admin,
        json: {
          destination: 'snowflake',
          credentials: { account: 'x', database: 'd', schema: 's' },
          tables: ['events'],
        },
      });
      assert.equal(unsupported.status, 400);
      assert.deepEqual(errorOf(unsupported).details, {
        field: 'destination',
        reason: 'unsupported_destination',
        supported: ['postgres', 'duckdb', 'parquet'],
      });
    });

    it('validates a raw export request; a valid one is a CSV file', async () => {
      const ok = await fetch(
        `${api.baseUrl}/analytics/export/events?format=csv&date_range=last_7_days&event_types=a,b`,
        {
          headers: { Authorization: `Bearer ${reader}` },
        },
      );
      assert.equal(ok.status, 200);
      assert.match(ok.headers.get('content-type') ?? '', /^text\/csv/);
      assert.equal(await ok.text(), 'message_id,user_id,event,occurred_at,received_at,properties\r\n');
      for (const [query, field] of [
        ['format=xml&date_range=last_7_days', 'format'],
        ['date_range=last_7_days', 'format'],
        ['format=csv', 'date_range'],
        ['format=csv&date_range=custom&start=2026-01-01', 'end'],
        ['format=csv&date_range=custom&start=2026-02-30&end=2026-03-01', 'start'],
        ['format=csv&date_range=yesterday', 'date_range'],
      ]) {
        const reply = await call(api, 'GET', `/analytics/export/events?${query}`, { key: reader });
        assert.equal(reply.status, 400, query);
        assert.equal(errorOf(reply).details.field, field, query);
      }
    });
  });

  describe('analytics settings', () => {
    it('start from the defaults, take validated overrides and show what is in force', async () => {
      const fresh = await call<{ overrides: object; effective: { session: { gapMs: number } } }>(
        api,
        'GET',
        '/settings/analytics',
        {
          key: admin,
        },
      );
      assert.equal(fresh.status, 200);
      assert.deepEqual(fresh.body.overrides, {});
      assert.equal(fresh.body.effective.session.gapMs, 30 * 60_000);

      const put = await call<{
        overrides: object;
        effective: { session: { gapMs: number; maxMs: number }; weights: object };
      }>(api, 'PUT', '/settings/analytics', {
        key: admin,
        json: { session: { gapMs: 86_400_000 * 30 }, weights: { idle: 0 } },
      });
      assert.equal(put.status, 200);
      assert.equal(put.body.effective.session.gapMs, 86_400_000 * 30);
      assert.equal(put.body.effective.session.maxMs, 24 * 3600_000, 'untouched values keep their default');
      const again = await call<{ overrides: object }>(api, 'GET', '/settings/analytics', { key: admin });
      assert.deepEqual(again.body.overrides, { session: { gapMs: 86_400_000 * 30 }, weights: { idle: 0 } });

      for (const [json, field, reason] of [
        [{ session: { gapMs: 5 } }, 'session.gapMs', 'minimum'],
        [{ weights: { idle: 2 } }, 'weights.idle', 'maximum'],
        [{ rage: { minClicks: 2.5 } }, 'rage.minClicks', 'invalid_type'],
        [{ sessions: {} }, 'sessions', 'unknown_field'],
      ] as const) {
        const bad = await call(api, 'PUT', '/settings/analytics', { key: admin, json });
        assert.equal(bad.status, 400, JSON.stringify(json));
        assert.deepEqual([errorOf(bad).details.field, errorOf(bad).details.reason], [field, reason]);
      }
      assert.equal((await call(api, 'GET', '/settings/analytics', { key: reader })).status, 403);
    });
  });
});
