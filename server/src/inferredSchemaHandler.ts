// Serves `airbyte/inferredSchemaEdit`: turns the offset edit of inferredSchemaEdit.ts into an LSP
// range on the open document's text (or the file on disk).
import { fileURLToPath } from 'node:url';
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { spanToRange } from './convert';
import { readUserFile } from './runtime';
import { inferredSchemaEdit, SchemaEditError } from './inferredSchemaEdit';
import type { InferredSchemaEditParams, InferredSchemaEditResult } from './protocol';

const textOf = (r: { text: string } | { error: string }) => ('text' in r ? r.text : undefined);

/** The edit writing an inferred schema; `openText` returns the open document's text, or undefined. */
export async function handleInferredSchemaEdit(
  p: InferredSchemaEditParams,
  openText: (uri: string) => string | undefined,
): Promise<InferredSchemaEditResult> {
  const text =
    openText(p.uri) ??
    (p.uri.startsWith('file:') ? textOf(readUserFile(fileURLToPath(p.uri), { root: null, what: 'the manifest' })) : undefined);
  if (text === undefined) throw new ResponseError(ErrorCodes.InvalidParams, `Cannot read the manifest ${p.uri}.`);
  try {
    const edit = inferredSchemaEdit(text, p.streamName, p.schema);
    return { edit: { range: spanToRange(TextDocument.create(p.uri, 'yaml', 0, text), edit), newText: edit.newText } };
  } catch (e) {
    if (e instanceof SchemaEditError) throw new ResponseError(ErrorCodes.InvalidRequest, e.message);
    throw e;
  }
}
