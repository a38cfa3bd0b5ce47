/**
 * `npm run user:invite -- --project <name> --email <address> [--role owner|admin|member|viewer] [--base-url <url>]`:
 * prints a one-time sign-in link (24 h) to the admin console for a person of the project,
 * created when new. Also how a member who forgot their password gets back in.
 */
import { UsageError, runCli } from '../lib/cli.js';
import { inviteUser } from '../api/console/accounts.js';
import { ROLES, type Role } from '../api/console/roles.js';
import { loadConfig } from '../lib/config.js';
import { createPool } from '../lib/db.js';
import { runMigrations } from '../lib/migrate.js';
import { findProject } from '../store/projects.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

await runCli(
  {
    usage:
      'npm run user:invite -- --project <name or id> --email <address> [--role owner|admin|member|viewer] [--base-url <url>]',
    summary:
      'Prints a one-time sign-in link to the admin console (valid 24 h, usable once) for the person with this email in the project, creating them (default role: member) when new.',
    options: {
      project: { type: 'string', arg: 'name', help: "the project's name (as in npm run key:create) or its id" },
      email: { type: 'string', arg: 'address', help: "the person's email address; it signs in to this project only" },
      role: {
        type: 'string',
        arg: 'role',
        help: 'owner, admin, member (default) or viewer: owners manage members; admins keys, destinations and settings; members jobs and cohorts; viewers read (docs/adr/0083)',
      },
      'base-url': {
        type: 'string',
        arg: 'url',
        help: 'the address people reach the API at (default http://HOST:PORT of the environment)',
      },
    },
  },
  async ({ values }) => {
    const role = values.role ?? 'member';
    if (!values.project) throw new UsageError('--project is required');
    if (!values.email) throw new UsageError('--email is required');
    if (!EMAIL.test(values.email)) throw new UsageError(`--email ${values.email} is not an email address`);
    if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}, not ${role}`);
    const config = loadConfig();
    const baseUrl =
      values['base-url'] ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
    try {
      new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url ${baseUrl} is not a URL`);
    }
    await runMigrations(config.databaseUrl);
    const db = createPool(config.databaseUrl, 1);
    try {
      const project = await findProject(db, values.project);
      if (!project) throw new UsageError(`no project named ${values.project}`);
      const { user, link, expiresAt } = await inviteUser(db, project.project_id, values.email, role, baseUrl);
      console.error(
        `${user.email} (${user.role}) of project ${project.name}: one-time sign-in link, valid until ${expiresAt.toISOString()}:`,
      );
      console.log(link);
    } finally {
      await db.end();
    }
  },
);
