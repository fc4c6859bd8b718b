// Serves `airbyte/inferredSchemaEdit`: turns the offset edit of inferredSchemaEdit.ts into an LSP
// range on the open document's text (or the file on disk).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ResponseError, ErrorCodes, type Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { inferredSchemaEdit, SchemaEditError } from './inferredSchemaEdit';
import { InferredSchemaEditRequest, type InferredSchemaEditParams, type InferredSchemaEditResult } from './protocol';

/** Registers the handler; `openText` returns the open document's text, or undefined. */
export function registerInferredSchemaEdit(connection: Connection, openText: (uri: string) => string | undefined): void {
  connection.onRequest(InferredSchemaEditRequest, async (p: InferredSchemaEditParams): Promise<InferredSchemaEditResult> => {
    const text = openText(p.uri) ?? (p.uri.startsWith('file:') ? await readFile(fileURLToPath(p.uri), 'utf8').catch(() => undefined) : undefined);
    if (text === undefined) throw new ResponseError(ErrorCodes.InvalidParams, `Cannot read the manifest ${p.uri}.`);
    try {
      const edit = inferredSchemaEdit(text, p.streamName, p.schema);
      const doc = TextDocument.create(p.uri, 'yaml', 0, text);
      return { edit: { range: { start: doc.positionAt(edit.start), end: doc.positionAt(edit.end) }, newText: edit.newText } };
    } catch (e) {
      if (e instanceof SchemaEditError) throw new ResponseError(ErrorCodes.InvalidRequest, e.message);
      throw e;
    }
  });
}
