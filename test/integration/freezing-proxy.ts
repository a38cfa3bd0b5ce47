import net from 'node:net';
import type { ISocketFactory } from 'kafkajs';

/**
 * A loopback TCP proxy that forwards real bytes to one target and can fall silent: `freeze()`
 * stops reading on both sides of every connection and leaves new ones unanswered, as a broker in
 * a long pause or behind a partition looks to its clients (sockets open, nothing answered);
 * `thaw()` lets the held bytes through. The broker itself is never touched.
 */
export class FreezingProxy {
  private readonly sockets = new Set<net.Socket>();
  private readonly held: (() => void)[] = [];
  private frozen = false;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<FreezingProxy> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new FreezingProxy(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (client: net.Socket) => proxy.accept(client, target));
    return proxy;
  }

  /**
   * For kafkajs: every broker connection (the seed and the addresses the broker advertises in its
   * metadata) goes to this proxy, which fronts the one broker of the local stack.
   */
  socketFactory(): ISocketFactory {
    return ({ onConnect }) => net.connect({ host: '127.0.0.1', port: this.port }, onConnect);
  }

  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) socket.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const socket of this.sockets) socket.resume();
    for (const start of this.held.splice(0)) start();
  }

  async close(): Promise<void> {
    this.thaw();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    client.pause();
    this.sockets.add(client);
    const start = () => {
      const upstream = net.connect(target);
      this.sockets.add(upstream);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        from.on('data', (chunk) => to.write(chunk));
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
        from.on('error', () => to.destroy());
      }
      if (this.frozen) upstream.pause();
      else client.resume();
    };
    if (this.frozen) this.held.push(start);
    else start();
  }
}
