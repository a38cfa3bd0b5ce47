import type { ChildProcess } from 'node:child_process';

/**
 * The output of child processes the tests start, held back: printed when the test that was
 * running fails, or when a child exits on its own with an error; otherwise dropped at the end of
 * the test, so the errors a crash test provokes on purpose stay out of the run's output.
 */
const held: string[] = [];
let heldBytes = 0;
/** Beyond this, the oldest lines go: the end of a failure's story is what explains it. */
const MAX_HELD_BYTES = 4 * 1024 * 1024;

export function holdOutput(child: ChildProcess, label: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (text: string) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const line of lines) keep(`[${label}] ${line}\n`);
    });
    stream?.on('end', () => partial && keep(`[${label}] ${partial}\n`));
  }
  child.once('close', (code) => {
    if (code !== null && code !== 0) printHeldOutput(`${label} exited with code ${code}`);
  });
}

function keep(line: string): void {
  held.push(line);
  heldBytes += line.length;
  while (heldBytes > MAX_HELD_BYTES && held.length > 1) heldBytes -= held.shift()!.length;
}

export function printHeldOutput(why: string): void {
  if (held.length > 0) {
    process.stderr.write(`\n----- ${why}: output of the child processes -----\n${held.join('')}-----\n`);
  }
  dropHeldOutput();
}

export function dropHeldOutput(): void {
  held.length = 0;
  heldBytes = 0;
}
