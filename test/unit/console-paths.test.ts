import assert from 'node:assert/strict';
import {
  CHAR_PX,
  OTHER_PATHS,
  START,
  type PathInput,
  layoutPaths,
  linkTitle,
  nodeTitle,
} from '../../console/src/paths.js';

const wf = (id: string, path: string[], occurrences: number, users = occurrences): PathInput => ({
  workflow_id: id,
  path,
  occurrences,
  users,
});

const GOAL = 'report_exported';
const WORKFLOWS = [
  wf('a', ['/home', '/reports'], 40, 30),
  wf('b', ['/reports'], 25, 20),
  wf('c', ['/home', '/search', '/reports'], 10, 9),
  wf('d', [], 4, 4),
  wf('e', ['/settings', '/reports'], 3, 3),
  wf('other', ['other'], 6, 5),
];

describe('console paths diagram layout', () => {
  it('aligns paths on the goal: every band joins neighbouring columns, the goal alone in the last', () => {
    const layout = layoutPaths(GOAL, WORKFLOWS, 'occurrences');
    const column = new Map(layout.nodes.map((n) => [n.id, n.column]));
    for (const l of layout.links) assert.equal(column.get(l.target)! - column.get(l.source)!, 1, l.d);
    const last = Math.max(...column.values());
    assert.deepEqual(
      layout.nodes.filter((n) => n.column === last).map((n) => [n.name, n.kind]),
      [[GOAL, 'goal']],
    );
    assert.deepEqual(
      layout.columns.map((c) => c.text),
      ['3 steps before', '2 steps before', '1 step before', 'Goal'],
    );
  });

  it('merges the steps paths share at the same distance from the goal, and sums their values', () => {
    const layout = layoutPaths(GOAL, WORKFLOWS, 'occurrences');
    const reports = layout.nodes.filter((n) => n.name === '/reports');
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.value, 40 + 25 + 10 + 3);
    const goal = layout.nodes.find((n) => n.kind === 'goal')!;
    assert.equal(goal.value, 40 + 25 + 10 + 4 + 3 + 6);
    assert.ok(
      layout.nodes.some((n) => n.name === START),
      'the empty path starts at the goal',
    );
  });

  it('keeps the top paths and folds the rest, with the API’s "other", into one band', () => {
    const layout = layoutPaths(GOAL, WORKFLOWS, 'occurrences', 3);
    assert.equal(layout.shown, 3);
    assert.equal(layout.folded, 3);
    const other = layout.nodes.find((n) => n.kind === 'other')!;
    assert.equal(other.name, OTHER_PATHS);
    assert.equal(other.value, 4 + 3 + 6);
    assert.equal(layout.links.filter((l) => l.folded).length, 1);
    assert.ok(!layout.nodes.some((n) => n.name === '/settings'));
  });

  it('band widths follow the measure chosen: completions or users', () => {
    const byCompletions = layoutPaths(GOAL, WORKFLOWS, 'occurrences');
    const byUsers = layoutPaths(GOAL, WORKFLOWS, 'users');
    const band = (layout: typeof byUsers, from: string) =>
      layout.links.find((l) => layout.nodes.find((n) => n.id === l.source)!.name === from && l.target.includes(GOAL))!;
    const a = band(byCompletions, '/reports');
    assert.ok(Math.abs(a.width / band(byCompletions, START).width - 78 / 4) < 1e-9);
    assert.equal(band(byUsers, '/reports').value, 30 + 20 + 9 + 3);
  });

  it('labels fit their column and never share a line of a column', () => {
    const long = [wf('x', ['/a/very/long/page/name/that/goes/on/and/on', '/b'], 9), ...WORKFLOWS];
    const layout = layoutPaths(GOAL, long, 'occurrences');
    const gap = layout.columns[1]!.x - layout.columns[0]!.x;
    for (const n of layout.nodes) {
      if (n.kind !== 'goal') assert.ok(n.label.x + n.label.text.length * CHAR_PX < n.x + gap, n.label.text);
      for (const m of layout.nodes)
        if (m !== n && m.column === n.column) assert.ok(Math.abs(m.label.y - n.label.y) >= 20, `${n.name} / ${m.name}`);
    }
    assert.match(layout.nodes.find((n) => n.name.startsWith('/a/very'))!.label.text, /… · 9$/);
    const goal = layout.nodes.find((n) => n.kind === 'goal')!;
    assert.ok(goal.label.x + goal.label.text.length * CHAR_PX <= layout.width, 'the goal label fits the diagram');
  });

  it('hover names a band’s steps, its value and its share of the goal, and a node’s place', () => {
    const layout = layoutPaths(GOAL, WORKFLOWS, 'occurrences');
    const link = layout.links.find((l) => l.workflows.includes('b') && l.target.includes(GOAL))!;
    assert.equal(
      linkTitle(layout, link, 'occurrences'),
      `/reports → ${GOAL}: 78 completions (89 % of the goal's completions)`,
    );
    const byUsers = layoutPaths(GOAL, WORKFLOWS, 'users');
    const homes = byUsers.nodes.filter((n) => n.name === '/home').map((n) => nodeTitle(byUsers, n, 'users'));
    assert.deepEqual(homes.sort(), ['/home (2 steps before): 30 users', '/home (3 steps before): 9 users']);
    const other = byUsers.nodes.find((n) => n.kind === 'other')!;
    assert.equal(
      nodeTitle(byUsers, other, 'users'),
      'Other paths (paths beyond the top ones, and paths seen fewer than 2 times): 5 users',
    );
  });

  it('draws nothing but the goal for a goal without paths', () => {
    const layout = layoutPaths(GOAL, [], 'occurrences');
    assert.deepEqual(
      layout.nodes.map((n) => n.kind),
      ['goal'],
    );
    assert.equal(layout.links.length, 0);
  });
});
