import { type ParseArgsConfig, parseArgs } from 'node:util';

/** One option of a command: node:util parseArgs' option plus the line `--help` prints for it. */
export type CliOption = NonNullable<ParseArgsConfig['options']>[string] & { help: string; arg?: string };

export interface CliSpec<O extends Record<string, CliOption>> {
  /** e.g. `npm run workers -- [options]` */
  usage: string;
  /** What the command does, a line or two. */
  summary: string;
  options: O;
  /** Names the positional arguments take in the usage line; none allowed when absent. */
  positionals?: string;
}

type Values<O extends Record<string, CliOption>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['multiple'] extends true ? string[] : string;
};

/** A bad command line: one clear line, exit code 2 (the convention of getopt-style tools). */
export class UsageError extends Error {}

const HELP: CliOption = { type: 'boolean', help: 'show this help' };

export function helpText<O extends Record<string, CliOption>>(spec: CliSpec<O>): string {
  const options: Record<string, CliOption> = { ...spec.options, help: HELP };
  const rows = Object.entries(options).map(
    ([name, o]) => [`  --${name}${o.type === 'string' ? ` <${o.arg ?? 'value'}>` : ''}`, o.help] as const,
  );
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [`usage: ${spec.usage}`, '', spec.summary, '', 'options:', ...rows.map(([l, r]) => l.padEnd(width) + r)].join(
    '\n',
  );
}

/** Parses argv against the spec; throws UsageError for unknown or malformed options. `--help` → undefined. */
export function parseCli<O extends Record<string, CliOption>>(
  spec: CliSpec<O>,
  argv: string[],
): { values: Values<O>; positionals: string[] } | undefined {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, { help: _help, arg: _arg, ...o }]) => [name, o]),
  );
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: spec.positionals !== undefined,
      strict: true,
    });
    if (values.help) return undefined;
    return { values: { ...values } as Values<O>, positionals };
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

/**
 * The entry of a command: parses argv, prints `--help` (exit 0), reports a UsageError as one
 * line (exit 2) and any other failure with its message (exit 1). Answers the exit code, which is
 * also the process's when not 0.
 */
export async function runCli<O extends Record<string, CliOption>>(
  spec: CliSpec<O>,
  main: (args: { values: Values<O>; positionals: string[] }) => Promise<void | number>,
  argv: string[] = process.argv.slice(2),
): Promise<number> {
  let code = 0;
  try {
    const args = parseCli(spec, argv);
    if (!args) console.log(helpText(spec));
    else code = (await main(args)) ?? 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message} (try --help)`);
      code = 2;
    } else {
      console.error(err instanceof Error ? err.message : err);
      code = 1;
    }
  }
  if (code !== 0) process.exitCode = code;
  return code;
}

/** `--only a,b`: a comma-separated subset of `known` (all when absent). */
export function parseOnly<N extends string>(value: string | undefined, known: readonly N[]): N[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').filter(Boolean);
  const unknown = names.filter((n) => !known.includes(n as N));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--only: expected a comma-separated subset of ${known.join(', ')}`);
  }
  return names as N[];
}
