/**
 * The console's roles and audit log in Debian's Chromium against the real API and Postgres
 * (issue 46): an owner reads the audit log (filters, pages, the empty state) and changes roles;
 * what a viewer cannot use is hidden and says which roles may; keys say who made them.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ensureUser, issueToken } from '../../api/console/accounts.js';
import { ROLES as SERVER_ROLES, type Role, roleHolds } from '../../api/console/roles.js';
import type { RunningApi } from '../../api/server.js';
import { inTransaction } from '../../lib/db.js';
import { applyEvents } from '../../processors/analytics-sink/runner.js';
import { AUDIT_ACTIONS as CONSOLE_ACTIONS, AUDIT_TARGETS as CONSOLE_TARGETS } from '../../console/src/audit.js';
import { ADMIN_ROLES, MEMBER_ROLES, ROLES, WRITER_ROLES } from '../../console/src/roles.js';
import { ensureConsoleBuild } from '../../scripts/console-build.js';
import { AUDIT_ACTIONS, AUDIT_TARGETS, audit } from '../../store/audit-log.js';
import { launchChromium } from '../browser/chromium.js';
import { call, closeServices, newProject, services, startTestApi, waitFor } from './helpers.js';

// Code run inside the page is written as strings: the root tsconfig has no DOM types.
const NOTHING_LOADING = "!document.querySelector('.loading')";
const SCATTER_LABELS =
  "JSON.parse(document.querySelector('main canvas[data-labels]').dataset.labels).map((l) => l.text)";

interface Person {
  id: string;
  email: string;
  page: Page;
  /** the headers of the same session for calls from here (cookie, CSRF token, Origin) */
  as: Record<string, string>;
}

describe('console roles and audit log in Chromium', function () {
  this.timeout(120_000);
  let api: RunningApi;
  let origin: string;
  let browser: Browser | undefined;
  let projectId: string;
  let adminKey: string;
  let owner: Person;
  let n = 0;
  const pageErrors: string[] = [];

  const db = () => services().db;

  /** A new member of the project with `role`, signed in (one-time link) in a browser context of their own. */
  async function signedIn(role: Role): Promise<Person> {
    const email = `${role}-${++n}-${process.pid}-${Date.now()}@example.com`;
    const user = await ensureUser(db(), projectId, email, role);
    const { token } = await issueToken(db(), user, 'signIn');
    const reply = await call<{ csrf_token: string }>(api, 'POST', '/console/sign-in/link', {
      json: { token },
      headers: { Origin: origin },
    });
    assert.equal(reply.status, 200);
    const value = /^pi_console=([^;]+)/.exec(reply.headers.get('set-cookie') ?? '')?.[1];
    assert.ok(value, 'the session cookie');
    const context = await browser!.newContext({ viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(15_000);
    await context.addCookies([{ name: 'pi_console', value, url: origin, httpOnly: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const as = { Cookie: `pi_console=${value}`, 'X-CSRF-Token': reply.body.csrf_token, Origin: origin };
    return { id: user.userId, email, page, as };
  }

  /** Opens a console address and waits for its data. */
  async function open(page: Page, url: string): Promise<void> {
    await page.goto(`${origin}${url}`);
    await page.locator('main h1').first().waitFor();
    await waitFor(`${url} to finish loading`, () => page.evaluate<boolean>(NOTHING_LOADING));
  }

  const settingsTabs = (page: Page) =>
    page.getByRole('navigation', { name: 'Settings' }).getByRole('link').allTextContents();

  const roleOf = async (memberId: string) =>
    (
      await db().query<{ role: string }>('select role from console_users where project_id = $1 and member_id = $2', [
        projectId,
        memberId,
      ])
    ).rows[0]?.role;

  before(async () => {
    await ensureConsoleBuild();
    api = await startTestApi();
    origin = new URL(api.baseUrl).origin;
    ({
      projectId,
      keys: [adminKey = ''],
    } = await newProject(['admin']));
    browser = await launchChromium();
    owner = await signedIn('owner');
  });

  after(async () => {
    await browser?.close();
    await api?.close();
    await closeServices();
  });

  it("holds the console's lists of roles and audit actions to the server's", () => {
    assert.deepEqual([...ROLES], [...SERVER_ROLES]);
    assert.deepEqual(
      ADMIN_ROLES,
      SERVER_ROLES.filter((r) => roleHolds(r, 'admin')),
    );
    assert.deepEqual(
      MEMBER_ROLES,
      SERVER_ROLES.filter((r) => roleHolds(r, 'members')),
    );
    assert.deepEqual(
      WRITER_ROLES,
      SERVER_ROLES.filter((r) => roleHolds(r, 'definitions:write')),
    );
    assert.deepEqual([...CONSOLE_ACTIONS], [...AUDIT_ACTIONS]);
    assert.deepEqual(CONSOLE_TARGETS, AUDIT_TARGETS);
  });

  it('an empty audit log says what it records', async () => {
    await open(owner.page, '/console/settings/members');
    assert.ok((await settingsTabs(owner.page)).includes('Audit log'), 'the tab for an owner');
    await owner.page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    const empty = owner.page.getByRole('region', { name: 'Nothing recorded yet' });
    await empty.waitFor();
    assert.match(await empty.innerText(), /API keys created or revoked/);
    assert.match(await empty.innerText(), /roles changed/);
  });

  it('an owner creates a key, sees who made each key, and finds the entry in the audit log', async () => {
    // One key made by a key: the list names its maker as a key.
    const byKey = await call<{ id: string }>(api, 'POST', '/api-keys', {
      key: adminKey,
      json: { name: 'made by a key', scopes: ['events:write'] },
    });
    assert.equal(byKey.status, 201);

    const { page } = owner;
    await open(page, '/console/settings/api-keys');
    await page.getByRole('button', { name: 'Create New Key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('audited key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByRole('textbox', { name: /Your new key/ }).inputValue();
    const keyId = key.split('_')[1]!;
    await page.getByRole('button', { name: 'Done' }).click();
    const made = page.getByRole('row', { name: /audited key/ });
    await made.waitFor();
    assert.match(await made.innerText(), new RegExp(owner.email.replace(/[.+]/g, '\\$&')));
    const adminKeyId = adminKey.split('_')[1]!;
    assert.match(
      await page.getByRole('row', { name: /made by a key/ }).innerText(),
      new RegExp(`an API key\\s+${adminKeyId}`),
    );
    // newProject's key was made as an operator makes one (npm run key:create).
    const operatorKey = page
      .locator('tbody tr')
      .filter({ hasText: adminKeyId })
      .filter({ hasNotText: 'made by a key' });
    assert.match(await operatorKey.innerText(), /an operator/);

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    const log = page.getByRole('region', { name: 'Audit log', exact: true }).getByRole('table');
    const entry = log.getByRole('row', { name: new RegExp(owner.email.replace(/[.+]/g, '\\$&')) });
    await entry.waitFor();
    const text = await entry.innerText();
    assert.match(text, /API key created/);
    assert.match(text, new RegExp(keyId));
    assert.match(text, /127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/, 'the client address');
    // Newest first: the owner's key after the key-made key.
    const rows = await log.locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, new RegExp(keyId));
    assert.match(rows[1]!, new RegExp(`API key\\s+${adminKeyId}`));
  });

  it('filters the audit log by who, what and when, in the address, and pages it', async () => {
    const { page } = owner;
    await open(page, '/console/settings/audit-log');
    await page.getByLabel('Who').fill(owner.email);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/actor=/);
    await waitFor('one entry', async () => (await page.locator('tbody tr').count()) === 1);

    await page.getByLabel('Who').fill('');
    await page.getByLabel('What').selectOption('member');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No change matches these filters.').waitFor();
    assert.match(page.url(), /action=member/);

    await page.getByLabel('What').selectOption('api_key.created');
    await page.getByLabel('When').selectOption('custom');
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByLabel('To').fill('2020-01-31');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/date_range=custom&start=2020-01-01&end=2020-01-31/);
    await page.getByText('No change matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Show the newest changes' }).click();
    await waitFor('both entries again', async () => (await page.locator('tbody tr').count()) === 2);

    // 50 a page: 50 more entries push the first two to page 2.
    for (let i = 0; i < 50; i++) {
      await audit(
        db(),
        { ip: '203.0.113.7', state: { auth: { projectId, keyId: 'seeded' } } },
        'settings.changed',
        null,
        {
          i,
        },
      );
    }
    await page.reload();
    await waitFor('a full page', async () => (await page.locator('tbody tr').count()) === 50);
    assert.match(await page.getByRole('navigation', { name: 'Pages of the audit log' }).innerText(), /1–50 of 52/);
    assert.ok(await page.getByRole('button', { name: 'Newer' }).isDisabled());
    await page.getByRole('button', { name: 'Older' }).click();
    await page.waitForURL(/page=2/);
    await waitFor('the last page', async () => (await page.locator('tbody tr').count()) === 2);
    assert.match(await page.locator('tbody').innerText(), /audited key|API key created/);
    assert.ok(await page.getByRole('button', { name: 'Older' }).isDisabled());
  });

  it('a viewer sees neither the audit log nor key creation, and is told which roles may', async () => {
    const viewer = await signedIn('viewer');
    const { page } = viewer;
    await open(page, '/console/settings/api-keys');
    assert.ok(!(await settingsTabs(page)).includes('Audit log'), 'no audit tab');
    assert.equal(await page.getByRole('button', { name: 'Create New Key' }).count(), 0);
    assert.equal(await page.getByRole('table').count(), 0);
    await page.getByText('Only an owner or an admin may see, create or revoke API keys; you are a viewer.').waitFor();

    await open(page, '/console/settings/audit-log');
    await page.getByText('Only an owner or an admin may read the audit log; you are a viewer.').waitFor();
    assert.equal(await page.getByRole('table').count(), 0);

    await open(page, '/console/settings/members');
    assert.equal(await page.getByRole('form', { name: 'Invite a person' }).count(), 0);
    await page
      .getByText('Only an owner may invite or remove people or change their roles; you are a viewer.')
      .waitFor();
    assert.equal(await page.getByRole('combobox', { name: /^Role of/ }).count(), 0);
  });

  it('a viewer changes no job or cohort and connects no webhook; a member manages jobs and cohorts', async () => {
    const job = await call(api, 'POST', '/jobs', {
      key: adminKey,
      json: { name: 'Complete profile', goal: 'profile_completed' },
    });
    assert.equal(job.status, 201);
    const viewer = await signedIn('viewer');
    const member = await signedIn('member');
    for (const [{ page }, writes] of [
      [member, true],
      [viewer, false],
    ] as const) {
      await open(page, '/console/jobs');
      await page.getByRole('heading', { name: 'Complete profile' }).waitFor();
      for (const name of ['New job', 'Activate Complete profile', 'Edit Complete profile', 'Delete Complete profile']) {
        assert.equal(await page.getByRole('button', { name }).count(), writes ? 1 : 0, `${name}: ${String(writes)}`);
      }
      assert.equal(await page.getByRole('button', { name: 'Metrics' }).count(), 1, 'the metrics open for all');
      await open(page, '/console/cohorts');
      assert.equal(await page.getByRole('button', { name: 'New custom cohort' }).count(), writes ? 1 : 0);
    }

    for (const [{ page }, role] of [
      [viewer, 'a viewer'],
      [member, 'a member'],
    ] as const) {
      await open(page, '/console/settings/integrations/webhooks');
      await page.getByText(`Only an owner or an admin may connect webhooks; you are ${role}.`).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Connect' }).count(), 0);
      await open(page, '/console/settings/integrations/subscriptions');
      await page.getByText(`Only an owner or an admin may connect webhooks; you are ${role}.`).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Add subscription' }).count(), 0);
    }
    await open(owner.page, '/console/settings/integrations/webhooks');
    await owner.page.getByRole('button', { name: 'Connect' }).waitFor();
    assert.equal(await owner.page.getByText(/may connect webhooks/).count(), 0);
  });

  it('/console/settings opens on API Keys for owners and admins, on Members for members and viewers', async () => {
    const member = await signedIn('member');
    const viewer = await signedIn('viewer');
    const admin = await signedIn('admin');
    for (const [{ page }, landing] of [
      [owner, 'api-keys'],
      [admin, 'api-keys'],
      [member, 'members'],
      [viewer, 'members'],
    ] as const) {
      await page.goto(`${origin}/console/settings`);
      await page.waitForURL(`${origin}/console/settings/${landing}`);
      await page.locator('main h1').first().waitFor();
    }
    await member.page.getByRole('heading', { name: 'Members' }).first().waitFor();
  });

  it("a viewer's feature scatter draws the project's quadrant thresholds, as the API classified with", async () => {
    // One user who saw and used a feature: high on both rates, whatever the thresholds below 1.
    const at = Date.now() - 3600_000;
    const events = ['page_view', 'feature_impression', 'feature_used'].map((event, i) => ({
      partition: 0,
      offset: i,
      key: null,
      value: {
        project_id: projectId,
        message_id: `scatter-${i}`,
        user_id: 'u-scatter',
        event,
        timestamp: at + i * 1000,
        received_at: Date.now(),
        properties: JSON.stringify({ page: '/reports', ...(i > 0 ? { feature: 'export_csv' } : {}) }),
      },
    }));
    await inTransaction(db(), (client) => applyEvents(client, events));
    const settings = await call(api, 'PUT', '/settings/analytics', {
      key: adminKey,
      json: { quadrant: { visibilityRate: 0.3, engagementConversion: 0.8 } },
    });
    assert.equal(settings.status, 200);
    const { page } = await signedIn('viewer');
    await open(page, '/console/features');
    await page.locator('main canvas[data-labels]').waitFor();
    const labels = await page.evaluate<string[]>(SCATTER_LABELS);
    assert.ok(labels.includes('VR threshold 30 %'), labels.join(' | '));
    assert.ok(labels.includes('EC threshold 80 %'), labels.join(' | '));
    assert.match(await page.locator('main .chart-note').innerText(), /quadrant thresholds \(this project.s settings\)/);
  });

  it("an admin demoted while the page is open is told the server's refusal with the roles that may", async () => {
    const admin = await signedIn('admin');
    const { page } = admin;
    await open(page, '/console/settings/api-keys');
    await page.getByRole('button', { name: 'Create New Key' }).click();
    const demoted = await call(api, 'PATCH', `/console/members/${admin.id}`, {
      headers: owner.as,
      json: { role: 'viewer' },
    });
    assert.equal(demoted.status, 200);
    await page.getByLabel('Name', { exact: true }).fill('too late');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Only an owner or an admin may create API keys; you are a viewer.' })
      .waitFor();
  });

  it("an owner invites with a role and changes a member's role; the last owner is told why they cannot step down", async () => {
    const member = await signedIn('member');
    const { page } = owner;
    await open(page, '/console/settings/members');

    // Invite with any of the four roles.
    const invite = page.getByRole('form', { name: 'Invite a person' });
    assert.deepEqual(await invite.getByLabel('Role').locator('option').allTextContents(), [
      'Owner',
      'Admin',
      'Member',
      'Viewer',
    ]);
    const invited = `invited-${process.pid}-${Date.now()}@example.com`;
    await invite.getByLabel('Email').fill(invited);
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('textbox', { name: `Sign-in link for ${invited}` }).waitFor();
    const { rows } = await db().query<{ role: string }>(
      'select role from console_users where project_id = $1 and email = $2',
      [projectId, invited],
    );
    assert.deepEqual(rows, [{ role: 'viewer' }]);

    // Promote the member to admin.
    await page.getByRole('combobox', { name: `Role of ${member.email}` }).selectOption('admin');
    await page.getByRole('button', { name: `Change the role of ${member.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Make ${member.email} an admin?` });
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitFor('the role changed', async () => (await roleOf(member.id)) === 'admin');
    assert.equal(await page.getByRole('combobox', { name: `Role of ${member.email}` }).inputValue(), 'admin');
    // Gone once the page has read the members again, which may be after the database has the change.
    await page.getByRole('button', { name: `Change the role of ${member.email}` }).waitFor({ state: 'detached' });

    // The only owner cannot step down: 409 last_owner, in words.
    await page.getByRole('combobox', { name: `Role of ${owner.email}` }).selectOption('admin');
    await page.getByRole('button', { name: `Change the role of ${owner.email}` }).click();
    const own = page.getByRole('dialog', { name: 'Make yourself an admin?' });
    await own.getByRole('button', { name: 'Change role' }).click();
    await own
      .getByRole('alert')
      .filter({ hasText: `${owner.email} is the project's only owner, and a project keeps one` })
      .waitFor();
    assert.equal(await roleOf(owner.id), 'owner');
    await own.getByRole('button', { name: 'Cancel' }).click();

    // The change is in the audit log.
    await open(page, '/console/settings/audit-log?action=member.role_changed');
    const entry = page.locator('tbody tr').filter({ hasText: 'to: admin' });
    assert.match(await entry.innerText(), /Member role changed/);
    assert.match(await entry.innerText(), /from: member/);
    assert.ok((await entry.innerText()).includes(owner.email), 'made by the owner');
  });

  it('a project with events but no goal is told that a goal is missing on Workflows, not to send events', async () => {
    const events = [1, 2, 3].map((i) => ({ user_id: `wf-${i}`, event: 'page_view', properties: { page: '/home' } }));
    assert.equal((await call(api, 'POST', '/events/batch', { key: adminKey, json: { events } })).status, 202);
    await open(owner.page, '/console/workflows');
    const empty = owner.page.getByRole('region', { name: 'No goal yet' });
    await empty.waitFor();
    assert.match(await empty.innerText(), /Any event your product already sends\s+can be one/);
    assert.equal(await owner.page.getByText('Send events with a key').count(), 0);
  });

  it('ran every page without a script error', () => {
    assert.deepEqual(pageErrors, []);
  });
});
