import { LoremIpsum } from 'lorem-ipsum';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Text utilities: placeholder text, case conversion, slugs. */

const lorem = new LoremIpsum();

const LOREM = {
  words: (n: number) => lorem.generateWords(n),
  sentences: (n: number) => lorem.generateSentences(n),
  paragraphs: (n: number) => lorem.generateParagraphs(n),
};

export default handler<Params['tools/lorem']>(({ params }) => LOREM[params.units as keyof typeof LOREM](params.count));
