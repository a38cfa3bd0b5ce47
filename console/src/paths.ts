/**
 * The paths diagram of a goal (Sankey-style, as Amplitude Journeys and PostHog Paths draw them):
 * the top paths as bands flowing into the goal, steps that paths share at the same distance from
 * the goal merged into one node, band widths by completions or users, the remaining paths (and
 * the API's own `other`) folded into one "Other paths" band. Paths are aligned on the goal, so
 * consecutive steps are always in neighbouring columns and no band jumps over a column.
 * Pure layout (no DOM): the component draws what this returns, unit tests read it.
 */

export interface PathInput {
  workflow_id: string;
  path: string[];
  occurrences: number;
  users: number;
}

export type Measure = 'occurrences' | 'users';

export interface LaidNode {
  id: string;
  name: string;
  column: number;
  value: number;
  x: number;
  y: number;
  height: number;
  /** The label beside the node: at most `maxChars` of `name`, with its value. */
  label: { text: string; x: number; y: number; anchor: 'start' | 'end' };
  kind: 'step' | 'goal' | 'other';
}

export interface LaidLink {
  source: string;
  target: string;
  value: number;
  width: number;
  /** SVG path of the band's centre line (drawn as a stroke `width` wide). */
  d: string;
  /** The workflows whose bands run here. */
  workflows: string[];
  /** The band of the paths folded into "Other paths". */
  folded: boolean;
}

export interface PathsLayout {
  width: number;
  height: number;
  nodes: LaidNode[];
  links: LaidLink[];
  /** Column headings ("3 steps before", …, "Goal") at their x. */
  columns: { x: number; text: string }[];
  /** Paths drawn one by one, and those folded into "Other paths". */
  shown: number;
  folded: number;
}

/** An API workflow whose path is the rare paths folded together (domain/workflows/mining.ts OTHER). */
export const isFolded = (path: string[]): boolean => path.length === 1 && path[0] === 'other';

export const START = '(goal at session start)';
export const OTHER_PATHS = 'Other paths';

export const NODE_WIDTH = 12;
const COLUMN_GAP = 170;
const TOP = 28;
const BAND_HEIGHT = 260;
/** A node's slot is at least a label's height, so labels in a column never touch. */
const MIN_SLOT = 22;
const SLOT_GAP = 6;
/** A 12 px system-ui character is at most this wide on average (labels are cut to fit the gap). */
export const CHAR_PX = 7.2;
const LABEL_PAD = 6;

const unit = (measure: Measure, n: number) =>
  measure === 'users' ? `${n} ${n === 1 ? 'user' : 'users'}` : `${n} ${n === 1 ? 'completion' : 'completions'}`;

/** `text` cut to `max` characters with an ellipsis. */
export const cut = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;

export function layoutPaths(goal: string, workflows: PathInput[], measure: Measure, top = 8): PathsLayout {
  const valueOf = (w: PathInput) => w[measure];
  const ranked = workflows
    .filter((w) => !isFolded(w.path) && valueOf(w) > 0)
    .sort((a, b) => valueOf(b) - valueOf(a) || a.path.join('\u0000').localeCompare(b.path.join('\u0000')));
  const kept = ranked.slice(0, top);
  const rest = [...ranked.slice(top), ...workflows.filter((w) => isFolded(w.path))];
  // Users of folded paths may overlap (one user, two paths): the band shows their sum, the table the API's numbers.
  const restValue = rest.reduce((sum, w) => sum + valueOf(w), 0);
  const steps = (w: PathInput) => (w.path.length > 0 ? w.path : [START]);
  const depth = Math.max(1, ...kept.map((w) => steps(w).length));
  const goalColumn = depth;

  const nodes = new Map<string, { name: string; column: number; in: number; out: number; kind: LaidNode['kind'] }>();
  const links = new Map<string, { source: string; target: string; value: number; workflows: string[] }>();
  const node = (column: number, name: string, kind: LaidNode['kind']) => {
    const id = `${column}\u0000${kind}\u0000${name}`;
    if (!nodes.has(id)) nodes.set(id, { name, column, in: 0, out: 0, kind });
    return id;
  };
  const link = (source: string, target: string, value: number, workflow: string) => {
    const key = `${source}\u0001${target}`;
    const l = links.get(key) ?? { source, target, value: 0, workflows: [] };
    l.value += value;
    l.workflows.push(workflow);
    links.set(key, l);
    nodes.get(source)!.out += value;
    nodes.get(target)!.in += value;
  };
  const goalId = node(goalColumn, goal, 'goal');
  for (const w of kept) {
    const s = steps(w);
    const ids = s.map((step, i) => node(goalColumn - s.length + i, step, 'step'));
    ids.push(goalId);
    for (let i = 0; i + 1 < ids.length; i++) link(ids[i]!, ids[i + 1]!, valueOf(w), w.workflow_id);
  }
  if (restValue > 0) {
    const otherId = node(goalColumn - 1, OTHER_PATHS, 'other');
    for (const w of rest) link(otherId, goalId, valueOf(w), w.workflow_id);
  }

  // Columns: nodes largest first, "Other paths" last; heights on one scale for the whole diagram.
  const columns: string[][] = Array.from({ length: goalColumn + 1 }, () => []);
  for (const [id, n] of nodes) columns[n.column]!.push(id);
  const value = (id: string) => Math.max(nodes.get(id)!.in, nodes.get(id)!.out);
  for (const column of columns)
    column.sort((a, b) => {
      const na = nodes.get(a)!;
      const nb = nodes.get(b)!;
      return (
        Number(na.kind === 'other') - Number(nb.kind === 'other') ||
        value(b) - value(a) ||
        na.name.localeCompare(nb.name)
      );
    });
  const biggest = Math.max(1, ...columns.map((c) => c.reduce((sum, id) => sum + value(id), 0)));
  const scale = BAND_HEIGHT / biggest;
  const slot = (id: string) => Math.max(MIN_SLOT, value(id) * scale);
  const columnHeight = (c: string[]) => c.reduce((sum, id) => sum + slot(id) + SLOT_GAP, -SLOT_GAP);
  const inner = Math.max(...columns.map(columnHeight));
  const maxChars = Math.floor((COLUMN_GAP - NODE_WIDTH - 2 * LABEL_PAD) / CHAR_PX);
  const laid = new Map<string, LaidNode>();
  columns.forEach((column, c) => {
    let y = TOP + (inner - columnHeight(column)) / 2;
    const x = c * COLUMN_GAP;
    for (const id of column) {
      const n = nodes.get(id)!;
      const height = Math.max(2, value(id) * scale);
      const top = y + (slot(id) - height) / 2;
      const count = value(id);
      // The goal's label goes on its right, in the margin kept for it; the others in the gap to the next column.
      laid.set(id, {
        id,
        name: n.name,
        column: c,
        value: count,
        x,
        y: top,
        height,
        kind: n.kind,
        label: {
          text: `${cut(n.name, maxChars - String(count).length - 3)} · ${count}`,
          x: x + NODE_WIDTH + LABEL_PAD,
          y: top + height / 2,
          anchor: 'start',
        },
      });
      y += slot(id) + SLOT_GAP;
    }
  });

  // Bands leave a node top to bottom in the order of their targets, and enter in the order of their sources.
  const placed = [...links.values()];
  const outAt = new Map<string, number>();
  const inAt = new Map<string, number>();
  const laidLinks: LaidLink[] = [];
  const byTarget = [...placed].sort((a, b) => laid.get(a.target)!.y - laid.get(b.target)!.y);
  const sourceY = new Map<(typeof placed)[number], number>();
  for (const l of byTarget) {
    const s = laid.get(l.source)!;
    const offset = outAt.get(l.source) ?? 0;
    sourceY.set(l, s.y + offset + (l.value * scale) / 2);
    outAt.set(l.source, offset + l.value * scale);
  }
  for (const l of [...placed].sort((a, b) => laid.get(a.source)!.y - laid.get(b.source)!.y)) {
    const s = laid.get(l.source)!;
    const t = laid.get(l.target)!;
    const offset = inAt.get(l.target) ?? 0;
    const y1 = t.y + offset + (l.value * scale) / 2;
    inAt.set(l.target, offset + l.value * scale);
    const y0 = sourceY.get(l)!;
    const x0 = s.x + NODE_WIDTH;
    const x1 = t.x;
    const mid = (x0 + x1) / 2;
    laidLinks.push({
      source: l.source,
      target: l.target,
      value: l.value,
      width: Math.max(1, l.value * scale),
      d: `M${x0},${y0.toFixed(1)} C${mid},${y0.toFixed(1)} ${mid},${y1.toFixed(1)} ${x1},${y1.toFixed(1)}`,
      workflows: l.workflows,
      folded: s.kind === 'other',
    });
  }

  const goalNode = laid.get(goalId)!;
  return {
    width: goalColumn * COLUMN_GAP + NODE_WIDTH + 2 * LABEL_PAD + goalNode.label.text.length * CHAR_PX,
    height: TOP + inner + 8,
    nodes: [...laid.values()],
    links: laidLinks,
    columns: columns.map((_, c) => ({
      x: c * COLUMN_GAP,
      text: c === goalColumn ? 'Goal' : `${goalColumn - c} ${goalColumn - c === 1 ? 'step' : 'steps'} before`,
    })),
    shown: kept.length,
    folded: rest.length,
  };
}

/** What hovering a band says: its steps and value, and its share of the goal's total. */
export function linkTitle(layout: PathsLayout, link: LaidLink, measure: Measure): string {
  const node = (id: string) => layout.nodes.find((n) => n.id === id)!;
  const all = layout.links.filter((l) => node(l.target).kind === 'goal').reduce((sum, l) => sum + l.value, 0);
  const share =
    all > 0
      ? ` (${Math.round((link.value / all) * 100)} % of the goal's ${measure === 'users' ? 'users' : 'completions'})`
      : '';
  return `${node(link.source).name} → ${node(link.target).name}: ${unit(measure, link.value)}${share}`;
}

/** What hovering a node says. */
export function nodeTitle(layout: PathsLayout, node: LaidNode, measure: Measure): string {
  const where =
    node.kind === 'goal'
      ? 'the goal'
      : node.kind === 'other'
        ? 'paths beyond the top ones, and paths seen fewer than 2 times'
        : layout.columns[node.column]!.text;
  return `${node.name} (${where}): ${unit(measure, node.value)}`;
}
