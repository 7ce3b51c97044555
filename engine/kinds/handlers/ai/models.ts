import { listModels } from '../../../features/ai/catalog.js';
import { handler } from '../../../contract/handler.js';

/** /api/ai/models: the model registry with what is reachable on this server. */
export default handler(({ setup }) => listModels(setup.upstreams, setup.config.env));
