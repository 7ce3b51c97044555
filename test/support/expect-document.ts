import type { Test } from 'tap';
import yauzl from 'yauzl';

/**
 * `expect.document` of a manifest example: real checks of a binary document's
 * structure. A PDF must carry the %PDF- header, the %%EOF trailer and at least
 * `minPages` page objects (`/Type /Page`, which every PDF writer emits uncompressed
 * in its page dictionaries); a ZIP is opened with yauzl and must list every name in
 * `entries` (a name ending in / stands for any file under that folder).
 */
export interface DocumentExpectation {
  type: 'pdf' | 'zip';
  minPages?: number;
  entries?: string[];
}

export async function checkDocument(t: Test, bytes: Buffer, expected: DocumentExpectation): Promise<void> {
  if (expected.type === 'pdf') {
    t.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', 'starts with %PDF-');
    t.match(bytes.subarray(-1024).toString('latin1'), /%%EOF\s*$/, 'ends with %%EOF');
    const pages = bytes.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
    t.ok(pages >= (expected.minPages ?? 1), `at least ${expected.minPages ?? 1} page(s) (found ${pages})`);
    return;
  }
  const names = await zipEntries(bytes).catch((err: Error) => [`unreadable zip: ${err.message}`]);
  for (const want of expected.entries ?? []) {
    t.ok(
      names.some((name) => (want.endsWith('/') ? name.startsWith(want) && name.length > want.length : name === want)),
      `zip holds ${want} (${names.join(', ')})`,
    );
  }
}

function zipEntries(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
