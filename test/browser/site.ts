/**
 * Sites on another origin than the API's, for the tracker's browser tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP server on a free loopback port, with its origin and a close that drops open connections. */
export async function listen(handler: http.RequestListener): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `/app…` answers the page the test gives, any other path a blank page (a place to stand on the origin first). */
export function startSite(page: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  return listen((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(req.url?.startsWith('/app') ? page() : '<!doctype html><title>blank</title>');
  });
}
