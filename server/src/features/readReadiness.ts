// Whether a stream may be read (Run stream, Replay cassette, Compare): a document whose YAML does not
// parse, or whose stream cannot be built, is refused before anything runs, with the first place to fix
// (line:column and what is wrong) instead of the runtime's failure on a half-parsed value.
import type { ReadReadinessResult } from '../protocol';
import { lineColumnAt, spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import type { Problem } from '../runtime';
import { documentValidation } from '../documentValidation';
import { findStreams } from './streams';

/** Problems that stop the CDK from building the components they sit in (warnings and style rules do not). */
const BLOCKING = new Set(['schema', 'unknown-type', 'resolve-failed', 'resolution-too-large', 'nesting-too-deep']);

/**
 * `{ ready: true }`, or the first YAML syntax error of the document, or else the first blocking problem
 * inside the stream `streamName` (anywhere when no stream is named or it is not found). Never throws.
 */
export function checkReadReadiness(doc: ManifestDocument, streamName?: string): ReadReadinessResult {
  const where = (p: Problem) => ({ range: spanToRange(doc.textDocument, p.span), at: lineColumnAt(doc.textDocument, p.span.start) });
  const text = (p: Problem) => p.message.trim().replace(/\.+$/, '');
  const first = (ps: Problem[]) => [...ps].sort((a, b) => a.span.start - b.span.start)[0];
  const syntax = first(doc.parsed.problems.filter((p) => p.code === 'yaml-syntax' && p.severity === 'error'));
  if (syntax) {
    const { range, at } = where(syntax);
    return { ready: false, range, message: `The YAML does not parse (${at}): ${text(syntax)}. Fix the YAML there, then run again.` };
  }
  const stream = streamName === undefined ? undefined : findStreams(doc).find((s) => s.name === streamName);
  const inScope = (p: Problem) => !stream || (p.span.start >= stream.span.start && p.span.end <= stream.span.end);
  const blocking = first(documentValidation(doc).problems.filter((p) => p.severity === 'error' && BLOCKING.has(p.code) && inScope(p)));
  if (blocking) {
    const { range, at } = where(blocking);
    const subject = stream ? `Stream '${stream.name}'` : 'The manifest';
    return { ready: false, range, message: `${subject} cannot be built (${at}): ${text(blocking)}. Fix it there, then run again.` };
  }
  return { ready: true };
}
