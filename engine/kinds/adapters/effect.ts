import { TEMPLATE_SCHEMA } from '../../features/effects/templates.js';
import type { Template } from '../../features/effects/template.generated.js';
import { runTemplate } from '../../features/effects/run-template.js';
import type { AdapterKind } from '../../contract/call.js';
import { answerFile } from '../../contract/file-output.js';

/**
 * Image effects from template data (templates/*.yaml): one renderer, one endpoint
 * per template. Each template is its endpoint's family item (`template: "{{.}}"`),
 * so it is checked with the manifests and kept in the compiled registry. Renders
 * run in the shared worker pool; identical requests (same template content, params
 * and photo) render once (effects/run-template.ts).
 */
interface EffectConfig {
  template: Template;
}

export const effect: AdapterKind<EffectConfig> = {
  kind: 'effect',
  cost: 'heavy',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['template'],
    properties: { template: TEMPLATE_SCHEMA },
  },
  async create({ template }, setup) {
    return async (call) => answerFile(await runTemplate(setup, call, template), call, setup);
  },
};
