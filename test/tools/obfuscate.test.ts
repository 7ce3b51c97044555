import vm from 'node:vm';
import t from 'tap';
import { obfuscateJs } from '../../engine/features/tools/obfuscate.js';

/** Run a script in a fresh context and collect what it logs. */
function run(code: string): string[] {
  const out: string[] = [];
  vm.runInNewContext(code, { console: { log: (...args: unknown[]) => out.push(args.map(String).join(' ')) } }, { timeout: 5000 });
  return out;
}

t.test('obfuscated JavaScript behaves exactly like the original', async (t) => {
  const source = `
    function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    const names = ['ada', 'grace', 'linus'];
    class Greeter { constructor(p) { this.p = p; } greet(n) { return this.p + ', ' + n + '!'; } }
    const g = new Greeter('Hello');
    for (const n of names) console.log(g.greet(n.toUpperCase()));
    console.log('fib', fib(15), JSON.stringify({ a: [1, 2, { b: 'secret value' }] }));
    try { null.x; } catch (e) { console.log('caught', e instanceof TypeError); }`;
  const obfuscated = obfuscateJs(source);
  // globals keep their names on purpose (other scripts of a page may call them); strings and locals do not
  t.notMatch(obfuscated, /secret value|grace|toUpperCase/, 'strings are hidden');
  t.same(run(obfuscated), run(source));
  t.same(run(source).length, 5);
});

t.test('invalid JavaScript is a 400 naming the param', async (t) => {
  t.throws(() => obfuscateJs('function (', 'code'), { status: 400, code: 'invalid_parameter', details: [{ param: 'code' }] });
});
