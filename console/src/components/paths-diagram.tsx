import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { type Measure, NODE_WIDTH, type PathInput, layoutPaths, linkTitle, nodeTitle } from '../paths';

const MEASURES: { value: Measure; label: string }[] = [
  { value: 'occurrences', label: 'Completions' },
  { value: 'users', label: 'Users' },
];

/**
 * The paths to one goal as an SVG Sankey diagram (layout in paths.ts): hovering a band or a
 * node names its steps and numbers; the table beside it carries every path's exact numbers.
 */
export function PathsDiagram({ goal, workflows, top = 8 }: { goal: string; workflows: PathInput[]; top?: number }) {
  const [measure, setMeasure] = useState<Measure>('occurrences');
  const name = useId();
  const layout = useMemo(() => layoutPaths(goal, workflows, measure, top), [goal, workflows, measure, top]);
  const scroller = useRef<HTMLDivElement>(null);
  // A diagram wider than its box opens at its right end: the goal and the steps just before it.
  useEffect(() => {
    scroller.current!.scrollLeft = scroller.current!.scrollWidth;
  }, [layout]);
  const unit = measure === 'users' ? 'users' : 'completions';
  const summary = `Paths diagram of the ${layout.shown} most common paths to ${goal}${
    layout.folded > 0 ? `, ${layout.folded} more folded into "Other paths"` : ''
  }, band widths by ${unit}; the table below lists every path's numbers.`;
  return (
    <figure class="paths-figure">
      <fieldset class="choice">
        <legend>Band width by</legend>
        {MEASURES.map((m) => (
          <label key={m.value}>
            <input
              type="radio"
              name={name}
              value={m.value}
              checked={measure === m.value}
              onChange={() => setMeasure(m.value)}
            />{' '}
            {m.label}
          </label>
        ))}
      </fieldset>
      <div ref={scroller} class="paths-scroll" role="region" aria-label={`Paths to ${goal}`} tabIndex={0}>
        <svg
          class="paths-diagram"
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="img"
          aria-label={summary}
        >
          {layout.columns.map((c) => (
            <text key={c.x} class="paths-column" x={c.x} y={14}>
              {c.text}
            </text>
          ))}
          {layout.links.map((l) => (
            <path
              key={`${l.source}>${l.target}`}
              class={l.folded ? 'paths-link paths-link--other' : 'paths-link'}
              d={l.d}
              stroke-width={l.width}
            >
              <title>{linkTitle(layout, l, measure)}</title>
            </path>
          ))}
          {layout.nodes.map((n) => (
            <rect
              key={n.id}
              class={`paths-node paths-node--${n.kind}`}
              x={n.x}
              y={n.y}
              width={NODE_WIDTH}
              height={n.height}
            >
              <title>{nodeTitle(layout, n, measure)}</title>
            </rect>
          ))}
          {layout.nodes.map((n) => (
            <text
              key={n.id}
              class="paths-label"
              x={n.label.x}
              y={n.label.y}
              text-anchor={n.label.anchor}
              dominant-baseline="central"
            >
              <title>{nodeTitle(layout, n, measure)}</title>
              {n.label.text}
            </text>
          ))}
        </svg>
      </div>
      <figcaption class="muted">
        The {layout.shown} most common {layout.shown === 1 ? 'path' : 'paths'}, aligned on the goal: each column is a
        number of steps before it, and steps that paths share there are one node. Band widths are {unit}
        {measure === 'users' ? ' (a user who took two paths counts in both)' : ''}.
        {layout.folded > 0 &&
          ` ${layout.folded} less common ${layout.folded === 1 ? 'path is' : 'paths are'} folded into "Other paths".`}{' '}
        Hover a band or a step for its numbers.
      </figcaption>
    </figure>
  );
}
