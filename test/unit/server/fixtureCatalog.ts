// A small catalog for feature tests, in the shape of the real one (runtime/schema/catalog.ts), so
// completion and hover can be tested on exact expectations that do not move with catalog wording.
import { FormatIndex, type ComponentInfo } from '../../../server/src/features/formatIndex';
import { ManifestDocument } from '../../../server/src/documents';

const components: ComponentInfo[] = [
  {
    type: 'DeclarativeSource',
    description: 'The connector.',
    fields: {
      version: { description: 'CDK version.', types: ['string'], required: true },
      streams: { description: 'The streams.', components: ['DeclarativeStream'], list: true, required: true },
      definitions: { description: 'Reusable pieces.', types: ['object'] },
    },
  },
  {
    type: 'DeclarativeStream',
    description: 'A stream.',
    label: 'Stream',
    fields: {
      name: { description: 'Stream name.', types: ['string'], required: true },
      retriever: { description: 'How records are fetched.', components: ['SimpleRetriever'], required: true },
      primary_key: { description: 'Primary key.', types: ['string', 'array'] },
    },
  },
  {
    type: 'SimpleRetriever',
    description: 'Fetches pages.',
    fields: {
      requester: { description: 'Makes the requests.', components: ['HttpRequester'], required: true },
      paginator: { description: 'Pages.', components: ['DefaultPaginator', 'NoPagination'] },
    },
  },
  {
    type: 'HttpRequester',
    description: 'HTTP requests.',
    fields: {
      url_base: { description: 'Base URL.', types: ['string'], required: true, example: 'https://api.example.test' },
      path: { description: 'Path.', types: ['string'] },
      http_method: { description: 'Method.', enum: ['GET', 'POST'], default: 'GET', label: 'HTTP Method' },
      authenticator: { description: 'Credentials.', components: ['BearerAuthenticator', 'ApiKeyAuthenticator'] },
    },
  },
  {
    type: 'BearerAuthenticator',
    description: 'Bearer token.',
    label: 'Bearer Token',
    fields: {
      api_token: { description: 'The token.', types: ['string'], required: true },
    },
  },
  {
    type: 'ApiKeyAuthenticator',
    description: 'API key.',
    fields: {
      api_token: { description: 'The key.', types: ['string'], required: true },
      inject_into: { description: 'Where the key goes.', components: ['RequestOption'], required: true },
    },
  },
  {
    type: 'RequestOption',
    description: 'Injects a value.',
    fields: {
      inject_into: { description: 'Where.', enum: ['request_parameter', 'header'], required: true },
      field_name: { description: 'Name.', types: ['string'] },
    },
  },
  {
    type: 'DefaultPaginator',
    description: 'Paginates.',
    label: 'Paginator',
    fields: {
      pagination_strategy: { description: 'Strategy.', components: ['PageIncrement'], required: true },
    },
  },
  { type: 'NoPagination', description: 'One page.', fields: {} },
  {
    type: 'PageIncrement',
    description: 'Page numbers.',
    fields: {
      page_size: { description: 'Size.', types: ['integer'] },
      start_from_page: { description: 'First page.', types: ['integer'], default: 0, label: 'Start From Page' },
    },
  },
];

const defaults: Record<string, string> = {
  'DeclarativeSource.streams': 'DeclarativeStream',
  'DeclarativeStream.retriever': 'SimpleRetriever',
  'SimpleRetriever.requester': 'HttpRequester',
  'SimpleRetriever.paginator': 'NoPagination',
};

export const fixtureIndex = new FormatIndex(components, (parent, field) => defaults[`${parent}.${field}`]);

/** A document from text with a `|` cursor marker, and the marker's position. */
export function docAt(marked: string): { doc: ManifestDocument; position: { line: number; character: number } } {
  const offset = marked.indexOf('|');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const doc = new ManifestDocument('file:///t/manifest.yaml', 1, text, undefined);
  return { doc, position: doc.textDocument.positionAt(offset) };
}
