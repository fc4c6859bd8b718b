// DeclarativeStream.file_uploader in a Connector Builder test read (CDK ConnectorBuilderFileUploader over
// DefaultFileUploader with a NoopFileWriter): for each selected record, the download target is extracted
// from the record, the file is requested through the uploader's requester (the target as the slice's extra
// field `download_target`), nothing is written, and the record gets `source_file_relative_path`:
// `<stream>/<filename_extractor, or a random UUID>`. Each download is shown as an auxiliary request.
import { randomUUID } from 'node:crypto';
import { configError, RuntimeError } from '../errors';
import { createAuthenticator } from '../auth';
import { createHttpRequester, RequestFailedError } from '../http/requester';
import { evalString, pythonStr } from '../http/interpolatedValues';
import { createDpathExtractor } from '../records/dpathExtractor';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

export type FileUploader = { upload(record: Obj): Promise<void> };

export function createFileUploader(component: Obj, stream: string, rc: ReadContext): FileUploader {
  const requesterComponent = component.requester as Obj | undefined;
  if (!requesterComponent || requesterComponent.type !== 'HttpRequester')
    throw configError(`file_uploader of stream '${stream}' needs an HttpRequester as its requester.`);
  const parameters = (component.$parameters as Obj) ?? {};
  const requesterParameters = (requesterComponent.$parameters as Obj) ?? parameters;
  const authenticator = createAuthenticator(
    requesterComponent.authenticator as object | undefined,
    rc.config,
    {
      urlBase: (requesterComponent.url ?? requesterComponent.url_base) as string | undefined,
      parameters: ((requesterComponent.authenticator as Obj | undefined)?.$parameters as object) ?? requesterParameters,
      onAuxiliaryRequest: (entry) => rc.aux(entry, null),
      onSecret: (v) => rc.masker.add(v),
      disableRetries: rc.retries !== true,
      requestOptionCompat: rc.requestOptionCompat,
    },
    rc.env,
  );
  const requester = createHttpRequester(
    requesterComponent,
    rc.config,
    { parameters: requesterParameters, authenticator, disableRetries: rc.retries !== true, signal: rc.env.signal, apiBudget: rc.apiBudget },
    rc.env,
  );
  const targets = createDpathExtractor(component.download_target_extractor as Obj | undefined, rc.config, parameters, rc.env);
  const filename = component.filename_extractor;
  return {
    async upload(record) {
      // The reference extracts from the record's JSON text, as if it were a response body.
      const found = targets.extract(JSON.parse(JSON.stringify(record)));
      if (!found.length)
        throw new RuntimeError(
          `An unexpected error occurred in stream ${stream}: ValueError: No download targets found (file_uploader.download_target_extractor found nothing in the record).`,
          'system_error',
        );
      const target = found[0];
      if (typeof target !== 'string')
        throw new RuntimeError(
          `An unexpected error occurred in stream ${stream}: ValueError: download_target is expected to be a str but was ${pythonType(target)}: ${pythonStr(target)}`,
          'system_error',
        );
      const input = {
        slice: { partition: {}, cursor_slice: {}, extra_fields: { download_target: target } },
        nextPageToken: null,
        retrieverParts: [],
      };
      try {
        const { request, response } = await requester.send(input);
        rc.aux(downloadEntry(stream, request, response), null);
      } catch (e) {
        if (e instanceof RequestFailedError) rc.aux(downloadEntry(stream, e.exchange.request, e.exchange.response), null);
        throw e;
      }
      const name =
        typeof filename === 'string' && filename !== ''
          ? pythonStr(evalString(filename, { config: rc.config, parameters, record }, rc.env))
          : randomUUID();
      record.source_file_relative_path = relativePath(stream, name.replace(/^\/+/, ''));
    },
  };
}

/** `str(Path(stream) / Path(name))`: empty and `.` parts dropped, repeated and trailing slashes collapsed. */
function relativePath(stream: string, name: string): string {
  const parts = `${stream}/${name}`.split('/').filter((p) => p !== '' && p !== '.');
  return parts.length ? parts.join('/') : '.';
}

function downloadEntry(
  stream: string,
  request: { url: string; headers: Record<string, string>; method: string; body: string | null },
  response: { status: number; body: string; headers: Record<string, string> } | null,
) {
  return {
    title: 'File download',
    type: 'HTTP',
    description: `Request performed by the file_uploader of stream '${stream}' (the file is not stored in a test read)`,
    request: { url: request.url, headers: request.headers, http_method: request.method, body: request.body },
    response: response ? { status: response.status, body: response.body, headers: response.headers } : null,
  };
}

function pythonType(v: unknown): string {
  if (v === null || v === undefined) return "<class 'NoneType'>";
  if (typeof v === 'boolean') return "<class 'bool'>";
  if (typeof v === 'number') return Number.isInteger(v) ? "<class 'int'>" : "<class 'float'>";
  if (Array.isArray(v)) return "<class 'list'>";
  return "<class 'dict'>";
}
