import * as changeCase from 'change-case';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

const CASES: Record<string, (s: string) => string> = {
  camel: changeCase.camelCase,
  pascal: changeCase.pascalCase,
  snake: changeCase.snakeCase,
  kebab: changeCase.kebabCase,
  constant: changeCase.constantCase,
  dot: changeCase.dotCase,
  path: changeCase.pathCase,
  sentence: changeCase.sentenceCase,
  capital: changeCase.capitalCase,
  train: changeCase.trainCase,
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
};

export default handler<Params['tools/changecase']>(({ params }) => CASES[params.to](params.text));
