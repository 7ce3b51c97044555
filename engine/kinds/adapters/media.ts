import fs from 'node:fs';
import type { AdapterKind, Call, Output } from '../../contract/call.js';
import { json } from '../../contract/call.js';
import { invalidParameter, notFound, unsupportedUrl } from '../../core/errors.js';
import { parseEmbedPage, trackId, youtubeQuery } from '../../features/media/spotify.js';
import { compilePageLink, type PageLinkConfig } from '../../features/media/page-link.js';
import { mediaService, type OutputSpec } from '../../features/media/service.js';
import { SHAPES, shapeResult, type Shape } from '../../features/media/result-shapes.js';
import { urlMatcher } from '../../features/media/url-match.js';
import { parseQuality, qualityLabel } from '../../features/media/quality.js';

/**
 * Media downloaders over yt-dlp + ffmpeg. Link mode (default) answers with the
 * item's metadata and `download_url`s of produced files on Manifold's file route;
 * stream mode (`stream=true`, manifests with `response: streamable`) answers with
 * the bytes as ffmpeg makes them. The heavy lifting is in engine/features/media/.
 */
interface MediaConfig {
  /** Site name for `unsupported_url` messages ("a YouTube URL"). */
  site: string;
  /** Accepted URLs (regular expressions anchored at `^https?://`); none = any http(s) URL. */
  urls?: string[];
  /** Files to make, primary first; a `format` param, when the manifest has one, replaces the list. Not with `page`. */
  outputs?: ('mp3' | 'mp4')[];
  /** Which field names `result` carries besides the standard ones. */
  shape?: Shape;
  /** Spotify tracks: metadata from this upstream's embed page, audio from the best YouTube match. */
  spotify?: { upstream: string };
  /** File hosts: no conversion; a direct link (and fields) read from the page on this upstream. */
  page?: PageLinkConfig;
}

const DEFAULT_QUALITY = { mp3: '128kbps', mp4: '720p' } as const;

/** Turn `format` + `quality` (any spelling engine/features/media/quality.ts reads) into a job spec; a quality of the other kind is a client error. */
export function outputSpec(format: 'mp3' | 'mp4', quality: string | undefined): OutputSpec {
  const q = quality ?? DEFAULT_QUALITY[format];
  const target = parseQuality(q);
  if (target && (target.kind === 'audio') === (format === 'mp3')) return { format, quality: qualityLabel(target), target };
  throw invalidParameter('quality', `${q} is not a quality for ${format} (use ${format === 'mp3' ? 'e.g. 128, 128k or 128kbps' : 'e.g. 720 or 720p'})`);
}

export const media: AdapterKind<MediaConfig> = {
  kind: 'media',
  cost: 'heavy',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['site'],
    anyOf: [{ required: ['outputs'] }, { required: ['page'] }],
    properties: {
      site: { type: 'string', minLength: 1, description: 'site name used in unsupported_url messages' },
      urls: {
        type: 'array',
        minItems: 1,
        items: { type: 'string', pattern: '^\\^https\\?://', description: 'regular expression anchored at ^https?://' },
        description: 'accepted URL patterns; omit for any http(s) URL',
      },
      outputs: { type: 'array', minItems: 1, maxItems: 2, items: { enum: ['mp3', 'mp4'] }, description: 'files to make, primary first' },
      shape: { enum: [...SHAPES], description: 'result field names besides the standard ones' },
      spotify: {
        type: 'object',
        additionalProperties: false,
        required: ['upstream'],
        properties: { upstream: { type: 'string', description: 'upstream serving /embed/track/<id> pages' } },
        description: 'Spotify track: metadata from the embed page, audio from the best YouTube match',
      },
      page: {
        type: 'object',
        additionalProperties: false,
        required: ['upstream', 'link'],
        properties: {
          upstream: { type: 'string' },
          link: { type: 'string', description: 'regular expression; group 1 is the direct link' },
          linkBase64: { type: 'string', description: 'alternative regular expression; group 1 is the link in base64' },
          fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'result field -> regular expression (group 1)' },
        },
        description: 'file host: read a direct link from the page instead of converting media',
      },
    },
  },
  unavailable(config, setup) {
    const upstream = config.spotify?.upstream ?? config.page?.upstream;
    if (upstream) {
      const missing = setup.upstreams.unavailable(upstream);
      if (missing) return missing;
    }
    const cookies = setup.config.env.YTDLP_COOKIES_FILE;
    if (cookies) {
      try {
        fs.accessSync(cookies, fs.constants.R_OK);
      } catch {
        return `YTDLP_COOKIES_FILE (${cookies}) is not a readable file`;
      }
    }
    const custom = setup.config.env.YTDLP_PATH;
    if (custom) {
      try {
        fs.accessSync(custom, fs.constants.X_OK);
      } catch {
        return `YTDLP_PATH (${custom}) is not an executable`;
      }
    }
    return undefined;
  },
  create(config, setup) {
    const matcher = urlMatcher(config.urls, config.site);
    const service = mediaService(setup);
    const page = config.page && compilePageLink(config.page);
    return async (call) => {
      const url = String(call.params.url);
      matcher.check(url);
      if (page) {
        const { link, ...fields } = page.read(await page.fetchPage(setup, url, call.signal));
        return json({ ...fields, dl_link: link, download_url: link, source_url: url });
      }
      if (config.spotify) return spotifyTrack(config.spotify.upstream, url, call);
      await setup.http.guard.checkUrl(url, 'url');
      const formats = typeof call.params.format === 'string' ? [call.params.format as 'mp3' | 'mp4'] : (config.outputs ?? []);
      const quality = call.params.quality as string | undefined;
      const specs = formats.map((format, i) => outputSpec(format, i === 0 ? quality : undefined));
      if (call.params.stream) return service.stream(url, specs[0], call);
      const files = [];
      // a job's progress (GET /api/jobs/:id): each file produced (ytdl makes an MP3 and an MP4) its share, from ffmpeg's own report
      const share = 100 / specs.length;
      const report = call.progress;
      for (const [i, spec] of specs.entries()) {
        files.push(await service.link(url, spec, report && ((fraction, stage) => report(share * (i + fraction), `${stage} (${spec.format})`)), call));
      }
      return json(shapeResult(config.shape ?? 'standard', files));
    };

    async function spotifyTrack(upstreamName: string, url: string, call: Call): Promise<Output> {
      const id = trackId(url);
      if (!id) throw unsupportedUrl('url', 'not a Spotify track URL');
      const html = await setup.upstreams.text(upstreamName, { path: `/embed/track/${id}`, signal: call.signal });
      const track = parseEmbedPage(html, id);
      const match = await service.searchYoutube(youtubeQuery(track), call.signal);
      if (!match) throw notFound('No YouTube upload matches this track');
      const spec = outputSpec('mp3', call.params.quality as string | undefined);
      if (call.params.stream) return service.stream(match, spec, call);
      const file = await service.link(match, spec, undefined, call);
      // Spotify's metadata describes the track better than the uploader's video does
      const meta = {
        ...file.meta,
        title: track.title,
        uploader: track.artists.join(', '),
        duration: track.duration ?? file.meta.duration,
        thumbnail: track.thumbnail ?? file.meta.thumbnail,
      };
      return json({ ...shapeResult('spotify', [{ ...file, meta }]), spotify_id: id, youtube_url: match });
    }
  },
};
