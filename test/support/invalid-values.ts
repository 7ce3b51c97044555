/**
 * A value that breaks a param's schema, for the harness's invalid_parameter check,
 * or undefined when the schema accepts any string (nothing to break).
 */
export function invalidValueFor(schema: Record<string, any>): unknown {
  if (Array.isArray(schema.enum)) return 'not-one-of-the-allowed-values';
  switch (schema.type) {
    case 'integer':
    case 'number':
      if (typeof schema.maximum === 'number') return schema.maximum + 1000;
      if (typeof schema.minimum === 'number') return schema.minimum - 1000;
      return 'not-a-number';
    case 'boolean':
      return 'not-a-boolean';
  }
  if (schema.format === 'uri' || schema.format === 'url') return 'not a url';
  if (schema.format === 'email') return 'not-an-email';
  if (typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
  if (typeof schema.pattern === 'string') {
    for (const candidate of ['\u0000!', '', ' ', '-1', 'zz-invalid-zz']) if (!new RegExp(schema.pattern, 'u').test(candidate)) return candidate || undefined;
  }
  return undefined;
}
