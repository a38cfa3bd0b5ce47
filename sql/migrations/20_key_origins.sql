-- Browser keys (the tracker, clients/browser): the origins whose pages may use a key, as browsers
-- send them in Origin (scheme://host[:port], no default port). null = not a browser key: no CORS
-- headers for it. A list = only those origins get CORS headers, and a request whose Origin is not in
-- it is refused with 403 (api/cors.ts). A preflight carries no key, so it is answered for an origin
-- that any live key lists: the GIN index serves that lookup.
alter table api_keys add column allowed_origins text[];
alter table api_keys add constraint api_keys_allowed_origins_check check (cardinality(allowed_origins) <= 100);
create index api_keys_allowed_origins on api_keys using gin (allowed_origins) where revoked_at is null;
