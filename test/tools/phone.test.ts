import t from 'tap';
import phone from '../../engine/kinds/handlers/checker/phone.js';

const check = (number: string, country?: string) =>
  phone({ params: { phone: number, country }, options: {}, call: {} as any, setup: {} as any }) as Promise<Record<string, any>>;

const UK_ZONES = ['Europe/Guernsey', 'Europe/Isle_of_Man', 'Europe/Jersey', 'Europe/London'];

t.test('a UK mobile: the range holder, the country (mobiles have no area), every UK zone', async (t) => {
  const result = await check('+44 7400 123456');
  t.match(result, { valid: true, type: 'MOBILE', country: 'GB', e164: '+447400123456' }, 'the libphonenumber-js fields stay');
  t.equal(result.carrier, 'Three');
  t.equal(result.location, 'United Kingdom');
  t.same(result.timezones, UK_ZONES);
});

t.test('a fixed line gets its area and zone but no carrier', async (t) => {
  const result = await check('020 7946 0018', 'GB');
  t.match(result, { type: 'FIXED_LINE', carrier: null, location: 'London' });
  t.same(result.timezones, ['Europe/London']);
});

t.test('US numbers from one data file: each answered by its own longest prefix', async (t) => {
  const [mountainView, newYork] = await Promise.all([check('+1 650 253 0000'), check('+1 212 736 5000')]);
  t.match(mountainView, { carrier: null, location: 'Mountain View, CA' });
  t.same(mountainView.timezones, ['America/Los_Angeles']);
  t.match(newYork, { location: 'New York, NY' });
  t.same(newYork.timezones, ['America/New_York']);
  t.same((await check('+1 650 253 0001')).location, 'Mountain View, CA', 'answered again from the kept data');
});

t.test('where mobile numbers are geographic, a mobile gets an area too', async (t) => {
  const china = await check('+86 138 1234 5678');
  t.match(china, { type: 'MOBILE', carrier: 'China Mobile', location: 'Lianyungang, Jiangsu' });
  t.same(china.timezones, ['Asia/Shanghai']);
  // Argentina's mobile "9" comes before the area code
  const argentina = await check('+54 9 11 2345 6789');
  t.match(argentina, { type: 'MOBILE', location: 'Buenos Aires' });
  t.same(argentina.timezones, ['America/Buenos_Aires']);
});

t.test("a toll-free number has no area: the country and all of its calling code's zones", async (t) => {
  const result = await check('+1 800 555 1234');
  t.match(result, { type: 'TOLL_FREE', carrier: null, location: 'United States' });
  t.ok(result.timezones.includes('America/New_York') && result.timezones.includes('Pacific/Honolulu'), 'zones of the whole +1 plan');
});

t.test('an invalid number gets nothing made up', async (t) => {
  t.match(await check('+44 20 7946 001'), { valid: false, carrier: null, location: null, timezones: [] });
  t.same(await check('12'), { valid: false, input: '12', reason: 'not a phone number (add the +country code or pass country)' });
});
