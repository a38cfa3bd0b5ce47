import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Everything the stack downloads, writes or logs lives here (git-ignored). */
export const stackDir = process.env.PI_STACK_DIR ?? path.join(projectRoot, '.stack');

export const stackPath = (...parts: string[]): string => path.join(stackDir, ...parts);
