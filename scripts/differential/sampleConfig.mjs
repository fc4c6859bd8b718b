// A config made up from a connector's spec for the differential harness: defaults, examples, the first
// oneOf branch, or a plausible value per type and format. Dates fall a few days before the frozen clock
// so that date windows give several slices; URL-like keys point at the synthesized API.

/** @returns {Record<string, unknown>} */
export function sampleConfig(schema, port) {
  const value = sample(schema, 0, '', port);
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

const START = '2024-03-10T00:00:00Z';
// Date spellings tried against a spec's pattern, most common first.
const DATE_CANDIDATES = ['2024-03-10T00:00:00Z', '2024-03-10T00:00:00.000Z', '2024-03-10T00:00:00.000000Z', '2024-03-10', '2024-03-10T00:00:00+00:00', '2024-03-10T00:00:00.000+00:00', '2024-03-10 00:00:00', '2024-03-10T00:00:00', '2024-03-10T00:00', '2024-03-10 00:00', '1710028800', '2024-03', '03/10/2024'];

function matches(pattern, value) {
  try { return new RegExp(pattern).test(value); } catch { return true; }
}

function sample(s, depth, key, port) {
  if (!s || typeof s !== 'object' || depth > 6) return undefined;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  const dateLike = s.format === 'date-time' || s.format === 'date' || /start|end|date|since|from|until/i.test(key) && type === 'string' && (s.format === 'date-time' || s.format === 'date' || /\d{4}/.test(s.pattern ?? '') || /date/i.test(key));
  if (type === 'string' && typeof s.pattern === 'string' && /\{4\}|\\d\{4\}|YYYY/.test(s.pattern)) {
    const endish = /end|until|to$/i.test(key);
    const fit = DATE_CANDIDATES.find((c) => matches(s.pattern, c));
    if (fit) return endish ? fit.replace('2024-03-10', '2024-03-14').replace('1710028800', '1710374400') : fit;
  }
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

/**
 * Date config values in the format the manifest parses them with: for each DatetimeBasedCursor whose
 * start or end reads a config key directly, that key gets a date formatted with the cursor's format.
 */
export function alignConfigDates(config, resolved, formatDate) {
  const props = resolved?.spec?.connection_specification?.properties ?? {};
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (node.type === 'DatetimeBasedCursor') {
      for (const [field, iso] of [['start_datetime', START], ['end_datetime', '2024-03-14T00:00:00Z']]) {
        const v = node[field];
        const template = typeof v === 'string' ? v : v?.datetime;
        const format = (typeof v === 'object' && v?.datetime_format) || node.datetime_format;
        const m = typeof template === 'string' ? /^\s*\{\{\s*config(?:\.([A-Za-z_]\w*)|\[\s*['"]([^'"]+)['"]\s*\])\s*\}\}\s*$/.exec(template) : null;
        const key = m ? m[1] ?? m[2] : null;
        if (!key || typeof format !== 'string' || !(key in config)) continue;
        const value = formatDate(iso, format);
        const pattern = props[key]?.pattern;
        if (typeof pattern !== 'string' || matches(pattern, value)) config[key] = value;
      }
    }
    Object.values(node).forEach(visit);
  };
  visit(resolved?.streams ?? []);
  return config;
}

/** Config keys that a URL field starts with (`url_base: "{{ config.host }}/api"`) point at the API. */
export function alignConfigUrls(config, resolved, port) {
  const visit = (node, key) => {
    if (Array.isArray(node)) return node.forEach((v) => visit(v, key));
    if (typeof node === 'string') {
      if (!/^(url_base|url|token_refresh_endpoint|path)$/.test(key ?? '')) return;
      const m = /^\s*\{\{\s*config(?:\.([A-Za-z_]\w*)|\[\s*['"]([^'"]+)['"]\s*\])/.exec(node);
      const k = m ? m[1] ?? m[2] : null;
      if (k && typeof config[k] === 'string' && !/^https?:\/\//.test(config[k]) && key !== 'path') config[k] = `http://127.0.0.1:${port}/cfg`;
      return;
    }
    if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, k);
  };
  visit(resolved?.streams ?? [], null);
  visit(resolved?.definitions ?? {}, null);
  return config;
}
