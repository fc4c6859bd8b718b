// Hover from the captured read: a template evaluated with the runtime's own evaluator against what
// each captured page gave (the value on the last page, and per page where it differs; a condition's
// boolean per page), and a DpathExtractor's field_path with the number of records it selects on
// each page. Errors read as the runtime raises them.
import type { ManifestDocument } from '../documents';
import type { CapturedReads } from '../captured/capturedReads';
import {
  capturedPlacesAt,
  decodedElements,
  pageLabel,
  pageTokens,
  pageVariables,
  parametersAt,
  valueBelow,
  type CapturedPlace,
} from '../captured/capturedContext';
import { interpolate } from '../runtime';
import { createDpathExtractor } from '../runtime';
import type { TemplateContextKind } from '../runtime';
import type { Segment } from '../model/manifestModel';
import type { TemplateAt } from './jinjaCursor';
import { codeSpan, markdownText } from './markdownText';

/** Pages listed one by one in a hover; longer reads show the first ones and a count. */
const MAX_LISTED_PAGES = 12;

/** Fields whose template is a condition (InterpolatedBoolean). */
const CONDITION_FIELDS = new Set(['stop_condition', 'condition', 'predicate']);

/** Kinds whose variables do not come from pages (login and OAuth flows): nothing to evaluate from a read. */
const NOT_FROM_PAGES = new Set<TemplateContextKind>(['jwt', 'session_api_token', 'oauth_consent']);

/** One evaluation: its text as shown, or the error the runtime raised. */
type Outcome = { text: string };

/** A value as a hover shows it: strings bare in a code span, everything else as JSON; null as null. */
function shown(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  let text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  if (text.length > 120) text = `${text.slice(0, 119)}…`;
  // API text: a code span no backtick run inside can close (markdownText.ts).
  return codeSpan(text);
}

/** The runtime's error, which may quote API text, as escaped markdown. */
function errorText(e: unknown): string {
  return `error: ${markdownText(`${e instanceof Error ? e.message : String(e)}`.replace(/\s+/g, ' '))}`;
}

/** "page 1 → `c_2`" lines: one line when every page gives the same, else one per page. */
function perPage(place: CapturedPlace, outcomes: Outcome[], heading: string): string {
  const { read } = place;
  const lines: string[] = [];
  const last = outcomes[outcomes.length - 1];
  const count = `${read.pages.length} page${read.pages.length > 1 ? 's' : ''}${read.droppedPages ? `, ${read.droppedPages} earlier ones not kept` : ''}`;
  lines.push(`**From the last read** of ${codeSpan(place.streamName)} (${count}): ${heading}`);
  if (outcomes.every((o) => o.text === last.text)) {
    lines.push('', `${outcomes.length > 1 ? 'Every page' : 'The page'} → ${last.text}`);
  } else {
    lines.push('', `Last page → ${last.text}`, '');
    outcomes.slice(0, MAX_LISTED_PAGES).forEach((o, i) => lines.push(`- ${pageLabel(read, read.pages[i])} → ${o.text}`));
    if (outcomes.length > MAX_LISTED_PAGES) lines.push(`- … ${outcomes.length - MAX_LISTED_PAGES} more pages`);
  }
  return lines.join('\n');
}

/** One page's evaluation: the value, the error the runtime raised, or a page whose next-page token is unknown. */
export type PageEvaluation = { value: unknown } | { error: string } | { unknownToken: true };

/**
 * The template evaluated on each page of the place's captured read, as the runtime evaluates it there
 * (a condition as a boolean). [] for templates whose variables do not come from pages. Never throws.
 */
export function evaluateOnPages(place: CapturedPlace, template: TemplateAt['template']): PageEvaluation[] {
  const kind = template.kind;
  if (NOT_FROM_PAGES.has(kind)) return [];
  const condition = CONDITION_FIELDS.has(template.field);
  const parameters = parametersAt(place.stream, place.path);
  const needsTokens = (kind === 'request' || kind === 'record_filter') && template.text.includes('next_page_token');
  const tokens = needsTokens ? pageTokens(place) : [];
  return place.read.pages.map((page, i): PageEvaluation => {
    const token = needsTokens ? tokens[i] : null;
    if (token === undefined) return { unknownToken: true };
    try {
      const value = interpolate(template.text, pageVariables(kind, place, page, token, parameters), condition ? 'boolean' : 'string');
      return { value: condition ? value === true : value };
    } catch (e) {
      return { error: errorText(e) };
    }
  });
}

/**
 * Markdown evaluating the template at `at` on each captured page of its stream, or null when the
 * stream has no captured read or the template's variables do not come from pages.
 */
export function capturedTemplateHover(
  doc: ManifestDocument,
  captured: CapturedReads | undefined,
  at: TemplateAt,
  sourcePath: readonly Segment[],
): string | null {
  if (!captured?.has(doc.uri)) return null;
  const kind = at.template.kind;
  if (NOT_FROM_PAGES.has(kind)) return null;
  const place = capturedPlacesAt(doc, captured, sourcePath)[0];
  if (!place) return null;
  const condition = CONDITION_FIELDS.has(at.template.field);
  const outcomes: Outcome[] = evaluateOnPages(place, at.template).map((e) => ({
    text:
      'unknownToken' in e
        ? 'unknown (the next-page token of this page could not be replayed)'
        : 'error' in e
          ? e.error
          : condition
            ? `\`${e.value === true}\``
            : shown(e.value),
  }));
  const text = at.template.text;
  const onRecord = kind === 'record_filter' || kind === 'transformation' ? ' (with the last record of each page)' : '';
  const heading = `${condition ? `\`${at.template.field}\` per page` : `\`${at.template.component}.${at.template.field}\` evaluated`}${onRecord}`;
  const note =
    place.read.config === null && /\bconfig\b/.test(text) ? '\n\n_config not captured: `config` is empty in these evaluations._' : '';
  return perPage(place, outcomes, heading) + note;
}

/**
 * Markdown counting the records a DpathExtractor selects on each captured page, for a hover on its
 * `field_path` (`componentPath` is the extractor's source path), or null.
 */
export function capturedFieldPathHover(
  doc: ManifestDocument,
  captured: CapturedReads | undefined,
  componentPath: readonly Segment[],
): string | null {
  if (!captured?.has(doc.uri)) return null;
  const place = capturedPlacesAt(doc, captured, componentPath)[0];
  if (!place) return null;
  const component = valueBelow(place.stream, place.path);
  if (!component || typeof component !== 'object' || Array.isArray(component)) return null;
  const extractorComponent = component as Record<string, unknown>;
  const outcomes: Outcome[] = place.read.pages.map((page) => {
    try {
      const extractor = createDpathExtractor(extractorComponent, place.read.config ?? {}, parametersAt(place.stream, place.path));
      const n = decodedElements(place.stream, page).reduce<number>((sum, element) => sum + extractor.extract(element).length, 0);
      return { text: `${n} record${n === 1 ? '' : 's'}` };
    } catch (e) {
      return { text: errorText(e) };
    }
  });
  return perPage(place, outcomes, `\`field_path\` ${codeSpan(JSON.stringify(extractorComponent.field_path ?? []))} selects`);
}
