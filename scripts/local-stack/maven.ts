import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { stackPath } from './paths.js';
import { APICURIO_VERSION, DEPENDENCY_PLUGIN, KAFKA_VERSION } from './versions.js';

const run = promisify(execFile);
const here = path.dirname(new URL(import.meta.url).pathname);

async function mvn(args: string[], cwd: string): Promise<void> {
  try {
    await run('mvn', ['-q', '-B', ...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`mvn ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/**
 * Kafka's runtime jars, resolved by Maven into .stack/kafka-<ver>/libs once per version of
 * kafka-pom.xml (the marker holds the pom's hash, so a changed pom resolves again).
 */
export async function kafkaClasspath(log: (m: string) => void): Promise<string> {
  const dir = stackPath(`kafka-${KAFKA_VERSION}`);
  const libs = path.join(dir, 'libs');
  const done = path.join(dir, '.resolved');
  const pom = fs.readFileSync(path.join(here, 'kafka-pom.xml'));
  const pomHash = crypto.createHash('sha256').update(pom).digest('hex');
  if (!fs.existsSync(done) || fs.readFileSync(done, 'utf8') !== pomHash) {
    log(`fetching Kafka ${KAFKA_VERSION} jars through Maven`);
    // From scratch: jars of an earlier resolution could clash with the new versions on the classpath.
    fs.rmSync(libs, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'pom.xml'), pom);
    await mvn(
      [
        `-Dkafka.version=${KAFKA_VERSION}`,
        `${DEPENDENCY_PLUGIN}:copy-dependencies`,
        '-DincludeScope=runtime',
        `-DoutputDirectory=${libs}`,
      ],
      dir,
    );
    fs.writeFileSync(done, pomHash);
  }
  return `${libs}/*`;
}

/** Apicurio Registry's Quarkus app, fetched once by Maven and unpacked into .stack/apicurio-<ver>. */
export async function apicurioHome(log: (m: string) => void): Promise<string> {
  const dir = stackPath(`apicurio-${APICURIO_VERSION}`);
  const jar = path.join(dir, 'quarkus-run.jar');
  if (!fs.existsSync(jar)) {
    log(`fetching Apicurio Registry ${APICURIO_VERSION} through Maven`);
    const download = stackPath('downloads');
    fs.mkdirSync(download, { recursive: true });
    fs.mkdirSync(dir, { recursive: true });
    await mvn(
      [
        `${DEPENDENCY_PLUGIN}:copy`,
        `-Dartifact=io.apicurio:apicurio-registry-app:${APICURIO_VERSION}:tar.gz:all`,
        `-DoutputDirectory=${download}`,
      ],
      download,
    );
    const archive = path.join(download, `apicurio-registry-app-${APICURIO_VERSION}-all.tar.gz`);
    await run('tar', ['-xzf', archive, '-C', dir]);
    fs.rmSync(archive);
  }
  return dir;
}
