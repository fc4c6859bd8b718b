// The runtime library's public entry point, bundled alone into out/runtime.js. Its exports are the
// contract of docs/runtime.md ("The programmatic API"); nothing here may import vscode or the language server.
export { parseManifest } from './manifest/parse';
export { RuntimeError } from './errors';
export { interpolate } from './interpolation';
export type {
  HttpRequest,
  HttpResponse,
  RuntimeEnv,
  RequestParts,
  PaginatorOptions,
  TestReadLimits,
  AuxiliaryRequest,
  AuthenticatorHooks,
  AuthenticatorOptions,
} from './types';
export { createHttpFetch, resolveFetch, TransportError, DEFAULT_TRANSPORT_OPTIONS } from './http/transport';
export type { TransportOptions, FetchFunction } from './http/transport';
export { createAuthenticator } from './auth';
export type { Authenticator } from './auth';
export { createRequestOption } from './http/requestOption';
export type { RequestOption, InjectInto } from './http/requestOption';
export { createPaginator } from './pagination/defaultPaginator';
export type { Paginator } from './pagination/defaultPaginator';
export { createPaginationStrategy } from './pagination/paginationStrategy';
export { createDecoder } from './records/decoders';
export type { Decoder, DecoderInput } from './records/decoders';
export type { PaginationStrategy } from './pagination/paginationStrategy';
export { resolveManifest } from './manifest/resolve';
export type { ResolvedManifest, ResolveOptions, ManifestOrigins } from './manifest/resolve';
export { testRead, DEFAULT_TEST_READ_LIMITS } from './testRead/testRead';
export type { StreamRead, StreamReadSlice, StreamReadPage, PaginationTrace, LogMessage, TestReadProgress } from './testRead/streamRead';
export { createHttpRequester } from './http/requester';
export {
  buildOAuthConsentUrl,
  exchangeOAuthCode,
  findConnectorInputSpecification,
  oauthInputsFromConfig,
  renderConsentTemplate,
} from './oauth';
export { validateManifest } from './validation/validateManifest';
export {
  getComponent,
  allComponents,
  fieldInfo,
  componentTypesForSlot,
  defaultTypeFor,
  requiredFields,
  templateContextFor,
} from './schema/catalog';
export type { Problem, Severity, RelatedInfo } from './problems';
export type { OAuthConsent, OAuthExchangeResult, OAuthInputs } from './oauth';
export { listStreams } from './testRead/listStreams';
export type { StreamListing } from './testRead/listStreams';
export { check } from './check/check';
export type { ConnectionStatus } from './check/check';

// The language server (server/src/) reaches the runtime only through this entry (test/unit/layering.test.ts);
// what it needs beyond docs/runtime.md follows. Not part of the conformance contract.
export { runAllStreams } from './allStreams/runAllStreams';
export type { AllStreamsEvent, AllStreamsResult } from './allStreams/runAllStreams';
export { formatCassette, parseCassette } from './cassette/cassette';
export type { Cassette } from './cassette/cassette';
export { CassetteMasker } from './cassette/cassetteMasker';
export { recordRead, replayRead } from './cassette/cassetteRead';
export { CassetteRecorder } from './cassette/recorder';
export { compareWithExpectation, expectationOf, formatDiff, primaryKeyPaths } from './cassette/regression';
export type { Expectation, RecordChange, RegressionDiff } from './cassette/regression';
export { CassetteReplayer } from './cassette/replay';
export type { ReplayMiss } from './cassette/replay';
export { runCliMain } from './cli';
export type { ExternalReadEngine } from './cli/readEngine';
export { readUserFile } from './files/userFiles';
export { headerValue } from './http/headers';
export { formatCheckReport } from './incremental/checkReportText';
export { incrementalCheck } from './incremental/incrementalCheck';
export type { IncrementalCheckReport } from './incremental/incrementalCheck';
export { describeIncrementalStream, findStreamDefinition } from './incremental/incrementalStream';
export type { IncrementalStream } from './incremental/incrementalStream';
export type { ConfigAccess } from './interpolation/analysis';
export type { TemplateContextKind } from './interpolation/contextKinds';
export { compileTemplate } from './interpolation/jinja';
export { JINJA_TEST_NAMES } from './interpolation/jinjaTests';
export { FILTER_DOCS, MACRO_DOCS, VARIABLES_BY_KIND, kindsProviding, variablesOf } from './interpolation/variables';
export type { TemplateFunctionDoc } from './interpolation/variables';
export type { ParsedManifest } from './manifest/parse';
export { parseLinkHeader } from './pagination/linkHeader';
export type { ProblemFix } from './problems';
export { createDpathExtractor } from './records/dpathExtractor';
export { templateSlice } from './records/streamSlice';
export { configKeyPathOf, declaredKeys, resolveConfigProperty, undeclaredConfigKey } from './rules/templateConfigKeys';
export type { ConfigSpec } from './rules/templateConfigKeys';
export { findTemplates } from './rules/templateFields';
export type { FoundTemplate } from './rules/templateFields';
export { CATALOG_TEMPLATES, connectionSpecOf } from './rules/templateRules';
export { COMPONENT_RUNNABILITY, FIELD_RUNNABILITY, notRunnableIn } from './schema/runnability';
export { fractionalPaths, schemaDifferences, streamSchemaDifferences } from './schema/schemaDifferences';
export type { ComponentDef, FieldDef } from './schema/types';
export { compareVersions, parseVersion } from './schema/versions';
export { cassetteFileNames } from './shared/cassetteFiles';
export { credentialConfigPaths } from './shared/credentialFields';
export { setOwn } from './shared/safeObject';
export { secretPaths } from './shared/secretFields';
export { MASK } from './shared/secretPatterns';
export { SecretMasker } from './testRead/masking';
export type { AuxiliaryRequestEntry, ReadRequest, ReadResponse } from './testRead/streamRead';
export type { Span, TestReadEnv } from './types';
export { validateManifestDetailed } from './validation/validateManifest';
export type { ValidationDetails } from './validation/validateManifest';
// The language server keeps one per open document: an edit re-resolves only what it changed.
export { ResolutionMemo } from './manifest/resolutionMemo';
// The text locators of validation, which the language server's model answers per block.
export { hasTemplateMarkup } from './interpolation/templateMarkup';
export type { JsonPath } from './manifest/origins';
export { quickLocateSwitch, quickLocatorFor } from './manifest/locator/quickLocate';
export { ManifestLocator, nodeUnder, documentTree } from './manifest/locator/manifestLocator';
export type { Location, LocatorTree, NodeAtOffset, SourceSpan } from './manifest/locator/manifestLocator';
export type { QuickLocation } from './manifest/locator/quickLocate';
export { quickScalar } from './manifest/locator/quickScalar';
export type { CursorContext } from './manifest/locator/cursorContext';
// The locator's line answers for text with no parsed version behind it (lineText.ts).
export {
  columnIn,
  editedRegion,
  endsWithKey,
  indentOf,
  isBlankOrComment,
  itemContentColumn,
  keyBeforeValue,
  keyLine,
  lineEndIn,
  lineStartIn,
  lineStartsIn,
  lineColIn,
  nextLineStart,
  spaceIndentOf,
} from './manifest/locator/lineText';
export type { EditedRegion } from './manifest/locator/lineText';
export { behaviourChangesBetween } from './schema/behaviourChanges';
export type { TouchedBehaviourChange } from './schema/behaviourChanges';
// Scaffolding (docs/scaffold.md): from an OpenAPI document, and from cURL commands / HAR entries.
export { loadOpenApi } from './scaffold/openapi/loadOpenApi';
export { operationChoices, scaffoldDocument } from './scaffold/openapi/scaffoldOpenApi';
export { parseCurlCommand } from './scaffold/curl/parseCurl';
export { readHarEntries } from './scaffold/curl/harEntries';
export { scaffoldStreams } from './scaffold/curl/scaffoldStreams';
export type { RequestSketch } from './scaffold/curl/scaffoldStreams';
export { applyOffsetEdits } from './scaffold/curl/scaffoldYaml';
export { unmaskRequest } from './scaffold/curl/unmaskRequest';
