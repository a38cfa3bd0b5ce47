/**
 * Identity stitching (docs/adr/0078-identity-stitching.md, docs/metrics.md "One person").
 *
 * When identify links an anonymous id to a user, the API writes this event to pi.events.v1 under the
 * anonymous id, after the events sent under it: the analytics step, reading that partition in order,
 * moves what it stored of the anonymous id into the user's when it meets it. The name is reserved:
 * a client may not send it.
 */
export const IDENTIFY_EVENT = '$identify';
