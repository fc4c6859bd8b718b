// "Save Read as Cassette…", "Replay Cassette…" and "Compare with Previous Read" (docs/cassettes.md,
// "In the editor"). Every read from the API is recorded by the language server as it runs, so saving
// re-requests nothing; a replay goes through the same airbyte/testRead (and results view) as a read;
// the comparison is the diff of `connector-manifest test`, computed by the server.
import * as vscode from 'vscode';
import { dirname, relative } from 'node:path';
import {
  CassetteSummaryRequest,
  CompareReadsRequest,
  ReadCassetteRequest,
  type CassetteSummaryParams,
  type CompareReadsParams,
  type CompareReadsResult,
  type ReadCassetteParams,
} from '../../../server/src/protocol';
import { CASSETTE_DIR, cassetteFileNames } from '../../../server/src/runtime/shared/cassetteFiles';
import type { Services, StreamTarget } from '../services';
import { readSettings } from '../settings';
import { ComparePanel } from '../views/comparePanel';
import { manifestUriFrom, resolveStreamTarget } from './pickTarget';
import { ensureReadable } from './readGuard';
import { execute, viewMasker } from './runStream';
import { confirmLinkOutside, writeTextFile } from '../userFileAccess';

/** Arguments the commands accept besides `{ uri, streamName }` (lenses, the results view, tests). */
type CassetteArgs = Partial<StreamTarget> & {
  cassette?: string;
  file?: string;
  against?: 'previous' | 'expectation';
  allowLinkOutside?: boolean;
};

const exists = (uri: vscode.Uri) =>
  Promise.resolve(vscode.workspace.fs.stat(uri)).then(
    () => true,
    () => false,
  );

/** A file given as a URI string or a path. */
function fileUri(value: string): vscode.Uri {
  return /^[a-z][\w+.-]+:/i.test(value) && !/^[a-z]:[\\/]/i.test(value) ? vscode.Uri.parse(value) : vscode.Uri.file(value);
}

/** Where the stream's cassette and expectation are by convention: `<manifest dir>/cassettes/<stream>.cassette.yaml`. */
export function conventionalFiles(manifest: vscode.Uri, stream: string): { cassette: vscode.Uri; expectation: vscode.Uri } {
  const names = cassetteFileNames(stream);
  const dir = vscode.Uri.joinPath(manifest, '..', CASSETTE_DIR);
  return { cassette: vscode.Uri.joinPath(dir, names.cassette), expectation: vscode.Uri.joinPath(dir, names.expectation) };
}

/** How a file is named in messages and in the results view: relative to the manifest's folder when below it. */
function nameOf(file: vscode.Uri, manifest: vscode.Uri): string {
  if (file.scheme === 'file' && manifest.scheme === 'file') {
    const rel = relative(dirname(manifest.fsPath), file.fsPath);
    if (rel && !rel.startsWith('..')) return rel.split('\\').join('/');
  }
  return vscode.workspace.asRelativePath(file);
}

/**
 * Writes the cassette of the stream's last read from the API to a file chosen in a save dialog
 * (default `cassettes/<stream>.cassette.yaml` beside the manifest). Saved there, the read's expectation
 * `<stream>.expected.json` is written beside it too unless one exists, so `connector-manifest test`
 * passes at once; an existing expectation is the regression baseline and is never replaced.
 */
export async function saveReadAsCassette(services: Services, arg: unknown): Promise<vscode.Uri | undefined> {
  const target = await resolveStreamTarget(services, arg);
  if (!target) return undefined;
  const params: ReadCassetteParams = { uri: target.uri, streamName: target.streamName };
  const saved = await services.client.sendRequest(ReadCassetteRequest, params);
  if (!saved) {
    const run = 'Run Stream';
    const choice = await vscode.window.showWarningMessage(
      `Stream '${target.streamName}' has not been read from the API in this session. Run it first: its HTTP exchanges are recorded while it runs.`,
      run,
    );
    if (choice === run) await vscode.commands.executeCommand('airbyte.runStream', target);
    return undefined;
  }
  const manifest = vscode.Uri.parse(target.uri);
  const conventional = conventionalFiles(manifest, target.streamName);
  const given = (arg as CassetteArgs | undefined)?.file;
  const file = given
    ? fileUri(given)
    : await vscode.window.showSaveDialog({
        defaultUri: conventional.cassette,
        filters: { Cassettes: ['yaml', 'yml'] },
        title: `Save the read of '${target.streamName}' as a cassette`,
        saveLabel: 'Save Cassette',
      });
  if (!file) return undefined;
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
  // Never through a link: a repository may commit cassettes/x.cassette.yaml -> a file elsewhere.
  const written = await writeTextFile(file, saved.text, manifest, 'the cassette');
  if (!written.ok) {
    services.log.warn(`cassette not saved: ${written.error}`);
    void vscode.window.showErrorMessage(`The cassette was not saved: ${written.error}`);
    return undefined;
  }
  let expectationNote = '';
  const expectation = vscode.Uri.joinPath(file, '..', cassetteFileNames(target.streamName).expectation);
  if (file.path.endsWith(`/${saved.fileName}`) && !(await exists(expectation))) {
    const expectationWritten = await writeTextFile(expectation, saved.expectation, manifest, 'the expectation');
    if (!expectationWritten.ok) {
      services.log.warn(`expectation not saved: ${expectationWritten.error}`);
      void vscode.window.showErrorMessage(`The expectation was not saved: ${expectationWritten.error}`);
      return undefined;
    }
    expectationNote = ` and its expectation ${nameOf(expectation, manifest)} (for connector-manifest test)`;
  }
  const exchanges = `${saved.exchanges} HTTP exchange${saved.exchanges === 1 ? '' : 's'}`;
  services.log.info(
    `cassette of '${target.streamName}' (${exchanges}, recorded ${saved.recordedAt}) saved to ${nameOf(file, manifest)}${expectationNote}`,
  );
  const open = 'Open Cassette';
  const replay = 'Replay';
  void vscode.window
    .showInformationMessage(
      `Saved the read of '${target.streamName}' (${exchanges}, secrets masked) to ${nameOf(file, manifest)}${expectationNote}.`,
      open,
      replay,
    )
    .then((c) => {
      if (c === open) void vscode.window.showTextDocument(file, { viewColumn: vscode.ViewColumn.Beside });
      if (c === replay) void vscode.commands.executeCommand('airbyte.replayCassette', { ...target, cassette: file.toString() });
    });
  return file;
}

/** The cassette to replay: the one given, the stream's conventional one, or one picked in an open dialog. */
async function cassetteToReplay(manifest: vscode.Uri, args: CassetteArgs): Promise<vscode.Uri | undefined> {
  if (args.cassette) return fileUri(args.cassette);
  if (args.streamName) {
    const conventional = conventionalFiles(manifest, args.streamName).cassette;
    if (await exists(conventional)) return conventional;
  }
  const picked = await vscode.window.showOpenDialog({
    defaultUri: vscode.Uri.joinPath(manifest, '..', CASSETTE_DIR),
    filters: { Cassettes: ['yaml', 'yml'] },
    canSelectMany: false,
    title: args.streamName ? `Cassette to replay for '${args.streamName}'` : 'Cassette to replay',
    openLabel: 'Replay',
  });
  return picked?.[0];
}

/**
 * Replays a cassette offline through airbyte/testRead: the results view shows it as a read, marked
 * "replayed from FILE"; a request the cassette does not hold fails the read, naming the request.
 */
export async function replayCassette(services: Services, arg: unknown): Promise<ReturnType<typeof execute>> {
  const args = (arg ?? {}) as CassetteArgs;
  const manifest = manifestUriFrom(arg);
  if (!manifest) {
    void vscode.window.showWarningMessage('Open a connector manifest (manifest.yaml) first.');
    return undefined;
  }
  if (!(await ensureReadable(services, manifest.toString(), args.streamName || undefined, 'Replay cassette'))) return undefined;
  const cassette = await cassetteToReplay(manifest, args);
  if (!cassette) return undefined;
  const allowLinkOutside = await confirmLinkOutside(cassette, manifest, 'The cassette', args.allowLinkOutside);
  if (!allowLinkOutside) return undefined;
  const params: CassetteSummaryParams = { cassetteUri: cassette.toString() };
  const summary = await services.client.sendRequest(CassetteSummaryRequest, params);
  if ('error' in summary) {
    services.log.warn(`cannot replay: ${summary.error}`);
    void vscode.window.showErrorMessage(`Cannot replay the cassette: ${summary.error}`);
    return undefined;
  }
  const streamName = args.streamName || summary.stream;
  if (!streamName) {
    void vscode.window.showErrorMessage(`The cassette ${nameOf(cassette, manifest)} does not say which stream it recorded.`);
    return undefined;
  }
  if (args.streamName && summary.stream && summary.stream !== args.streamName) {
    services.log.warn(
      `the cassette ${nameOf(cassette, manifest)} was recorded for stream '${summary.stream}'; replaying it for '${args.streamName}'`,
    );
  }
  // The testing values are not sent (the cassette holds a masked copy); here they only mask what the view shows.
  const values = (await services.store.get(manifest)) ?? {};
  return execute(services, { uri: manifest.toString(), streamName }, values, summary.limits, readSettings(), {
    cassetteUri: cassette.toString(),
    name: nameOf(cassette, manifest),
    allowLinkOutside,
  });
}

/**
 * Shows the diff of `connector-manifest test` between the stream's last read and the read before it
 * (this session), or the saved expectation `cassettes/<stream>.expected.json` when there is no
 * previous read or `against: 'expectation'` asks for it.
 */
export async function compareWithPreviousRead(services: Services, arg: unknown): Promise<CompareReadsResult | undefined> {
  const target = await resolveStreamTarget(services, arg);
  if (!target) return undefined;
  if (!(await ensureReadable(services, target.uri, target.streamName, `Compare '${target.streamName}'`))) return undefined;
  const manifest = vscode.Uri.parse(target.uri);
  const expectation = conventionalFiles(manifest, target.streamName).expectation;
  const hasExpectation = await exists(expectation);
  const wanted = (arg as CassetteArgs | undefined)?.against ?? 'previous';
  const request = (against: CompareReadsParams['against']) =>
    services.client.sendRequest(CompareReadsRequest, {
      uri: target.uri,
      streamName: target.streamName,
      against,
    } satisfies CompareReadsParams);
  let result = await request(wanted === 'expectation' && hasExpectation ? { expectationUri: expectation.toString() } : 'previous');
  if ('unavailable' in result && wanted === 'previous' && hasExpectation)
    result = await request({ expectationUri: expectation.toString() });
  if ('unavailable' in result) {
    void vscode.window.showWarningMessage(result.unavailable);
    return result;
  }
  const masker = await viewMasker(services, manifest, (await services.store.get(manifest)) ?? {});
  const shown = masker.mask(result);
  ComparePanel.show(
    services.context.extensionUri,
    target,
    shown,
    () => void compareWithPreviousRead(services, { ...target, against: wanted }),
  );
  services.log.info(`compared '${target.streamName}': ${shown.text.split('\n')[0]}`);
  return shown;
}
