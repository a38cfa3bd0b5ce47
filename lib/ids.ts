import crypto from 'node:crypto';

/** Public ids: a prefix naming the kind, then 16 random hex digits (job_3f9c…). */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(8).toString('hex')}`;
}
