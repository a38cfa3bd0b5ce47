/**
 * The admin console in Debian's Chromium against the real service (API, Kafka, registry,
 * Postgres, the analytics chain and the webhook sender): sign in with a printed link, create a
 * key and use it, connect the integration webhook and verify its signed test event, see the
 * simulator's planted features, a live friction alert, CSRF and session refusals. Every page is
 * photographed at 390 px and 1440 px into .screenshots/console/ (git-ignored) on every run.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { consoleOwnerLink } from '../../api/console/accounts.js';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import type { Services } from '../../lib/services.js';
import { startProcessors } from '../../processors/main.js';
import type { RunningSink } from '../../processors/runtime/postgres-sink.js';
import { type RunningSender, startWebhookSender } from '../../workers/webhooks/sender.js';
import { ensureConsoleBuild } from '../../scripts/console-build.js';
import { defaultOptions, sendSimulation } from '../../scripts/simulate.js';
import { launchChromium } from '../browser/chromium.js';
import {
  call,
  closeServices,
  errorOf,
  isolateTopics,
  newProject,
  services,
  waitFor,
  waitForAnalytics,
} from './helpers.js';
import { startReceiver, testPki, verifyStandardWebhook } from './https-receiver.js';
import { connectStream } from './stream-client.js';
import { SIGN_IN_LIMITS } from '../../api/console/sign-in-limit.js';

const SHOTS = path.join('.screenshots', 'console');
const WIDTHS = [1440, 390];
const PASSWORD = 'a long console password 42';

/** `npm run user:invite` as an operator runs it; its stdout (the link), stderr and exit code. */
async function userInvite(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/user-invite.ts', ...args],
      { env: process.env, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The sender as an operator would configure it here: the test CA trusted, loopback allowed. */
function senderServices(): Services {
  const s = services();
  return {
    ...s,
    config: { ...s.config, webhookCaFile: testPki().caFile, webhookAllowHosts: ['localhost'], pollIntervalMs: 500 },
  };
}

// Code run inside the page is written as strings: the root tsconfig has no DOM types.
const NOTHING_LOADING = "!document.querySelector('.loading')";
const TWO_FRAMES = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))';
/** One h1, a name for every visible form control, no sideways scrolling of the page. */
const PAGE_PROBLEMS = `(() => {
  const found = [];
  const h1s = document.querySelectorAll('h1').length;
  if (h1s !== 1) found.push(h1s + ' h1');
  for (const control of document.querySelectorAll('input, select, textarea')) {
    if (control.type === 'hidden' || control.hidden) continue;
    const named = control.labels?.length || control.getAttribute('aria-label') || control.getAttribute('aria-labelledby');
    if (!named) found.push('unlabelled ' + control.tagName.toLowerCase() + ' ' + (control.name || control.id));
  }
  const overflow = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  if (overflow > 0) found.push('page scrolls sideways by ' + overflow + ' px');
  return found;
})()`;

/** Waits for the page's data: no "Loading …" left, and two frames drawn (charts follow their box). */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  // Polled from here: the page's CSP (no eval) refuses waitForFunction's string predicates.
  await waitFor('the page to finish loading', () => page.evaluate<boolean>(NOTHING_LOADING), 15_000);
  await page.evaluate(TWO_FRAMES);
}

/**
 * Photographs the page at every width and checks what a narrow screen and assistive technology
 * need (PAGE_PROBLEMS) at each.
 */
async function shoot(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await settled(page);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    assert.deepEqual(await page.evaluate<string[]>(PAGE_PROBLEMS), [], `${name} at ${width} px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('admin console in Chromium', function () {
  this.timeout(240_000);
  let api: RunningApi;
  let origin: string;
  let sinks: RunningSink[] = [];
  let sender: RunningSender | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let projectId: string;
  let projectName: string;
  let features: string[];
  let email: string;
  const pageErrors: string[] = [];

  before(async () => {
    await ensureConsoleBuild();
    fs.mkdirSync(SHOTS, { recursive: true });
    await isolateTopics();
    api = await startApi({ ...loadConfig(), port: 0, webhookAllowHosts: ['localhost'] }, services());
    origin = new URL(api.baseUrl).origin;
    sinks = await startProcessors(services(), ['analytics']);
    sender = await startWebhookSender(senderServices());
    receiver = await startReceiver();
    const project = await newProject(['events:write']);
    projectId = project.projectId;
    const { rows } = await services().db.query<{ name: string }>('select name from projects where project_id = $1', [
      projectId,
    ]);
    projectName = rows[0]!.name;
    email = `owner-${process.pid}-${Date.now()}@example.com`;
    // Seeded traffic with planted features, through the real ingest API and the pipeline.
    const simulation = await sendSimulation(api.baseUrl, project.keys[0]!, defaultOptions(11, 12, 2));
    features = Object.keys(simulation.answers.features);
    assert.ok(features.length >= 5);
    await waitForAnalytics(120_000);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // A missing element fails its step within seconds, not mocha's budget.
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    // Whatever the page's CSP refuses, and any uncaught error, fails the run (see the last test).
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) pageErrors.push(m.text());
    });
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  after(async () => {
    await browser?.close();
    await sender?.stop();
    await receiver?.close();
    await api?.close();
    await Promise.all(sinks.map((s) => s.stop()));
    await closeServices();
  });

  it('user:invite answers --help, refuses bad arguments with exit code 2, and prints a one-time link', async () => {
    const help = await userInvite('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--project.*--email/s);
    for (const bad of [
      ['--project', projectName],
      ['--email', 'x@example.com'],
      ['--nope'],
      ['--project', 'no such project', '--email', 'x@example.com'],
      ['--project', projectName, '--email', 'not-an-address'],
      ['--project', projectName, '--email', 'x@example.com', '--role', 'king'],
    ]) {
      const refused = await userInvite(...bad);
      assert.equal(refused.code, 2, bad.join(' '));
      assert.equal(refused.stderr.trim().split('\n').length, 1, `one line: ${refused.stderr}`);
    }
  });

  it('signs in with the printed link, sets a password and shows the planted features', async () => {
    await page.goto(`${origin}/console/features`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await shoot(page, 'sign-in');

    const invite = await userInvite(
      '--project',
      projectName,
      '--email',
      email,
      '--role',
      'owner',
      '--base-url',
      origin,
    );
    assert.equal(invite.code, 0, invite.stderr);
    const link = invite.stdout.trim();
    assert.match(link, new RegExp(`^${origin}/console/sign-in/link#token=pisl_[A-Za-z0-9_-]{43}$`));

    await page.goto(link);
    await page.getByRole('heading', { name: `Welcome, ${email}` }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
    await shoot(page, 'set-password');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForURL(/\/console\/features$/);
    await settled(page);
    const shown = await page.locator('table tbody th').allTextContents();
    assert.deepEqual([...shown].sort(), [...features].sort());
    assert.equal(await page.locator('canvas[role="img"]').count(), 1, 'the quadrant chart');
    await shoot(page, 'features');

    // The link worked once.
    const again = await call(api, 'POST', '/console/sign-in/link', { json: { token: link.split('#token=')[1] } });
    assert.equal(again.status, 401);
  });

  it('Settings → API Keys → Create New Key: the key works against POST /v1/events, and revoking stops it', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('button', { name: 'Create New Key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('browser test key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByRole('textbox', { name: /Your new key/ }).inputValue();
    assert.match(key, /^pi_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    await shoot(page, 'api-keys');

    const sent = await call(api, 'POST', '/events', {
      key,
      json: { user_id: 'console-user', event: 'page_view', properties: { page: '/from-console-key' } },
    });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const keyId = key.split('_')[1]!;
    await waitFor('last_used_at of the new key', async () => {
      const { rows } = await services().db.query(
        'select 1 from api_keys where key_id = $1 and last_used_at is not null',
        [keyId],
      );
      return rows.length === 1;
    });
    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    const row = page.getByRole('row', { name: /browser test key/ });
    await row.waitFor();
    assert.doesNotMatch(await row.innerText(), /never/, 'last used shows');
    assert.match(await row.innerText(), /Server/, 'a key without origins is a server key');

    // A browser key shows its class and the origins it may send from.
    await page.getByRole('button', { name: 'Create New Key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('page key');
    await page.getByLabel('Allowed origins (a browser key)').fill('https://app.example.com');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    const browserRow = page.getByRole('row', { name: /page key/ });
    await browserRow.waitFor();
    assert.match(await browserRow.innerText(), /Browser\s+https:\/\/app\.example\.com/);

    await page.getByRole('button', { name: 'Revoke key browser test key' }).click();
    const dialog = page.getByRole('dialog', { name: /Revoke the key/ });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText(/Revoked/).waitFor();
    const refused = await call(api, 'POST', '/events', { key, json: { user_id: 'u', event: 'page_view' } });
    assert.equal(refused.status, 401);
  });

  it('Settings → Integrations → Webhooks → Connect → Save: the test event arrives signed with the secret shown once', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('navigation', { name: 'Integrations' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByLabel('Endpoint URL').fill(receiver!.url('/console-hook'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    assert.match(secret, /^whsec_/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const got = await waitFor('the signed test delivery', () =>
      receiver!.received.find((r) => r.path === '/console-hook'),
    );
    assert.ok(verifyStandardWebhook(secret, got.headers, got.body), 'Standard Webhooks signature');
    const payload = JSON.parse(got.body) as { event: string; timestamp: string };
    assert.equal(payload.event, 'test');
    await page.getByRole('region', { name: 'Delivery log' }).getByText('succeeded').waitFor({ timeout: 20_000 });
    await shoot(page, 'integrations-webhooks');

    await page.getByRole('navigation', { name: 'Integrations' }).getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Add subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver!.url('/console-subscription'));
    await page.getByRole('button', { name: 'Save subscription' }).click();
    assert.match(
      await page.getByRole('textbox', { name: /Signing secret of the new subscription/ }).inputValue(),
      /^whsec_/,
    );
    await page.getByRole('row', { name: /console-subscription/ }).waitFor();
    await shoot(page, 'integrations-subscriptions');
  });

  it('Friction shows a friction alert from the stream the moment it is recorded', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Friction' }).click();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await services().db.query(
      `insert into friction_alerts (project_id, alert_id, page, day, friction_index, users_affected)
       values ($1, 'fa_console_test', '/live-from-the-stream', current_date, 0.72, 3)`,
      [projectId],
    );
    await page.getByRole('region', { name: 'Live alerts' }).getByText('/live-from-the-stream').waitFor();
    // Three days of history have no week before the last to compare with: no "stable (0 %)".
    const trends = page.getByRole('region', { name: 'Trends, last 28 days' });
    await trends
      .getByText(/not enough history yet \(\d days?\)/)
      .first()
      .waitFor();
    assert.doesNotMatch(await trends.innerText(), /stable \(0 %\)/);
    await shoot(page, 'friction');
  });

  it('Jobs: create, activate; every other page renders at both widths', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('button', { name: 'New job' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Export a report');
    await page.getByLabel('Goal event').fill('report_exported');
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.getByRole('button', { name: 'Activate Export a report' }).click();
    await page.getByRole('button', { name: 'Pause Export a report' }).waitFor();
    await page.getByRole('button', { name: 'Edit Export a report' }).click();
    await page.getByLabel('Priority').selectOption('high');
    await page.getByRole('button', { name: 'Save job' }).click();
    await page.getByText('High priority').waitFor();
    await page.getByRole('button', { name: 'Metrics' }).click();
    await page.getByRole('heading', { name: 'Paths to success' }).waitFor();
    await shoot(page, 'jobs');
    await page.getByRole('button', { name: 'Delete Export a report' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete job' }).click();
    await page.getByRole('heading', { name: 'No jobs yet' }).waitFor();

    for (const [name, url] of [
      ['workflows', '/console/workflows'],
      ['cohorts', '/console/cohorts'],
      ['event-context', '/console/context?event=feature_impression&date_range=last_7_days'],
      ['members', '/console/settings/members'],
      ['account', '/console/settings/account'],
      ['audit-log', '/console/settings/audit-log'],
    ] as const) {
      await page.goto(`${origin}${url}`);
      await shoot(page, name);
    }
    // Keyboard: the first Tab reaches the skip link, which leads to the page.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate<string>('document.activeElement?.textContent'), 'Skip to content');
  });

  it('refuses cookie-authenticated changes without the CSRF token or from another origin, and unknown sessions', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'pi_console');
    assert.ok(cookie, 'the session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.secure, false, 'plain http here; Secure (and __Host-) over https');
    assert.match(cookie.value, /^pics_/);
    const headers = { Cookie: `pi_console=${cookie.value}` };
    const session = await call<{ csrf_token: string; user: { email: string } }>(api, 'GET', '/console/session', {
      headers,
    });
    assert.equal(session.status, 200);
    assert.equal(session.body.user.email, email);
    const csrf = session.body.csrf_token;
    const create = (extra: Record<string, string>) =>
      call(api, 'POST', '/api-keys', { headers: { ...headers, ...extra }, json: { scopes: ['analytics:read'] } });

    const noToken = await create({ Origin: origin });
    assert.equal(noToken.status, 403);
    assert.equal(errorOf(noToken).code, 'forbidden');
    assert.equal(errorOf(noToken).details.reason, 'csrf_token');
    const wrongToken = await create({
      Origin: origin,
      'X-CSRF-Token': csrf.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    });
    assert.equal(errorOf(wrongToken).details.reason, 'csrf_token');
    const foreign = await create({ Origin: 'https://evil.example', 'X-CSRF-Token': csrf });
    assert.equal(foreign.status, 403);
    assert.equal(errorOf(foreign).details.reason, 'origin');
    const noOrigin = await create({ 'X-CSRF-Token': csrf });
    assert.equal(errorOf(noOrigin).details.reason, 'origin');
    assert.equal((await create({ Origin: origin, 'X-CSRF-Token': csrf })).status, 201);

    // The stream's auth takes a console stream token once: a replayed token is refused.
    const streamToken = await call<{ token: string }>(api, 'POST', '/console/stream-token', {
      headers: { ...headers, Origin: origin, 'X-CSRF-Token': csrf },
    });
    assert.equal(streamToken.status, 201);
    const first = await connectStream(api.streamUrl);
    first.send({ type: 'auth', api_key: streamToken.body.token });
    await first.next((m) => m.type === 'auth_ok');
    first.ws.close();
    const replay = await connectStream(api.streamUrl);
    replay.send({ type: 'auth', api_key: streamToken.body.token });
    await replay.next((m) => m.type === 'error' && m.code === 'unauthorized');
    assert.equal((await replay.closed).code, 1008);

    for (const value of [`pics_${'A'.repeat(43)}`, 'garbage']) {
      const wrong = await call(api, 'GET', '/api-keys', { headers: { Cookie: `pi_console=${value}` } });
      assert.equal(wrong.status, 401, value);
      assert.equal(errorOf(wrong).code, 'unauthorized');
    }
    // An admin API key is not a person: the console's own routes refuse it.
    const { keys } = await newProject(['admin']);
    const byKey = await call(api, 'GET', '/console/session', { key: keys[0] });
    assert.equal(byKey.status, 403);
    assert.equal(errorOf(byKey).details.reason, 'console_session_required');
    // A sign-in posted by another site is refused before any password is checked.
    const crossSite = await call(api, 'POST', '/console/sign-in', {
      headers: { Origin: 'https://evil.example' },
      json: { email, password: PASSWORD },
    });
    assert.equal(crossSite.status, 403);
  });

  it('signs out everywhere, then signs in with the password', async () => {
    const before = (await context.cookies()).find((c) => c.name === 'pi_console')!.value;
    await page.goto(`${origin}/console/settings/account`);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(/\/console\/sign-in/);
    const stale = await call(api, 'GET', '/console/session', { headers: { Cookie: `pi_console=${before}` } });
    assert.equal(stale.status, 401);

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'email or password is wrong' }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/settings\/account$/);
    await page.getByRole('heading', { name: 'Account' }).waitFor();
  });

  it("npm start's consoleOwnerLink: the project's first owner (created once), a fresh one-time link each call", async () => {
    const { projectId: other } = await newProject();
    const first = await consoleOwnerLink(services().db, other, api.baseUrl);
    const second = await consoleOwnerLink(services().db, other, api.baseUrl);
    assert.equal(first.consoleUrl, `${origin}/console`);
    assert.match(first.email, /^owner@test-[a-z0-9-]+\.localhost$/);
    assert.equal(second.email, first.email);
    assert.notEqual(second.link, first.link);
    const { rows } = await services().db.query<{ role: string }>(
      'select role from console_users where project_id = $1',
      [other],
    );
    assert.deepEqual(rows, [{ role: 'owner' }]);
    const signedIn = await call<{ user: { email: string; role: string }; via_link: boolean }>(
      api,
      'POST',
      '/console/sign-in/link',
      { json: { token: first.link.split('#token=')[1] } },
    );
    assert.equal(signedIn.status, 200);
    assert.deepEqual(
      [signedIn.body.user.email, signedIn.body.user.role, signedIn.body.via_link],
      [first.email, 'owner', true],
    );
    assert.match(signedIn.headers.get('set-cookie') ?? '', /^pi_console=pics_[^;]+;.*httponly/i);
    assert.match(signedIn.headers.get('set-cookie') ?? '', /samesite=strict/i);
  });

  it('limits sign-in attempts per email and address: 429 with Retry-After after the free failures', async () => {
    const target = `nobody-${process.pid}@example.com`;
    const attempt = () =>
      call(api, 'POST', '/console/sign-in', { json: { email: target, password: 'guess guess guess' } });
    for (let i = 1; i <= SIGN_IN_LIMITS.freeFailures + 1; i++)
      assert.equal((await attempt()).status, 401, `attempt ${i}`);
    const limited = await attempt();
    assert.equal(limited.status, 429);
    assert.equal(errorOf(limited).code, 'rate_limited');
    const wait = Number(limited.headers.get('Retry-After'));
    assert.ok(wait >= 1 && wait <= SIGN_IN_LIMITS.firstDelayMs / 1000, `Retry-After ${wait}`);
  });

  it('ran every page without a script error or a Content-Security-Policy violation', () => {
    assert.deepEqual(pageErrors, []);
  });
});
