// The language server's side of "New Connector from OpenAPI…": the operations of a document for the
// picker, and the scaffolded manifest (server/src/runtime/scaffold/, the CLI's `scaffold`). Never throws.
import { loadOpenApi, operationChoices, scaffoldDocument } from './runtime';
import type { OpenApiOperationsParams, OpenApiOperationsResult, ScaffoldOpenApiParams, ScaffoldOpenApiResult } from './protocol';

/** The document's operations, or where and why it cannot be read. */
export async function handleOpenApiOperations(p: OpenApiOperationsParams): Promise<OpenApiOperationsResult> {
  const loaded = await loadOpenApi(p.text, p.fileName);
  if (!loaded.ok) return { ok: false, ...loaded.error };
  const info = (loaded.doc.api.info ?? {}) as Record<string, unknown>;
  return { ok: true, title: typeof info.title === 'string' ? info.title : '', operations: operationChoices(loaded.doc) };
}

/** The manifest for the picked operations, or where and why it cannot be written. */
export async function handleScaffoldOpenApi(p: ScaffoldOpenApiParams): Promise<ScaffoldOpenApiResult> {
  const loaded = await loadOpenApi(p.text, p.fileName);
  if (!loaded.ok) return { ok: false, ...loaded.error };
  const result = scaffoldDocument(loaded.doc, p.fileName, { operations: p.operations });
  return result.ok ? result : { ok: false, ...result.error };
}
