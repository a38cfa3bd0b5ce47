import assert from 'node:assert/strict';
import { RecentSessions } from '../../processors/analytics-sink/recent-sessions.js';
import { splitSessions } from '../../domain/session.js';

const sessionsOf = (user: string, n: number) =>
  splitSessions(
    Array.from({ length: n }, (_, i) => ({
      message_id: `${user}-${i}`,
      user_id: user,
      event: 'click',
      timestamp: i,
      received_at: i,
      offset: i,
      properties: {},
    })),
    1000,
    10_000,
  );

describe('RecentSessions', () => {
  it('keeps each user’s last chain, replacing it, and counts the events held', () => {
    const recent = new RecentSessions(100);
    recent.set('u1', sessionsOf('u1', 3));
    recent.set('u1', sessionsOf('u1', 5));
    recent.set('u2', sessionsOf('u2', 2));
    assert.equal(recent.get('u1')[0]!.events.length, 5);
    assert.equal(recent.heldEvents, 7);
    recent.set('u2', []);
    assert.deepEqual(recent.get('u2'), []);
    assert.equal(recent.heldEvents, 5);
    recent.delete('u1');
    assert.equal(recent.heldEvents, 0);
  });

  it('lets the least recently stored users go beyond its limit', () => {
    const recent = new RecentSessions(10);
    recent.set('u1', sessionsOf('u1', 4));
    recent.set('u2', sessionsOf('u2', 4));
    recent.set('u1', sessionsOf('u1', 4)); // u1 stored again: now the most recent
    recent.set('u3', sessionsOf('u3', 4));
    assert.deepEqual(recent.get('u2'), []);
    assert.equal(recent.get('u1').length, 1);
    assert.equal(recent.get('u3').length, 1);
    assert.equal(recent.heldEvents, 8);
  });
});
