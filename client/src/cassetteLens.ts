// The "Replay cassette" lens beside "Run stream": shown above a stream when its cassette exists where the
// extension saves it and `connector-manifest test` finds it (`<manifest dir>/cassettes/<stream>.cassette.yaml`).
// A client-side provider because it depends on files next to the manifest, which the server does not
// watch; it refreshes when a cassette file appears or disappears.
import * as vscode from 'vscode';
import { ListStreamsRequest, type ListStreamsParams } from '../../server/src/protocol';
import { CASSETTE_DIR } from '../../server/src/runtime/shared/cassetteFiles';
import { conventionalFiles } from './commands/cassettes';
import { isManifestDocument } from './manifestDetection';
import { lensCommands } from './lensCommands';
import type { Services } from './services';

export class CassetteLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly services: Services,
    private readonly globs: () => string[],
  ) {}

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (doc.uri.scheme !== 'file' || !isManifestDocument(doc, this.globs())) return [];
    // Most manifests have no cassettes folder: one stat, and no request to the server.
    const dir = vscode.Uri.joinPath(doc.uri, '..', CASSETTE_DIR);
    if (
      !(await Promise.resolve(vscode.workspace.fs.stat(dir)).then(
        () => true,
        () => false,
      ))
    )
      return [];
    const params: ListStreamsParams = { uri: doc.uri.toString() };
    const { streams } = await this.services.client.sendRequest(ListStreamsRequest, params, token);
    const lenses: vscode.CodeLens[] = [];
    for (const s of streams) {
      const cassette = conventionalFiles(doc.uri, s.name).cassette;
      const found = await Promise.resolve(vscode.workspace.fs.stat(cassette)).then(
        () => true,
        () => false,
      );
      if (!found) continue;
      const line = s.range.start.line;
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, s.range.start.character, line, s.range.start.character), {
          title: `Replay cassette`,
          tooltip: `Read '${s.name}' offline from ${CASSETTE_DIR}/${cassette.path.split('/').pop()}`,
          command: 'airbyte.replayCassette',
          arguments: [{ uri: doc.uri.toString(), streamName: s.name, cassette: cassette.toString() }],
        }),
      );
    }
    return lensCommands.bindAll(lenses) ?? [];
  }

  /** Registers the provider and the watcher that refreshes it. */
  register(): vscode.Disposable[] {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${CASSETTE_DIR}/*.cassette.yaml`, false, true, false);
    const refresh = () => this.changed.fire();
    return [
      vscode.languages.registerCodeLensProvider({ language: 'yaml', scheme: 'file' }, this),
      watcher,
      watcher.onDidCreate(refresh),
      watcher.onDidDelete(refresh),
      this.changed,
    ];
  }

  /** Recomputes the lenses (after the extension saved a cassette itself). */
  refresh(): void {
    this.changed.fire();
  }
}
