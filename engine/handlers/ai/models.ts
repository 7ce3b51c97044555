import { listModels } from '../../ai/catalog.js';
import { handler } from '../types.js';

/** /api/ai/models: the model registry with what is reachable on this server. */
export default handler(({ setup }) => listModels(setup.upstreams, setup.config.env));
