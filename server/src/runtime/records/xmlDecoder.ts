// XmlDecoder: XML bodies become one mapping shaped the way the CDK's xmltodict shapes them, so a
// DpathExtractor walks into it and CursorPagination reads it as `response` (§7.5, §7.9).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { setOwn } from '../shared/safeObject';

// xmltodict conventions: attributes as "@name", element text next to attributes or children as
// "#text", every leaf a string, whitespace around element text stripped (attribute values kept as
// written), comments, processing instructions
// and the declaration dropped, namespace prefixes kept as written. Numeric character references are
// decoded like expat does (htmlEntities also turns on named HTML entities, which expat would reject).
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  // Text is stripped in normalize(), not by the parser, which would also trim attribute values.
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: true,
});

/** Result of decoding an XML body: the elements, and why nothing could be decoded (null when fine). */
export type XmlDecoded = { elements: unknown[]; problem: string | null };

/** Decodes an XML document into `[mapping]`; an empty body gives `[]`, invalid XML gives `[]` and a problem. */
export function decodeXml(text: string): XmlDecoded {
  if (text.trim() === '') return { elements: [], problem: null };
  // The parser itself is lenient (it accepts unclosed tags and several roots); expat, which the CDK
  // uses, is not, so the document is validated first and rejected the way the CDK rejects it.
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    const { line, col, msg } = verdict.err;
    return { elements: [], problem: `is not valid XML (line ${line}${col ? `, column ${col}` : ''}: ${msg})` };
  }
  let parsed: unknown;
  try {
    parsed = parser.parse(text);
  } catch (e) {
    // The parser refuses what would be unsafe as object keys (`__proto__`, `constructor`) and very
    // deep nesting; such a document yields nothing, reported like invalid XML.
    return { elements: [], problem: `cannot be read as XML here (${(e as Error).message.replace(/^\[SECURITY\]\s*/, '')})` };
  }
  return { elements: [normalize(parsed)], problem: null };
}

/** xmltodict's shape: text stripped, empty elements null; attributes first, then child elements, then "#text". */
function normalize(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.trim();
    return text === '' ? null : text;
  }
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) if (k.startsWith('@')) setOwn(out, k, v);
  for (const [k, v] of entries) if (!k.startsWith('@') && k !== '#text') out[k] = normalize(v);
  const text = (value as Record<string, unknown>)['#text'];
  if (typeof text === 'string' && text.trim() !== '') out['#text'] = text.trim();
  return out;
}
