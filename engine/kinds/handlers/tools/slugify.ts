import slugifyText from '@sindresorhus/slugify';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/slugify']>(({ params }) => slugifyText(params.text, { separator: params.separator, lowercase: params.lowercase }));
