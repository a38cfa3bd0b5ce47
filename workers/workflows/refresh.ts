import type { Pool, PoolClient } from '../../lib/db.js';
import { projectPass } from '../../store/locks.js';
import { BackfillPace } from '../../lib/pacing.js';
import type { Services } from '../../lib/services.js';
import { DEFAULT_PATH_RULES, workflowsOf } from '../../domain/workflows/mining.js';
import { attemptRows } from '../../domain/workflows/attempt-rows.js';
import { projectAnalyticsConfig } from '../../store/project-config.js';
import { sessionIdsAfter, sessionsWithEvents } from '../../store/session-steps.js';
import { usersWithSessions } from '../../store/user-metrics.js';
import {
  type StoredAttempt,
  WORKFLOWS_PASS,
  changeAttempts,
  countPathUsers,
  forgetAttempts,
  goalSummary,
  takeChangedSessions,
  takeRebuildRequest,
} from '../../store/workflow-attempts.js';
import { addGoals, deleteGoals, keptGoals, projectsWithGoals, storedGoals } from '../../store/workflow-goals.js';
import { stepFriction } from '../../store/step-friction.js';
import { storeGoal } from './store-goal.js';

/** Sessions read at once (memory is bounded by this, not by the project or a burst of changes). */
const SESSIONS_PER_READ = 2000;

/** The goals a project's workflows are kept for (keptGoals), with the request lifetime of its settings. */
async function projectGoals(client: PoolClient, projectId: string): Promise<Set<string>> {
  const { workflows } = await projectAnalyticsConfig(client, projectId);
  return new Set(await keptGoals(client, projectId, workflows.requestedGoalTtlDays));
}

/** The attempts at `goals` of the stored sessions among `sessionIds`. */
async function attemptsOf(
  client: PoolClient,
  projectId: string,
  sessionIds: string[],
  goals: string[],
): Promise<StoredAttempt[]> {
  const sessions = await sessionsWithEvents(client, projectId, sessionIds);
  return sessions.flatMap((s) =>
    attemptRows(s.user_id, s.events, goals).map((a) => ({ ...a, session_id: s.session_id, day: s.day })),
  );
}

/** A goal's first pass: the attempts of every session of the project, a bounded read at a time. */
async function attemptAllSessions(
  client: PoolClient,
  projectId: string,
  goals: string[],
  pace: BackfillPace,
): Promise<void> {
  for (let after: string | null = null; ;) {
    const ids = await sessionIdsAfter(client, projectId, after, SESSIONS_PER_READ);
    if (ids.length === 0) return countPathUsers(client, projectId, goals);
    await changeAttempts(client, projectId, [], await attemptsOf(client, projectId, ids, goals), false);
    after = ids[ids.length - 1]!;
    await pace.step();
  }
}

/**
 * Brings one project's workflows up to date, in one transaction (docs/metrics.md, "Workflows"):
 * the sessions written or deleted since the last pass (workflow_session_changes) get their attempts
 * replaced and the goals' sums move by the difference; a goal never computed (or every goal, when a
 * replay asked for a rebuild through workflow_changes) gets one pass over all the project's sessions.
 * Every goal whose sums or inputs moved then gets its workflows from its sums. Goals that are no
 * longer goals lose their rows. `wait` blocks on a concurrent pass of the same project (explicit
 * refreshes do); the worker skips a busy project instead. `backfillShare` paces the worker's
 * passes over all sessions (lib/pacing.ts); explicit refreshes leave it out. Returns how many
 * goals were computed.
 */
export async function refreshProjectWorkflows(
  db: Pool,
  projectId: string,
  wait: boolean,
  backfillShare = 1,
): Promise<number> {
  const computed = await projectPass(db, WORKFLOWS_PASS, projectId, { wait }, async (client) => {
    const rebuild = await takeRebuildRequest(client, projectId);
    const changed = await takeChangedSessions(client, projectId);
    const goals = await projectGoals(client, projectId);
    const known = await storedGoals(client, projectId);
    const gone = known.filter((k) => !goals.has(k.goal)).map((k) => k.goal);
    if (gone.length > 0) {
      // Their attempts and sums, then the goals with (on delete cascade) their workflows.
      await forgetAttempts(client, projectId, gone);
      await deleteGoals(client, projectId, gone);
    }
    if (rebuild) await forgetAttempts(client, projectId, 'all');
    const computed = new Set(known.filter((k) => k.computed && !rebuild).map((k) => k.goal));
    const kept = [...goals].filter((g) => computed.has(g)).sort();
    const fresh = [...goals].filter((g) => !computed.has(g)).sort();
    for (let i = 0; kept.length > 0 && i < changed.length; i += SESSIONS_PER_READ) {
      const sessions = changed.slice(i, i + SESSIONS_PER_READ);
      await changeAttempts(client, projectId, sessions, await attemptsOf(client, projectId, sessions, kept));
    }
    if (fresh.length > 0) {
      // A goal's sums reference its row: a Job's or a declared goal has none before its first pass.
      await addGoals(client, projectId, fresh);
      // A goal marked for computing again (computed_at cleared) may still hold state: built anew.
      if (!rebuild) await forgetAttempts(client, projectId, fresh);
      await attemptAllSessions(client, projectId, fresh, new BackfillPace(backfillShare));
    }
    const stale = [...(changed.length > 0 ? kept : []), ...fresh].sort();
    if (stale.length === 0) return 0;
    const totalUsers = await usersWithSessions(client, projectId);
    const mined = [];
    for (const goal of stale) {
      const summary = await goalSummary(client, projectId, goal, DEFAULT_PATH_RULES);
      mined.push({ goal, summary, workflows: workflowsOf(goal, summary, DEFAULT_PATH_RULES, totalUsers) });
    }
    const steps = [...new Set(mined.flatMap((m) => m.workflows.flatMap((w) => w.path)))];
    const friction = await stepFriction(client, projectId, steps);
    for (const m of mined) await storeGoal(client, projectId, m.goal, m.summary, m.workflows, friction);
    return stale.length;
  });
  return computed ?? 0;
}

/** Every project that may need a pass (or just `projectId`); returns how many goals were computed. */
export async function refreshWorkflows(services: Services, projectId?: string): Promise<number> {
  const { db } = services;
  const projects = projectId ? [projectId] : await projectsWithGoals(db);
  let computed = 0;
  const explicit = projectId !== undefined;
  for (const project of projects) {
    computed += await refreshProjectWorkflows(db, project, explicit, explicit ? 1 : services.config.backfillShare);
  }
  return computed;
}
