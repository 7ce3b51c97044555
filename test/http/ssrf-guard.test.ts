import net from 'node:net';
import t from 'tap';
import { AddressRefused, checkUrl, createSsrfGuard, type ResolvedAddress, type Resolver } from '../../engine/platform/http/ssrf-guard.js';

const PUBLIC_V4: ResolvedAddress = { address: '93.184.216.34', family: 4 };
const PUBLIC_V6: ResolvedAddress = { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 };

/** A resolver answering from a table; names missing from it fail like getaddrinfo does. */
const tableResolver =
  (table: Record<string, ResolvedAddress[]>): Resolver =>
  async (host) => {
    const answer = table[host];
    if (answer) return answer;
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };

const refused = (param = 'url') => ({ status: 400, code: 'unsupported_url', details: [{ param }] });

t.test('refuses every non-public literal host, however the URL spells it', async (t) => {
  const urls = [
    'http://127.0.0.1/',
    'http://127.0.0.1:8080/admin',
    'http://127.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://0x7f.0x0.0x0.0x1/',
    'http://127.0.0.1./',
    'http://①②⑦.0.0.1/', // IDNA folds these digits to ASCII
    'http://0/',
    'http://0.0.0.0/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://192.0.2.1/',
    'http://198.18.0.1/',
    'http://240.0.0.1/',
    'http://[::1]/',
    'http://[::]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[ff02::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'http://[::127.0.0.1]/',
    'http://[2001:db8::1]/',
    'https://127.0.0.1/',
  ];
  for (const url of urls) await t.rejects(checkUrl(url, { allowPrivate: false }), refused(), url);
});

t.test('refuses host names that resolve to a non-public address', async (t) => {
  // localhost comes from /etc/hosts, so this runs offline.
  await t.rejects(checkUrl('http://localhost:3000/', { allowPrivate: false }), {
    ...refused(),
    message: /host resolves to a loopback address/,
  });
  const guard = createSsrfGuard({
    allowPrivate: false,
    resolver: tableResolver({
      'mixed.test': [PUBLIC_V4, { address: '10.0.0.7', family: 4 }],
      'mapped.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
    }),
  });
  await t.rejects(guard.checkUrl('http://mixed.test/'), { message: /private address/ }, 'one bad answer is enough');
  await t.rejects(guard.checkUrl('http://mapped.test/'), { message: /link-local/ });
});

t.test('names the param and keeps credentials out of the error', async (t) => {
  const error = await checkUrl('http://admin:s3cret@127.0.0.1/', { allowPrivate: false, param: 'image' }).then(
    () => undefined,
    (e: Error) => e,
  );
  t.match(error, refused('image'));
  t.match(error?.message, /^Unsupported URL in image: loopback address$/);
  t.notMatch(JSON.stringify(error), /s3cret/);
});

t.test('only http and https, even when private addresses are allowed', async (t) => {
  for (const allowPrivate of [false, true]) {
    for (const url of [
      'ftp://93.184.216.34/',
      'file:///etc/passwd',
      'gopher://93.184.216.34/',
      'data:text/plain,hi',
      'javascript:alert(1)',
      'ws://93.184.216.34/',
    ]) {
      await t.rejects(checkUrl(url, { allowPrivate }), { ...refused(), message: /only http and https/ }, url);
    }
  }
  await t.rejects(checkUrl('not a url', { allowPrivate: true }), { message: /not a valid absolute URL/ });
  await t.rejects(checkUrl('/relative/path', { allowPrivate: true }), { message: /not a valid absolute URL/ });
});

t.test('allows public addresses and returns what was checked', async (t) => {
  t.same(await checkUrl('http://93.184.216.34/a?b=1', { allowPrivate: false }).then((c) => c.addresses), [PUBLIC_V4]);
  const v6 = await checkUrl('https://[2606:2800:220:1:248:1893:25c8:1946]/', { allowPrivate: false });
  t.same(v6.addresses, [PUBLIC_V6]);
  t.equal(v6.url.protocol, 'https:');
  const guard = createSsrfGuard({ allowPrivate: false, resolver: tableResolver({ 'public.test': [PUBLIC_V4, PUBLIC_V6] }) });
  const checked = await guard.checkUrl('http://public.test:8080/x');
  t.equal(checked.url.host, 'public.test:8080');
  t.same(checked.addresses, [PUBLIC_V4, PUBLIC_V6]);
});

t.test('ALLOW_PRIVATE_URLS lifts the address checks', async (t) => {
  const checked = await checkUrl('http://127.0.0.1:8080/', { allowPrivate: true });
  t.same(checked.addresses, [{ address: '127.0.0.1', family: 4 }]);
  await t.resolves(checkUrl('http://[::1]/', { allowPrivate: true }));
  await t.resolves(checkUrl('http://localhost/', { allowPrivate: true }));
});

t.test('DNS failures: a missing host is the caller’s 400, an outage is a 502', async (t) => {
  const guard = createSsrfGuard({
    allowPrivate: false,
    resolver: async (host) => {
      if (host === 'empty.test') return [];
      throw Object.assign(new Error('queryA EAI_AGAIN'), { code: host === 'flaky.test' ? 'EAI_AGAIN' : 'ENOTFOUND' });
    },
  });
  await t.rejects(guard.checkUrl('http://nowhere.test/', 'src'), { ...refused('src'), message: /host not found/ });
  await t.rejects(guard.checkUrl('http://empty.test/'), { ...refused(), message: /host not found/ });
  await t.rejects(guard.checkUrl('http://flaky.test/'), { status: 502, code: 'upstream_error', message: /EAI_AGAIN/ });
});

/** Call a LookupFunction and collect what it answers. */
function lookup(fn: net.LookupFunction, host: string, options: { family?: number; all?: boolean }): Promise<{ error: Error | null; answer: unknown }> {
  return new Promise((resolve) =>
    fn(host, options, ((error: Error | null, address: unknown, family?: number) =>
      resolve({ error, answer: options.all ? address : { address, family } })) as never),
  );
}

t.test('lookup answers in the shapes net asks for, and refuses like checkUrl', async (t) => {
  const guard = createSsrfGuard({
    allowPrivate: false,
    resolver: tableResolver({
      'public.test': [PUBLIC_V4, PUBLIC_V6],
      'only6.test': [PUBLIC_V6],
      'inside.test': [{ address: '192.168.0.10', family: 4 }],
    }),
  });
  t.same(await lookup(guard.lookup, 'public.test', {}), { error: null, answer: PUBLIC_V4 });
  t.same(await lookup(guard.lookup, 'public.test', { family: 6 }), { error: null, answer: PUBLIC_V6 });
  t.same(await lookup(guard.lookup, 'public.test', { all: true }), { error: null, answer: [PUBLIC_V4, PUBLIC_V6] });
  t.match(await lookup(guard.lookup, 'only6.test', { family: 4 }), { error: { code: 'ENOTFOUND' } });
  const inside = await lookup(guard.lookup, 'inside.test', { all: true });
  t.type(inside.error, AddressRefused);
  t.equal((inside.error as AddressRefused).why, 'host resolves to a private address');
  t.match(await lookup(guard.lookup, 'missing.test', {}), { error: { code: 'ENOTFOUND' } }, 'DNS errors pass through');
});

t.test('a socket using the lookup never reaches a refused address', async (t) => {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as net.AddressInfo;
  const connect = (allowPrivate: boolean) => {
    const guard = createSsrfGuard({
      allowPrivate,
      resolver: tableResolver({ 'rebound.test': [{ address: '127.0.0.1', family: 4 }] }),
    });
    return new Promise<Error | undefined>((resolve) => {
      const socket = net.connect({ host: 'rebound.test', port, lookup: guard.lookup });
      socket.once('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('error', resolve);
    });
  };
  t.type(await connect(false), AddressRefused);
  t.equal(connections, 0, 'nothing reached the server');
  t.equal(await connect(true), undefined, 'with ALLOW_PRIVATE_URLS the same socket connects');
});
