import assert from 'node:assert/strict';
import { BEHAVIOURAL_COHORTS } from '../../domain/cohorts/behavioural.js';
import { FIRST_RECOMPUTE_MS } from '../../workers/behavioural-cohorts/schedule.js';
import { COHORTS_FIRST_RECOMPUTE_SECONDS, MIN_COHORT_USERS } from '../../console/src/rules.js';

describe('the rules the console explains are the service’s', () => {
  it('cohorts: the fewest users, their sessions and the first wait', () => {
    assert.equal(MIN_COHORT_USERS, BEHAVIOURAL_COHORTS.kMin * BEHAVIOURAL_COHORTS.minClusterSize);
    assert.equal(BEHAVIOURAL_COHORTS.minSessions, 1, 'the console says “users with a session”');
    assert.equal(COHORTS_FIRST_RECOMPUTE_SECONDS * 1000, FIRST_RECOMPUTE_MS);
  });
});
