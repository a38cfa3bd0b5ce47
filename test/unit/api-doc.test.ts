import assert from 'node:assert/strict';
import fs from 'node:fs';
import { routeTable } from '../../api/app.js';
import { openApiPath } from '../../api/openapi.js';
import { USER_TABLES } from '../../store/user-data.js';

/** The rows of docs/api.md's "Route table": `METHOD path scope params`, one string each. */
function documentedRows(): string[] {
  const doc = fs.readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const section = doc.split('\n### Route table\n')[1]?.split('\n#')[0];
  assert.ok(section, 'docs/api.md has a "### Route table" section');
  return section
    .split('\n')
    .filter((line) => /^\| (GET|POST|PUT|PATCH|DELETE) /.test(line))
    .map((line) => {
      const [method, path, scope, params] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replaceAll('`', ''));
      const names = params === '—' ? [] : params!.split(', ').sort();
      return [method, path, scope, names.join(',')].join(' ');
    })
    .sort();
}

/** The same rows from the route table the router and the OpenAPI document are built from. */
function codeRows(): string[] {
  return routeTable({} as Parameters<typeof routeTable>[0])
    .map((r) =>
      [
        r.method,
        openApiPath(r.path),
        r.scope ?? 'none',
        (r.query ?? [])
          .map((q) => q.name)
          .sort()
          .join(','),
      ].join(' '),
    )
    .sort();
}

describe('docs/api.md', () => {
  it('lists every route with its scope and query parameters, as the route table declares them', () => {
    const documented = documentedRows();
    const code = codeRows();
    assert.ok(code.length > 50, `routes: ${code.length}`);
    assert.deepEqual(
      code.filter((row) => !documented.includes(row)),
      [],
      'routes (or their scope or parameters) missing from docs/api.md',
    );
    assert.deepEqual(
      documented.filter((row) => !code.includes(row)),
      [],
      'rows of docs/api.md that no route has',
    );
  });

  it('names every table a user erasure deletes from', () => {
    const doc = fs.readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const deletion = doc.split('- **Deletion** (privacy request)')[1]?.split('\n- ')[0] ?? '';
    assert.deepEqual(
      USER_TABLES.filter((t) => !deletion.includes(`\`${t}\``)),
      [],
      'erased tables missing from the Deletion paragraph',
    );
  });
});
