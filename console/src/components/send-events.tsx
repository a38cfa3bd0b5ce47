import type { ComponentChildren } from 'preact';
import { CodeBlock } from './ui';

/** A curl call that sends these events to this service (the key is the reader's own). */
export function curlExample(events: Record<string, unknown>[]): string {
  const origin = window.location.origin;
  // One event per line: short enough to read, still valid JSON to paste.
  const body = `{"events": [\n${events.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ]}`.replace(
    /'/g,
    "'\\''",
  );
  return [
    `curl -X POST ${origin}/v1/events/batch \\`,
    `  -H "Authorization: Bearer $PI_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body}'`,
  ].join('\n');
}

export const trackerSnippet = () =>
  `<script src="${window.location.origin}/tracker.js" data-api-key="YOUR_EVENTS_WRITE_KEY"></script>`;

/**
 * What a new project sees instead of an empty chart: what to send for this page to fill, as a
 * curl call and as the browser tracker's snippet.
 */
export function EmptyState(props: { title: string; children: ComponentChildren; events: Record<string, unknown>[] }) {
  return (
    <section class="empty" aria-label={props.title}>
      <h2>{props.title}</h2>
      <div class="empty-body">{props.children}</div>
      <p>
        Send events with a key that has <code>events:write</code> (create one under{' '}
        <a href="/console/settings/api-keys">Settings → API Keys</a>), for example:
      </p>
      <CodeBlock label="curl example" code={curlExample(props.events)} />
      <p>
        Or add the browser tracker to your app&apos;s pages; it sends page views, clicks and the features marked with{' '}
        <code>data-pi-feature</code>:
      </p>
      <CodeBlock label="Tracker snippet" code={trackerSnippet()} />
      <p class="muted">
        The event vocabulary (<code>page_view</code>, <code>feature_impression</code>, <code>feature_used</code>,{' '}
        <code>click</code>, <code>ui_context</code>, …) is in docs/events.md. Numbers appear once the pipeline has
        processed the events, usually within seconds.
      </p>
    </section>
  );
}
