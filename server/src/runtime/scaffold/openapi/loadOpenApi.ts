// Reads an OpenAPI 3.0 / 3.1 or Swagger 2.0 document (YAML or JSON) and dereferences its `$ref`s
// with @apidevtools/swagger-parser. Every failure becomes a located message (file:line:column and
// what to do), never an exception: the CLI prints it and exits 2, the editor shows it.
import SwaggerParser from '@apidevtools/swagger-parser';
import { resolve as resolvePath } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { lineColIn, lineStartsIn } from '../../manifest/locator/lineText';

/** A dereferenced document: plain objects, possibly circular where the schemas are. */
export type OpenApiDocument = { version: 2 | 3; api: Record<string, unknown> };

/** Why a document could not be read: `where` is `file:line:column` (or `file` alone). */
export type OpenApiLoadError = { where: string; message: string };

export type LoadResult = { ok: true; doc: OpenApiDocument } | { ok: false; error: OpenApiLoadError };

/**
 * Parses `text` (the content of `fileName`) and dereferences it. Relative external `$ref`s are read
 * from the file's folder; `$ref`s to http(s) URLs are not fetched (a scaffold reads no network).
 * Never throws.
 */
export async function loadOpenApi(text: string, fileName: string): Promise<LoadResult> {
  const parsed = parseText(text, fileName);
  if (!parsed.ok) return parsed;
  return dereferenceOpenApi(parsed.value, fileName, text);
}

/** Dereferences an already parsed document (`text`, when given, locates `$ref` errors). Never throws. */
export async function dereferenceOpenApi(value: unknown, fileName: string, text?: string): Promise<LoadResult> {
  const fail = (message: string, at = 0): LoadResult => ({ ok: false, error: { where: located(fileName, text, at), message } });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return fail('not an OpenAPI document: expected a mapping with `openapi: 3.x` or `swagger: "2.0"` at the top.');
  }
  const top = value as Record<string, unknown>;
  const declared = top.openapi ?? top.swagger;
  const version = typeof top.swagger !== 'undefined' ? 2 : /^3\.[01]/.test(String(top.openapi ?? '')) ? 3 : null;
  if (version === null) {
    const what = declared === undefined ? 'it has no `openapi` or `swagger` key' : `it declares version ${JSON.stringify(declared)}`;
    return fail(
      `not an OpenAPI 3.0/3.1 or Swagger 2.0 document: ${what}. Give the API's OpenAPI (or Swagger) description.`,
      keyOffset(text, declared === undefined ? undefined : top.openapi !== undefined ? 'openapi' : 'swagger'),
    );
  }
  if (version === 2 && String(top.swagger) !== '2.0')
    return fail(`unsupported Swagger version ${JSON.stringify(top.swagger)}: expected "2.0".`, keyOffset(text, 'swagger'));
  if (typeof top.paths !== 'object' || top.paths === null)
    return fail('the document has no `paths`: there is no operation to scaffold a stream from.');
  // The parser is strict about versions a YAML author often writes unquoted (`version: 1.0`) or
  // short (`openapi: 3.0`); neither changes how references resolve.
  const copy: Record<string, unknown> = { ...top };
  if (version === 3) copy.openapi = String(top.openapi).startsWith('3.1') ? '3.1.0' : '3.0.3';
  else copy.swagger = '2.0';
  if (copy.info && typeof copy.info === 'object')
    copy.info = { ...(copy.info as object), version: String((copy.info as Record<string, unknown>).version ?? '') };
  try {
    const api = await SwaggerParser.dereference(
      resolvePath(fileName),
      copy as never,
      {
        resolve: { http: false },
        dereference: { circular: true },
      } as never,
    );
    return { ok: true, doc: { version, api: api as unknown as Record<string, unknown> } };
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    const pointer = /\$ref pointer "([^"]+)"/.exec(message)?.[1] ?? /Missing \$ref pointer "([^"]+)"/.exec(message)?.[1];
    const at = pointer ? refOffset(text, pointer) : 0;
    return fail(`${message.replace(/\s+/g, ' ').trim()}${pointer ? ' Fix the `$ref` (or add the definition it points to).' : ''}`, at);
  }
}

function parseText(text: string, fileName: string): { ok: true; value: unknown } | { ok: false; error: OpenApiLoadError } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    // JSON is the common case for large documents: JSON.parse is far faster than a YAML document.
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      // Falls through to the YAML parser, which locates the syntax error.
    }
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const pos = lineCounter.linePos(e.pos[0]);
    return {
      ok: false,
      error: { where: `${fileName}:${pos.line}:${pos.col}`, message: `not valid YAML or JSON: ${e.message.split('\n')[0]}` },
    };
  }
  return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }) };
}

/** `file:line:column` of `offset` in `text` (just `file` without text). */
function located(fileName: string, text: string | undefined, offset: number): string {
  if (text === undefined) return fileName;
  const { line, col } = lineColIn(lineStartsIn(text), offset);
  return `${fileName}:${line}:${col}`;
}

/** Where a top-level key is written (0 when unknown). */
function keyOffset(text: string | undefined, key: string | undefined): number {
  if (!text || !key) return 0;
  const m = new RegExp(`^["']?${key}["']?\\s*:`, 'm').exec(text) ?? new RegExp(`"${key}"\\s*:`).exec(text);
  return m ? m.index : 0;
}

/** Where a `$ref` to `pointer` is written (0 when not found). */
function refOffset(text: string | undefined, pointer: string): number {
  if (!text) return 0;
  const hash = pointer.indexOf('#');
  const candidates = [pointer, hash >= 0 ? pointer.slice(hash) : pointer];
  for (const c of candidates) {
    const i = text.indexOf(c);
    if (i >= 0) {
      const ref = text.lastIndexOf('$ref', i);
      return ref >= 0 && i - ref < 20 ? ref : i;
    }
  }
  return 0;
}
