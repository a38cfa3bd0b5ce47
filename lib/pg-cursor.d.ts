// pg-cursor ships no types; the part of its API that lib/db-cursor.ts uses.
declare module 'pg-cursor' {
  import type { Submittable } from 'pg';

  export default class Cursor<Row = unknown> implements Submittable {
    constructor(text: string, values?: unknown[], config?: { rowMode?: 'array' });
    submit: Submittable['submit'];
    /** Up to `rows` more rows; [] when the result is exhausted. Rejects when the query fails. */
    read(rows: number): Promise<Row[]>;
    /** Closes the portal; waits for the server, so only on a healthy connection. */
    close(): Promise<void>;
  }
}
