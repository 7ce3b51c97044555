import net from 'node:net';

/** A loopback port free right now, for a server a test starts as a child process. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1');
    probe.once('error', reject);
    probe.once('listening', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
