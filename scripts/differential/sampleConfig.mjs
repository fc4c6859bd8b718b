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
const DATE_CANDIDATES = [
  '2024-03-10T00:00:00Z',
  '2024-03-10T00:00:00.000Z',
  '2024-03-10T00:00:00.000000Z',
  '2024-03-10',
  '2024-03-10T00:00:00+00:00',
  '2024-03-10T00:00:00.000+00:00',
  '2024-03-10 00:00:00',
  '2024-03-10T00:00:00',
  '2024-03-10T00:00',
  '2024-03-10 00:00',
  '1710028800',
  '2024-03',
  '03/10/2024',
  '20240310T000000Z',
  '03/10/2024 00:00',
  '20240310',
  '2024/03/10',
];

function fitsType(v, type) {
  if (!type) return true;
  if (type === 'string') return typeof v === 'string';
  if (type === 'integer') return Number.isInteger(v);
  if (type === 'number') return typeof v === 'number';
  if (type === 'boolean') return typeof v === 'boolean';
  if (type === 'array') return Array.isArray(v);
  if (type === 'object') return v !== null && typeof v === 'object' && !Array.isArray(v);
  return true;
}

/**
 * A string that a simple regular expression accepts: literals, escapes, character classes,
 * groups with alternatives (first one taken) and quantifiers (their minimum, at least one).
 * Returns null for what it does not understand.
 */
function stringFor(pattern, repeat = 1) {
  let i = 0;
  const src = pattern;
  const classSample = (body) => {
    if (body.startsWith('^')) return 'q';
    const m = /^(\\.|[^\\])(?:-(\\.|[^\\]))?/.exec(body);
    if (!m) return null;
    const first = m[1].startsWith('\\') ? escapeSample(m[1][1]) : m[1];
    return first;
  };
  const escapeSample = (c) => ({ d: '7', w: 'a', s: ' ', D: 'x', W: '-', S: 'x' })[c] ?? c;
  const parseSeq = () => {
    let out = '';
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      let atom;
      const c = src[i];
      if (c === '^' || c === '$') {
        i++;
        continue;
      }
      if (c === '(') {
        i++;
        if (src.startsWith('?:', i)) i += 2;
        const alts = [parseSeq()];
        while (src[i] === '|') {
          i++;
          alts.push(parseSeq());
        }
        if (src[i] !== ')') return null;
        i++;
        if (alts.some((a) => a === null)) return null;
        atom = alts.find((a) => a !== '') ?? '';
      } else if (c === '[') {
        const end = src.indexOf(']', i + 2);
        if (end < 0) return null;
        atom = classSample(src.slice(i + 1, end));
        i = end + 1;
      } else if (c === '\\') {
        atom = escapeSample(src[i + 1]);
        i += 2;
      } else if (c === '.') {
        atom = 'x';
        i++;
      } else {
        atom = c;
        i++;
      }
      if (atom === null) return null;
      let times = 1;
      if (src[i] === '{') {
        const end = src.indexOf('}', i);
        const m = /^(\d+)/.exec(src.slice(i + 1, end));
        times = m ? Math.max(1, Number(m[1])) : 1;
        i = end + 1;
      } else if (src[i] === '+' || src[i] === '*' || src[i] === '?') {
        times = src[i] === '?' ? 1 : repeat;
        i++;
      }
      if (src[i] === '?') i++;
      out += atom.repeat(times);
    }
    return out;
  };
  try {
    const first = parseSeq();
    return first;
  } catch {
    return null;
  }
}

/** Another value of an item schema than `first`, or undefined when none is easy to find. */
function secondValue(s, first) {
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== first);
  if (typeof first === 'number') {
    const next = first + 1;
    return typeof s.maximum === 'number' && next > s.maximum ? undefined : next;
  }
  if (typeof first === 'string') {
    const next = `${first}-2`;
    if (typeof s.pattern === 'string' && !matches(s.pattern, next)) return undefined;
    if (s.format || /\d{4}-\d{2}/.test(first)) return undefined;
    return next;
  }
  return undefined;
}

function matches(pattern, value) {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return true;
  }
}

function sample(s, depth, key, port, required = true) {
  if (!s || typeof s !== 'object' || depth > 6) return undefined;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  const dateLike =
    s.format === 'date-time' ||
    s.format === 'date' ||
    (/start|end|date|since|from|until/i.test(key) &&
      type === 'string' &&
      (s.format === 'date-time' || s.format === 'date' || /\d{4}/.test(s.pattern ?? '') || /date/i.test(key)));
  if (type === 'string' && typeof s.pattern === 'string' && /\{4\}|\\d\{4\}|YYYY/.test(s.pattern)) {
    const endish = /end|until|to$/i.test(key);
    const fit = DATE_CANDIDATES.find((c) => matches(s.pattern, c));
    if (fit) return endish ? fit.replace('2024-03-10', '2024-03-14').replace('1710028800', '1710374400') : fit;
  }
  if (
    dateLike &&
    type === 'string' &&
    !(typeof s.pattern === 'string' && !matches(s.pattern, START) && !matches(s.pattern, '2024-03-10'))
  ) {
    if (s.format === 'date' || (/\$"?$/.test(s.pattern ?? '') && !/T/.test(s.pattern ?? '') && /\{2\}\$/.test(s.pattern ?? '')))
      return /end|until|to/i.test(key) ? '2024-03-14' : '2024-03-10';
    return /end|until/i.test(key) ? '2024-03-14T00:00:00Z' : START;
  }
  if (s.const !== undefined) return s.const;
  const fits = (v) =>
    v !== undefined && fitsType(v, type) && (typeof v !== 'string' || typeof s.pattern !== 'string' || matches(s.pattern, v));
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.find(fits) ?? s.enum[0];
  if (fits(s.default)) return s.default;
  if (Array.isArray(s.examples) && s.examples.length && typeof s.examples[0] !== 'object' && fits(s.examples[0])) return s.examples[0];
  if (type === 'string' && typeof s.pattern === 'string') {
    // Several repetitions first: a one-letter value marked secret would be masked by the reference
    // inside every word of its JSON logs (`is_auxiliary` → `is_****uxili****ry`), which a real secret never is.
    for (const repeat of [8, 1]) {
      const made = stringFor(s.pattern, repeat);
      if (made !== null && matches(s.pattern, made) && !(s.maxLength < made.length)) return made;
    }
  }
  if (Array.isArray(s.oneOf) && s.oneOf.length) return sample(s.oneOf[0], depth + 1, key, port);
  if (Array.isArray(s.anyOf) && s.anyOf.length) return sample(s.anyOf[0], depth + 1, key, port);
  if (type === 'object' || s.properties) {
    const out = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const v = sample(p, depth + 1, k, port, !Array.isArray(s.required) || s.required.includes(k));
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (type === 'array') {
    // An optional list stays empty, as an author who leaves it out (record filters often keep
    // everything then), unless the spec says it may not be (`minItems`: the reference refuses the config,
    // source-coinmarketcap); a required list of plain values (also without `items`) gets two, so that a
    // ListPartitionRouter over it gives two partitions.
    if (!required && s.default === undefined && !(s.minItems >= 1)) return [];
    const itemSchema = s.items && typeof s.items === 'object' && !Array.isArray(s.items) ? s.items : { type: 'string' };
    const item = sample(itemSchema, depth + 1, key, port);
    if (item === undefined || (item && typeof item === 'object')) return [];
    const other = secondValue(itemSchema, item);
    return other === undefined || s.maxItems === 1 ? [item] : [item, other];
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
      for (const [field, iso] of [
        ['start_datetime', START],
        ['end_datetime', '2024-03-14T00:00:00Z'],
      ]) {
        const v = node[field];
        const template = typeof v === 'string' ? v : v?.datetime;
        const format = (typeof v === 'object' && v?.datetime_format) || node.datetime_format;
        if (typeof template !== 'string' || typeof format !== 'string') continue;
        // The value reaches the cursor's parser as written when no function reformats it on the way
        // (`{{ config.start }}`, `{{ config.get('start', '2020-01-01') }}`, `{{ config['start'] or … }}`).
        if (
          /format_datetime|str_to_datetime|timestamp\s*\(|strftime|\[\s*:\s*\d/.test(
            template.replace(/\bday_delta\([^)]*\)|now_utc\(\)(?:\.strftime\([^)]*\))?/g, ''),
          )
        )
          continue;
        for (const key of configKeysOf(template)) {
          if (!(key in config)) continue;
          let value = formatDate(iso, format);
          const type = props[key]?.type;
          if (type === 'integer' || type === 'number') {
            if (!/^\d+$/.test(value)) continue;
            value = Number(value);
          }
          const pattern = props[key]?.pattern;
          if (typeof value === 'number' || typeof pattern !== 'string' || matches(pattern, value)) config[key] = value;
        }
      }
    }
    Object.values(node).forEach(visit);
  };
  visit(resolved?.streams ?? []);
  return config;
}

/** The top-level config keys a template reads: `config.k`, `config['k']`, `config.get('k'…)`. */
function configKeysOf(template) {
  const keys = new Set();
  for (const m of template.matchAll(/\bconfig(?:\.get\(\s*['"]([^'"]+)['"]|\.([A-Za-z_]\w*)|\[\s*['"]([^'"]+)['"]\s*\])/g)) {
    const k = m[1] ?? m[2] ?? m[3];
    if (k && k !== 'get') keys.add(k);
  }
  return [...keys];
}

/**
 * An optional config list that a ListPartitionRouter iterates (`values: "{{ config.tickers }}"`) or that a
 * template indexes (`{{ config['applications'][0]['app_id'] }}`) gets values as a required one does: left
 * empty, the stream has no partition, or its template fails, and neither side sends a request, so nothing
 * is compared (source-finnworlds, source-onesignal).
 */
export function alignConfigLists(config, resolved, port) {
  const props = resolved?.spec?.connection_specification?.properties ?? {};
  const fill = (key) => {
    if (!Array.isArray(config[key]) || config[key].length || props[key]?.type !== 'array') return;
    let filled = sample(props[key], 0, key, port, true);
    // A list of objects (`applications: [{app_id, app_api_key}]`) gets one made-up object.
    const items = props[key].items;
    if (!(Array.isArray(filled) && filled.length) && items && typeof items === 'object' && (items.type === 'object' || items.properties))
      filled = [sample(items, 1, key, port, true)];
    if (Array.isArray(filled) && filled.length) config[key] = filled;
  };
  const indexed = /\bconfig(?:\.([A-Za-z_]\w*)|\[\s*['"]([^'"]+)['"]\s*\]|\.get\(\s*['"]([^'"]+)['"][^)]*\))\s*\[\s*0\s*\]/g;
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node === 'string') {
      for (const m of node.matchAll(indexed)) fill(m[1] ?? m[2] ?? m[3]);
      return;
    }
    if (!node || typeof node !== 'object') return;
    if (node.type === 'ListPartitionRouter' && typeof node.values === 'string') for (const key of configKeysOf(node.values)) fill(key);
    Object.values(node).forEach(visit);
  };
  visit(resolved?.streams ?? []);
  visit(resolved?.definitions ?? {});
  return config;
}

/** Config keys that a URL field starts with (`url_base: "{{ config.host }}/api"`) point at the API. */
export function alignConfigUrls(config, resolved, port) {
  const visit = (node, key) => {
    if (Array.isArray(node)) return node.forEach((v) => visit(v, key));
    if (typeof node === 'string') {
      if (!/^(url_base|url|token_refresh_endpoint|path)$/.test(key ?? '')) return;
      const m = /^\s*\{\{\s*config(?:\.([A-Za-z_]\w*)|\[\s*['"]([^'"]+)['"]\s*\])/.exec(node);
      const k = m ? (m[1] ?? m[2]) : null;
      if (k && typeof config[k] === 'string' && !/^https?:\/\//.test(config[k]) && key !== 'path')
        config[k] = `http://127.0.0.1:${port}/cfg`;
      return;
    }
    if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, k);
  };
  visit(resolved?.streams ?? [], null);
  visit(resolved?.definitions ?? {}, null);
  return config;
}

/** An ISO 8601 duration in days (months and years at their longest), or 0 when unreadable. */
function durationDays(text) {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/.exec(String(text ?? '').trim());
  if (!m) return 0;
  const [y, mo, w, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
  return y * 366 + mo * 31 + w * 7 + d + h / 24 + mi / 1440 + s / 86400;
}

/**
 * Moves the config's start date back far enough that the longest date-window step of the manifest
 * still gives at least two windows before the frozen clock: the made-up start (2024-03-10, in every
 * spelling the config uses) is five days before it, too short for a P1W, P1M or P1Y step.
 */
export function alignConfigStart(config, resolved, evalStep) {
  let days = 0;
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (node.type === 'DatetimeBasedCursor' && node.step) days = Math.max(days, durationDays(evalStep(node.step)));
    Object.values(node).forEach(visit);
  };
  visit(resolved?.streams ?? []);
  if (days <= 2) return config;
  const start = new Date(Date.parse('2024-03-15T00:00:00Z') - Math.ceil(2 * days + 2) * 86400_000);
  const pad = (n) => String(n).padStart(2, '0');
  const [Y, M, D] = [start.getUTCFullYear(), pad(start.getUTCMonth() + 1), pad(start.getUTCDate())];
  const epoch = Math.floor(start.getTime() / 1000);
  const spellings = [
    ['2024-03-10', `${Y}-${M}-${D}`],
    ['03/10/2024', `${M}/${D}/${Y}`],
    ['20240310', `${Y}${M}${D}`],
    ['2024/03/10', `${Y}/${M}/${D}`],
    ['1710028800', String(epoch)],
  ];
  const shift = (v) => {
    if (typeof v === 'number') return v === 1710028800 ? epoch : v === 1710028800000 ? epoch * 1000 : v;
    if (typeof v !== 'string') return v;
    if (v === '2024-03') return `${Y}-${M}`;
    for (const [from, to] of spellings) if (v.includes(from)) return v.split(from).join(to);
    return v;
  };
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return shift(node);
  };
  return walk(config);
}
