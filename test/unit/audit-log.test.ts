import assert from 'node:assert/strict';
import { AUDIT_TARGETS, auditRow, auditWhere } from '../../store/audit-log.js';

const byKey = { ip: '198.51.100.7', state: { auth: { projectId: 'p1', keyId: 'k1' } } };
const byMember = {
  ip: '203.0.113.9',
  state: { auth: { projectId: 'p1', keyId: 'console:cu_1' }, console: { userId: 'cu_1', email: 'ann@example.com' } },
};

describe('audit log entries', () => {
  it('names the console member, or else the key, and the client address', () => {
    const member = auditRow(byMember, 'api_key.created', 'k2', {});
    assert.deepEqual(
      [member.actor_type, member.actor_id, member.actor_email, member.address],
      ['member', 'cu_1', 'ann@example.com', '203.0.113.9'],
    );
    const key = auditRow(byKey, 'api_key.revoked', 'k2', {});
    assert.deepEqual([key.actor_type, key.actor_id, key.actor_email], ['api_key', 'k1', null]);
    assert.equal(key.target_type, 'api_key');
    assert.equal(auditRow(byKey, 'settings.changed', 'retention', {}).target_type, 'settings');
  });

  it("keeps a destination's origin only: its path and query may be its credential", () => {
    const row = auditRow(byKey, 'webhook.created', 'wh_1', {
      url: 'https://hooks.example.com/services/T000/B000/secret-token?key=abc',
      events: ['job.completed'],
    });
    assert.deepEqual(row.details, { url: 'https://hooks.example.com', events: ['job.completed'] });
    assert.deepEqual(auditRow(byKey, 'webhook.changed', 'wh_1', { url: undefined }).details, { url: undefined });
  });

  it('filters by actor, action or target type, and whole UTC days', () => {
    assert.deepEqual(auditWhere('p1', {}), { where: 'project_id = $1', params: ['p1'] });
    const all = auditWhere('p1', {
      actor: 'Ann@Example.com',
      action: 'api_key',
      range: { start: '2026-11-01', end: '2026-11-02' },
    });
    assert.equal(
      all.where,
      'project_id = $1 and (actor_id = $2 or actor_email = lower($2)) and target_type = $3 and ' +
        "at >= $4::date at time zone 'UTC' and at < ($5::date + 1) at time zone 'UTC'",
    );
    assert.deepEqual(all.params, ['p1', 'Ann@Example.com', 'api_key', '2026-11-01', '2026-11-02']);
    assert.equal(auditWhere('p1', { action: 'api_key.created' }).where, 'project_id = $1 and action = $2');
    assert.deepEqual(AUDIT_TARGETS, [
      'api_key',
      'member',
      'webhook',
      'integration',
      'report',
      'export',
      'settings',
      'user',
    ]);
  });
});
