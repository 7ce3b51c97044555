import { obfuscateJs } from '../../../features/tools/obfuscate.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default pureHandler<Params['tools/encrypt']>(({ params }) => obfuscateJs(params.code));
