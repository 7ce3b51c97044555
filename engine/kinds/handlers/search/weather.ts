import type { AdapterSetup, Call } from '../../../contract/call.js';
import { notFound, upstreamError } from '../../../core/errors.js';
import { compileMapping, type Expression, type Mapping } from '../../../core/mapping.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/weather: the place from Open-Meteo's geocoding API, then its current conditions
 * and three days from the Open-Meteo forecast API. The answer keeps Manifold's shape (the
 * manifest's named mapping, `options.forecast`: location, current, units, daily) and adds,
 * from the same data, the OpenWeatherMap-like fields the genre's clients read: main
 * {temp, feels_like, temp_min, temp_max, humidity, pressure}, weather {main, description} (an
 * object, as they read it), wind {speed (m/s), deg}, clouds {all}, visibility (m), coord
 * {lat, lon}, sys {country (ISO code), sunrise, sunset (Unix seconds)}, name and dt.
 */
interface Place {
  latitude: number;
  longitude: number;
  name?: string;
  country?: string;
  country_code?: string;
  admin1?: string;
  timezone?: string;
}

interface Forecast {
  utc_offset_seconds?: number;
  current?: Record<string, number | string>;
  daily?: Record<string, (number | string | null)[]>;
}

/** OpenWeatherMap's condition groups (weather.main) for the WMO codes Open-Meteo answers. */
function group(code: number): string {
  if (code === 0) return 'Clear';
  if (code <= 3) return 'Clouds';
  if (code === 45 || code === 48) return 'Fog';
  if (code >= 51 && code <= 57) return 'Drizzle';
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return 'Rain';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'Snow';
  if (code >= 95) return 'Thunderstorm';
  return 'Unknown';
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Open-Meteo's local ISO time ("2025-09-13T06:35") as Unix seconds, given the place's UTC offset. */
function unix(local: unknown, offsetSeconds: number): number | null {
  if (typeof local !== 'string') return null;
  const ms = Date.parse(`${local}Z`);
  return Number.isFinite(ms) ? Math.round(ms / 1000) - offsetSeconds : null;
}

const compiled = new WeakMap<object, Mapping>();

async function place(setup: AdapterSetup, call: Call, name: string): Promise<Place> {
  const answer = await setup.upstreams.call<{ generationtime_ms?: unknown; results?: Place[] }>('open-meteo-geocoding', {
    path: '/v1/search',
    query: { name, count: 1, language: 'en', format: 'json' },
    signal: call.signal,
  });
  if (typeof answer?.generationtime_ms !== 'number') throw upstreamError('open-meteo-geocoding', 'unexpected response shape');
  const found = answer.results?.[0];
  if (!found || typeof found.latitude !== 'number' || typeof found.longitude !== 'number') throw notFound('No place with this name is known');
  return found;
}

export default handler<Params['search/weather']>(async ({ params, options, call, setup }) => {
  let toForecast = compiled.get(options);
  if (!toForecast) compiled.set(options, (toForecast = compileMapping(options.forecast as Expression)));
  const at = await place(setup, call, params.location);
  const response = await setup.upstreams.call<Forecast>('open-meteo', {
    path: '/v1/forecast',
    query: {
      latitude: at.latitude,
      longitude: at.longitude,
      current:
        'temperature_2m,relative_humidity_2m,apparent_temperature,is_day,weather_code,wind_speed_10m,wind_direction_10m,pressure_msl,surface_pressure,cloud_cover,visibility',
      daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max,sunrise,sunset',
      timezone: 'auto',
      forecast_days: 3,
    },
    signal: call.signal,
  });
  const current = response?.current;
  const daily = response?.daily;
  if (!current || typeof current !== 'object' || !daily || typeof daily !== 'object') throw upstreamError('open-meteo', 'unexpected response shape');
  const lookup = { latitude: at.latitude, longitude: at.longitude, name: at.name, country: at.country, region: at.admin1, timezone: at.timezone };
  const ours = toForecast({ lookup, response }) as { current?: { description?: string } };
  const code = num(current.weather_code);
  const description = ours.current?.description ?? null;
  const offset = num(response.utc_offset_seconds) ?? 0;
  const windKmh = num(current.wind_speed_10m);
  return {
    ...ours,
    name: at.name ?? null,
    dt: unix(current.time, offset),
    coord: { lat: at.latitude, lon: at.longitude },
    main: {
      temp: num(current.temperature_2m),
      feels_like: num(current.apparent_temperature),
      temp_min: num(daily.temperature_2m_min?.[0]),
      temp_max: num(daily.temperature_2m_max?.[0]),
      humidity: num(current.relative_humidity_2m),
      pressure: num(current.pressure_msl),
      sea_level: num(current.pressure_msl),
      grnd_level: num(current.surface_pressure),
    },
    weather: {
      main: code === null ? null : group(code),
      description: description === null ? null : description.toLowerCase(),
    },
    wind: { speed: windKmh === null ? null : Math.round((windKmh / 3.6) * 100) / 100, deg: num(current.wind_direction_10m) },
    clouds: { all: num(current.cloud_cover) },
    visibility: num(current.visibility),
    sys: {
      country: at.country_code ?? null,
      sunrise: unix(daily.sunrise?.[0], offset),
      sunset: unix(daily.sunset?.[0], offset),
    },
  };
});
