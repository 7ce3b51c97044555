import type { AdapterSetup, Call } from '../../adapters/types.js';

/**
 * One tool operation: a small pure function over validated params. Operations are
 * a closed table (index.ts) that manifests name in `adapter.config.operation`;
 * `options` are fixed per endpoint in the manifest (e.g. which hash algorithm), so
 * one operation can serve several endpoints without code per endpoint.
 */
export interface OperationInput {
  params: Record<string, any>;
  options: Record<string, any>;
  call: Call;
  setup: AdapterSetup;
}

export type Operation = (input: OperationInput) => unknown;

/** Generated files are the code handlers' FileOutput (one class, so `instanceof` holds across both). */
export { FileOutput } from '../../handlers/types.js';
