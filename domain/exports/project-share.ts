/**
 * How many of a shared resource each project holds at once, at most `perProject`: one tenant's
 * streamed exports cannot take every connection of the export pool (docs/adr/0084-tenant-isolated-exports.md).
 */
export class ProjectShare {
  private readonly held = new Map<string, number>();

  constructor(readonly perProject: number) {}

  /** A release (idempotent), or undefined when the project already holds its share. */
  take(projectId: string): (() => void) | undefined {
    const held = this.held.get(projectId) ?? 0;
    if (held >= this.perProject) return undefined;
    this.held.set(projectId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(projectId) ?? 1) - 1;
      if (left === 0) this.held.delete(projectId);
      else this.held.set(projectId, left);
    };
  }

  holding(projectId: string): number {
    return this.held.get(projectId) ?? 0;
  }
}
