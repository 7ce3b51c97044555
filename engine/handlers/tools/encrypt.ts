import { obfuscateJs } from '../../tools/obfuscate.js';
import { pureHandler } from '../types.js';
import type { Params } from '../params.generated.js';

export default pureHandler<Params['tools/encrypt']>(({ params }) => obfuscateJs(params.code));
