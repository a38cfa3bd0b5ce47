import type { Pool, PoolClient } from '../../lib/db.js';
import { inTransaction } from '../../lib/db.js';
import { outlastLeases } from '../../lib/lease.js';
import { userKey } from '../../lib/kafka/topics.js';
import { keepingAnswerTables, segmentProperties } from '../../store/answer-tables.js';
import { erasePerson } from '../../store/user-data.js';
import { audit } from '../../store/audit-log.js';
import { lockUsers } from '../../store/locks.js';
import { type UserRow, mergeUserProperties, userById } from '../../store/users.js';
import { PROJECT_LIMITS } from '../../domain/limits.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { type IdentityLink, type LinkRefusal, linkAnonymousId } from '../../store/identity-links.js';
import { IDENTIFY_EVENT } from '../../domain/identity.js';
import { toRecord } from '../../domain/tracked-event.js';
import type { Publisher } from '../publisher.js';
import type { UserSealing } from '../sealing.js';
import { sealEvent, sealValue } from '../../domain/sealed-user.js';
import { type Route, defineRoute, pathParam } from '../route.js';

function presentUser(row: Omit<UserRow, 'created'>) {
  return {
    user_id: row.user_id,
    properties: row.properties,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Merges properties (a null value removes the key), moves the user's share of the segment answer
 * tables, and publishes the user's new state to the compacted users topic inside the same
 * transaction: if Kafka refuses, nothing changes.
 */
async function mergeUser(
  client: PoolClient,
  publisher: Publisher,
  sealing: UserSealing,
  projectId: string,
  userId: string,
  properties: Record<string, unknown>,
  createIfMissing: boolean,
  fromBrowser = false,
): Promise<UserRow | undefined> {
  // Segment answer tables sum users by their current properties: when a segment property changes,
  // the user's share moves with it, under the lock the processors take for the user's rows.
  const user = { projectId, userId };
  const merge = () => mergeUserProperties(client, { projectId, userId, properties, createIfMissing, fromBrowser });
  // The processors' order: the user's lock, then the project row (segmentProperties).
  await lockUsers(client, [user]);
  const segments = (await segmentProperties(client, [projectId]))[projectId] ?? [];
  const row = Object.keys(properties).some((key) => segments.includes(key))
    ? await keepingAnswerTables(client, [user], merge, 'segments')
    : await merge();
  if (!row) return undefined;
  // Checked on the merged result, inside the transaction: a refused merge changes nothing. The
  // answer does not say how large the stored properties are (a write key may not read them).
  const limit = PROJECT_LIMITS.userPropertiesBytes;
  if (Buffer.byteLength(JSON.stringify(row.properties)) > limit) {
    throw new ApiError(
      409,
      'conflict',
      `The user's properties would exceed the ${limit} bytes (as JSON) a user may keep; remove some first (a null value removes a key).`,
      { field: 'properties', reason: 'limit_reached', limit_bytes: limit },
    );
  }
  const { ref, key } = (await sealing.keysFor(projectId, [userId], client)).get(userId)!;
  await publisher.publish('users', [
    {
      key: userKey(projectId, ref),
      value: {
        project_id: projectId,
        user_ref: ref,
        sealed: sealValue(key, `${projectId}:${ref}`, { user_id: userId, properties: JSON.stringify(row.properties) }),
        changed_at: row.updated_at.getTime(),
      },
      timestamp: row.updated_at.getTime(),
    },
  ]);
  return row;
}

type IdentifyInput = {
  user_id: string;
  properties?: Record<string, unknown>;
  anonymous_id?: string;
  previous_id?: string;
};

function anonymousIdOf(input: IdentifyInput): string | undefined {
  const { anonymous_id: anonymous, previous_id: previous, user_id: userId } = input;
  if (anonymous !== undefined && previous !== undefined && anonymous !== previous) {
    throw fieldError(
      'previous_id',
      'conflicts',
      'previous_id is another name for anonymous_id: send one of the two, or the same id in both.',
    );
  }
  const id = anonymous ?? previous;
  if (id === userId) {
    throw fieldError(
      anonymous === undefined ? 'previous_id' : 'anonymous_id',
      'same_as_user_id',
      'The anonymous id must differ from user_id: it is the id the events were sent under before sign-in.',
    );
  }
  return id;
}

const LINK_REFUSALS: Record<LinkRefusal, (link: IdentityLink, linkedTo?: string) => string> = {
  linked_to_another_user: (l) =>
    `The anonymous id ${l.anonymousId} is already linked to another user: an anonymous id belongs to one person only. Send the events of a new visitor under a new anonymous id (the tracker's pi.reset() starts one).`,
  identified_user: (l) =>
    `${l.anonymousId} is an identified user, not an anonymous id: two identified users are never merged. Link only the id the events were sent under before sign-in.`,
  linked_anonymous_id: (l) =>
    `${l.userId} is itself an anonymous id linked to another user; identify that user instead.`,
};

/** Links the anonymous id to the user, or refuses (409) as docs/metrics.md ("One person") says. */
async function link(client: PoolClient, l: IdentityLink): Promise<void> {
  // Both users' locks in one statement (the lock order), before mergeUser takes the user's again.
  await lockUsers(client, [
    { projectId: l.projectId, userId: l.userId },
    { projectId: l.projectId, userId: l.anonymousId },
  ]);
  const { refused, linkedTo } = await linkAnonymousId(client, l);
  if (refused)
    throw new ApiError(409, 'conflict', LINK_REFUSALS[refused](l, linkedTo), {
      field: 'anonymous_id',
      reason: refused,
    });
}

/** The marker the analytics step merges the anonymous id's stored events at (domain/identity.ts). */
async function publishMarker(publisher: Publisher, sealing: UserSealing, projectId: string, anonymousId: string) {
  const record = toRecord(projectId, { user_id: anonymousId, event: IDENTIFY_EVENT }, Date.now());
  const { ref, key } = (await sealing.keysFor(projectId, [anonymousId])).get(anonymousId)!;
  await publisher.publish('events', [
    { key: userKey(projectId, ref), value: sealEvent(record, ref, key), timestamp: record.received_at },
  ]);
}

export function userRoutes(db: Pool, publisher: Publisher, sealing: UserSealing): Route[] {
  return [
    defineRoute<IdentifyInput>({
      method: 'POST',
      path: '/users/identify',
      tag: 'Users',
      summary: 'Create a user or merge properties into it',
      scope: 'events:write',
      body: 'user-identify.json',
      success: {
        status: 200,
        schema: 'IdentifiedUser',
        description:
          'the user ({ user_id, properties, created_at, updated_at }) to an admin key; { user_id } only to any other key',
        also: { 201: 'the user was created' },
      },
      errors: {
        400: 'anonymous_id equals user_id, or differs from previous_id',
        409: "The merged properties would exceed a user's limit (details.limit_bytes), or the anonymous id cannot be linked to this user (details.reason: linked_to_another_user, identified_user, linked_anonymous_id)",
      },
      async handle(ctx, input) {
        const { projectId } = ctx.state.auth;
        const anonymousId = anonymousIdOf(input);
        const row = (await inTransaction(db, async (client) => {
          if (anonymousId !== undefined) await link(client, { projectId, anonymousId, userId: input.user_id });
          const fromBrowser = ctx.state.auth.allowedOrigins !== null;
          return mergeUser(
            client,
            publisher,
            sealing,
            projectId,
            input.user_id,
            input.properties ?? {},
            true,
            fromBrowser,
          );
        }))!;
        // After the link is committed, so that the analytics step that meets the marker finds it.
        if (anonymousId !== undefined) await publishMarker(publisher, sealing, projectId, anonymousId);
        ctx.status = row.created ? 201 : 200;
        // A write key (a browser's, a mobile app's) is as good as public: it may write, never read a
        // user's stored properties back. Reading them is an admin's (GET /users/{user_id}).
        ctx.body = ctx.state.auth.scopes.includes('admin') ? presentUser(row) : { user_id: row.user_id };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/users/:user_id',
      tag: 'Users',
      summary: "Get a user's properties",
      scope: 'admin',
      success: { status: 200, schema: 'User', description: '{ user_id, properties, created_at, updated_at }' },
      errors: { 404: 'No such user in this project' },
      async handle(ctx) {
        const row = await userById(db, ctx.state.auth.projectId, pathParam(ctx, 'user_id'));
        if (!row) throw notFound('user');
        ctx.body = presentUser(row);
      },
    }),
    defineRoute<{ properties: Record<string, unknown> }>({
      method: 'PATCH',
      path: '/users/:user_id',
      tag: 'Users',
      summary: "Merge properties into a known user's",
      scope: 'admin',
      body: 'user-update.json',
      success: { status: 200, schema: 'User', description: 'the user after the merge' },
      errors: {
        404: 'No such user in this project',
        409: "The merged properties would exceed a user's limit (details.limit_bytes)",
      },
      async handle(ctx, input) {
        const row = await inTransaction(db, (client) =>
          mergeUser(
            client,
            publisher,
            sealing,
            ctx.state.auth.projectId,
            pathParam(ctx, 'user_id'),
            input.properties,
            false,
          ),
        );
        if (!row) throw notFound('user');
        ctx.body = presentUser(row);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/users/:user_id',
      tag: 'Users',
      summary:
        "Erase every row of a person (privacy request): the user and every anonymous id linked to them (or, given a linked anonymous id, its user's person), and the keys that seal their Kafka messages; their past events never come back",
      scope: 'admin',
      success: { status: 200, schema: 'UserDeleted', description: '{ user_id, deleted: true, rows_deleted }' },
      async handle(ctx) {
        // Always recorded, even when no row exists yet: events still in flight are refused too.
        const { projectId } = ctx.state.auth;
        const id = pathParam(ctx, 'user_id');
        const removed = await inTransaction(db, async (client) => {
          const { rows, refs } = await erasePerson(client, projectId, id);
          // The tombstones compact the person's state out of the users topic (already unreadable:
          // the erasure deleted the keys that sealed it).
          const now = Date.now();
          await publisher.publish(
            'users',
            refs.map((ref) => ({ key: userKey(projectId, ref), value: null, timestamp: now })),
          );
          return rows;
        });
        // Events are sealed under an erasure epoch read up to a lease ago: a request sent after
        // this answer reads the new one, so it never seals with the erased key.
        await outlastLeases();
        await audit(db, ctx, 'user.erased', null, { rows_deleted: removed });
        ctx.body = { user_id: id, deleted: true, rows_deleted: removed };
      },
    }),
  ];
}
