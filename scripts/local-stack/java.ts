import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function majorVersion(java: string): Promise<number> {
  const { stderr } = await run(java, ['-version']);
  const match = /version "(\d+)(?:\.(\d+))?/.exec(stderr);
  if (!match) return 0;
  return match[1] === '1' ? Number(match[2]) : Number(match[1]);
}

/**
 * A `java` of at least the given major version: JAVA_HOME, then the one on PATH, then any JDK
 * under /usr/lib/jvm (Apicurio 3.3 is built for Java 21; Kafka runs on 17).
 */
export async function findJava(minMajor: number): Promise<string> {
  const candidates = [
    process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : undefined,
    'java',
    ...(fs.existsSync('/usr/lib/jvm')
      ? fs.readdirSync('/usr/lib/jvm').map((d) => path.join('/usr/lib/jvm', d, 'bin', 'java'))
      : []),
  ].filter((c): c is string => c !== undefined);
  const seen: string[] = [];
  for (const java of candidates) {
    const major = await majorVersion(java).catch(() => 0);
    if (major >= minMajor) return java;
    if (major > 0) seen.push(`${java} (${major})`);
  }
  throw new Error(`no Java ${minMajor}+ found; seen: ${seen.join(', ') || 'none'}. Set JAVA_HOME.`);
}
