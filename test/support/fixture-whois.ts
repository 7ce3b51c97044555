import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { WHOIS_UPSTREAM, fixtureBook, type FixtureServer } from './fixture-book.js';

/**
 * The harness's WHOIS server (RFC 3912 over TCP, what WHOIS_SERVER and
 * WHOIS_IANA_SERVER point at). A fixture `{ upstream: whois, path: <query line>,
 * file: <text file> }` is the answer to that query; a query no fixture lists gets no
 * answer and is reported as unmatched. `${whoisServer}` in a fixture's text becomes
 * this server's host:port, so an IANA answer can refer the lookup back here
 * (`refer: ${whoisServer}`) and the discovery path runs offline too.
 */
export const WHOIS_SERVER_PLACEHOLDER = '${whoisServer}';

export async function startFixtureWhois(): Promise<FixtureServer> {
  const book = fixtureBook(WHOIS_UPSTREAM);
  const sockets = new Set<net.Socket>();
  let address = '';

  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setEncoding('utf8');
    let received = '';
    let answered = false;
    const refuse = (problem: string) => {
      book.miss(problem);
      socket.end();
    };
    const answer = (query: string) => {
      if (answered) return;
      answered = true;
      const fixture = book.find(query);
      if (!fixture) return refuse(query || '(an empty query)');
      let body: ReturnType<typeof book.body>;
      try {
        body = book.body(fixture);
      } catch (err) {
        return refuse(`${query}: ${(err as Error).message}`);
      }
      if (!('file' in body)) return refuse(`${query}: a WHOIS fixture answers with a text file`);
      socket.end(body.file.toString('utf8').replaceAll(WHOIS_SERVER_PLACEHOLDER, address));
    };
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.search(/\r?\n/);
      if (end !== -1) answer(received.slice(0, end));
    });
    // a client that half-closes without a line end has still asked its query
    socket.on('end', () => answer(received));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    address,
    use: book.use,
    hits: book.hits,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
