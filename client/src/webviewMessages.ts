// The messages between each webview panel (extension side, views/ and incremental/) and its page (the
// browser script in webview/), both ways, declared once: the panel posts `…Message` and receives
// `…Request`; the page the other way round (`webviewApi<…Request>()` and `e.data as …Message`).
// Type-only: nothing here runs, so the pages bundle none of it.
import type {
  AllStreamsEvent,
  AllStreamsResult,
  CompareEnginesResult,
  CompareReadsResult,
  IncrementalStream,
  ResultsViewMessage,
} from '../../server/src/protocol';
import type { CurlSource } from '../../server/src/runtime/shared/curlCommand';
import type { StateFormValues } from './incremental/stateFormModel';
import type { ConnectorConfig } from './testingValuesVault';
import type { FieldProblem } from './testingValuesValidation';

type Obj = Record<string, unknown>;

/** The VS Code API of a page, posting only its own requests. */
export type WebviewApi<Request> = { postMessage(message: Request): void };

// ---- Results view (views/resultsPanel.ts ↔ webview/results.ts) ----
export type { ResultsViewMessage };
/** What the webview may ask of the extension. */
export type ResultsViewRequest =
  | { type: 'ready' }
  | { type: 'rerun' }
  | { type: 'runWithLimits' }
  | { type: 'openLine'; line: number }
  | { type: 'revealRange'; range: { start: { line: number; character: number }; end: { line: number; character: number } } }
  | { type: 'writeSchema'; schema: unknown }
  | { type: 'saveCassette' }
  | { type: 'compare' }
  | { type: 'openFile'; path: string; line: number }
  | { type: 'runFromState' }
  | { type: 'continueFromState' }
  | { type: 'selectPage'; slice: number; page: number }
  /** "Copy as cURL" on a request of the page (masked, or re-rendered with the testing values). */
  | { type: 'copyCurl'; request: CurlSource; withSecrets: boolean };

// ---- Compare views (views/comparePanel.ts ↔ webview/compare.ts) ----
/** Extension → compare webview. */
export type CompareViewMessage =
  | { type: 'comparison'; result: Extract<CompareReadsResult, { diff: unknown }> }
  /** "Compare with the CDK": the same stream read on the built-in runtime and the Airbyte CDK. */
  | { type: 'engines'; result: Extract<CompareEnginesResult, { identical: boolean }> };
/** Compare webview → extension. */
export type CompareViewRequest = { type: 'ready' } | { type: 'refresh' };

// ---- Testing values form (views/testingValuesPanel.ts ↔ webview/form.ts) ----
/** Extension → form: the spec and the stored values, values stored since, validation errors, a saved note. */
export type TestingValuesMessage =
  | { type: 'init'; spec: Obj; values: ConnectorConfig; manifest: string; oauth: boolean }
  | { type: 'stored'; values: ConnectorConfig }
  | { type: 'errors'; errors: FieldProblem[] }
  | { type: 'saved'; message: string };
/** `base` is the stored values the page's form started from (the last `init` or `stored` it got). */
export type TestingValuesRequest =
  | { type: 'ready' }
  | { type: 'save'; values: ConnectorConfig; base: ConnectorConfig }
  | { type: 'authenticate'; values: ConnectorConfig; base: ConnectorConfig }
  | { type: 'import' }
  | { type: 'export' }
  | { type: 'clear' };

// ---- "Run with limits…" (views/limitsPanel.ts ↔ webview/limits.ts) ----
export type LimitsMessage = { type: 'init'; stream: string; limits: Record<string, number>; sources: Record<string, string> };
export type LimitsRequest = { type: 'ready' } | { type: 'run'; limits: Record<string, unknown> } | { type: 'cancel' };

// ---- "Run all streams" readiness (incremental/readinessPanel.ts ↔ webview/readiness.ts) ----
/** What the page is told. */
export type ReadinessMessage =
  | { type: 'start'; manifest: string; concurrency: number }
  | { type: 'progress'; event: AllStreamsEvent }
  | { type: 'done'; result: AllStreamsResult }
  | { type: 'failed'; message: string };
/** What the page may ask. */
export type ReadinessRequest = { type: 'ready' } | { type: 'open'; stream: string } | { type: 'rerun' };

// ---- Input state form (incremental/statePanel.ts ↔ webview/stateForm.ts) ----
/** One read of the chain. */
export type ChainRead = {
  /** 1-based position in the chain. */
  n: number;
  /** How it started: no state, a state from the form, or the previous read's final state. */
  from: 'none' | 'input' | 'previous';
  inputState: Obj | null;
  finalState: Obj | null;
  records: number;
  /** Records no earlier read of the chain had (by primary key, else by content). */
  added: number;
  failed: string | null;
};

/** What the page may ask. */
export type StatePanelRequest =
  | { type: 'ready' }
  | { type: 'save' | 'run'; form?: StateFormValues; raw?: string }
  | { type: 'continue' }
  | { type: 'check' }
  | { type: 'clear' };

/** What the page is told. */
export type StatePanelMessage = {
  type: 'init';
  stream: string;
  cursor: IncrementalStream | null;
  error: string | null;
  form: StateFormValues | null;
  raw: string;
  chain: ChainRead[];
  /** The final state "Continue" would start from, when there is one. */
  continueFrom: Obj | null;
  problems: string[];
  saved: boolean;
};
