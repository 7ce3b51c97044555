import { requireRoute } from '../../../features/ai/catalog.js';
import { generateVideo } from '../../../features/ai/openai-api.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/** How often a render in progress is asked after; Sora takes a minute or more. */
const POLL_MS = 5000;

/**
 * /api/ai/text2video (veo3, sora): a short video from a prompt, by the video model alias in
 * the manifest's `videoModel` through the OpenAI videos API of its first configured provider
 * (engine/features/ai/openai-api.ts generateVideo). The MP4 is hosted here (the provider's content
 * link needs the provider's key) and its link is the result, or the bytes with stream=true.
 */
export default handler<Params['ai/video']>(async ({ params, options, call, setup }) => {
  const route = requireRoute('videos', String(options.model), setup.upstreams, setup.config.env);
  const mp4 = await generateVideo(
    { upstreams: setup.upstreams },
    {
      route,
      prompt: params.prompt,
      seconds: String(params.seconds),
      size: params.size,
      timeoutMs: setup.endpoint.limits.timeoutMs,
      pollMs: POLL_MS,
      signal: call.signal,
    },
  );
  return new FileOutput(mp4, 'mp4', 'video/mp4');
});
