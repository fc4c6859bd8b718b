// A config made up from a connector's spec for the differential harness: defaults, examples, the first
// oneOf branch, or a plausible value per type and format. Dates fall a few days before the frozen clock
// so that date windows give several slices; URL-like keys point at the synthesized API.

/** @returns {Record<string, unknown>} */
export function sampleConfig(schema, port) {
  const value = sample(schema, 0, '', port);
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

const START = '2024-03-10T00:00:00Z';

function sample(s, depth, key, port) {
  if (!s || typeof s !== 'object' || depth > 6) return undefined;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  const dateLike = s.format === 'date-time' || s.format === 'date' || /start|end|date|since|from|until/i.test(key) && type === 'string' && (s.format === 'date-time' || s.format === 'date' || /\d{4}/.test(s.pattern ?? '') || /date/i.test(key));
  if (dateLike && type === 'string') {
    if (s.format === 'date' || /\$"?$/.test(s.pattern ?? '') && !/T/.test(s.pattern ?? '') && /\{2\}\$/.test(s.pattern ?? '')) return /end|until|to/i.test(key) ? '2024-03-14' : '2024-03-10';
    return /end|until/i.test(key) ? '2024-03-14T00:00:00Z' : START;
  }
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.examples) && s.examples.length && typeof s.examples[0] !== 'object') return s.examples[0];
  if (Array.isArray(s.oneOf) && s.oneOf.length) return sample(s.oneOf[0], depth + 1, key, port);
  if (Array.isArray(s.anyOf) && s.anyOf.length) return sample(s.anyOf[0], depth + 1, key, port);
  if (type === 'object' || s.properties) {
    const out = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const v = sample(p, depth + 1, k, port);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (type === 'array') {
    const item = sample(s.items, depth + 1, key, port);
    return item === undefined || (item && typeof item === 'object') ? [] : [item, typeof item === 'string' ? `${item}-2` : item];
  }
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
  if (type === 'boolean') return false;
  if (/url|endpoint|base/i.test(key) || s.format === 'uri') return `http://127.0.0.1:${port}/cfg`;
  return `sample-${key || 'value'}`;
}
