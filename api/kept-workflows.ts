import { workflowName } from '../domain/friction/trends.js';
import { byCodePoint } from '../domain/time.js';
import type { Pool } from '../lib/db.js';
import { goalsVersion } from '../store/workflow-goals.js';
import { workflowPaths } from '../store/workflows.js';

export interface KeptWorkflow {
  workflow_id: string;
  goal: string;
  path: string[];
  /** `workflowName`: what trends are listed by */
  name: string;
}

/** Projects whose workflows are kept at most; the least recently asked for goes first. */
const MAX_PROJECTS = 100;

/**
 * The projects' workflows as this process last read them, in name order, kept until the
 * workflows worker writes a goal again or drops one: each ask reads the goals' computed_at (one
 * row per goal) and reads the workflows only when they moved. The worker replaces a goal's
 * workflows in the transaction that sets its computed_at, and a read after that of the goals
 * sees at least as new workflows, so what is kept is never older than what it is kept for.
 * Reading and naming a goal's 805 workflows was half of each GET /analytics/friction/trends at
 * 10M events (docs/performance.md).
 */
export class KeptWorkflows {
  private readonly kept = new Map<string, { version: string; workflows: KeptWorkflow[] }>();

  constructor(private readonly db: Pool) {}

  async of(projectId: string): Promise<KeptWorkflow[]> {
    const version = await goalsVersion(this.db, projectId);
    const hit = this.kept.get(projectId);
    this.kept.delete(projectId);
    if (hit?.version === version) {
      this.kept.set(projectId, hit);
      return hit.workflows;
    }
    const rows = await workflowPaths(this.db, projectId);
    const workflows = rows
      .map((w) => ({ ...w, name: workflowName(w.goal, w.path) }))
      .sort((a, b) => byCodePoint(a.name, b.name));
    this.kept.set(projectId, { version, workflows });
    if (this.kept.size > MAX_PROJECTS) this.kept.delete(this.kept.keys().next().value!);
    return workflows;
  }
}
