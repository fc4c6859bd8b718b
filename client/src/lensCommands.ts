// Code lens commands without arguments. VS Code keeps the arguments of a lens command in a cache of the
// extension host that lives only as long as the lens list it came from; when the lenses are asked for
// again (after every test read, a saved cassette, an edit, a focus change) the old list is released,
// but an editor only updates the links of the lenses that are in view, and only after a short debounce:
// a lens that was out of view (or is clicked as it scrolls into view) still points at the released
// entry, and the click fails with "Actual command not found, wanted to execute airbyte.runStream/NNN".
// A command without arguments is executed by its id and never goes through that cache, so each lens
// gets a stable id of its own, registered here, that runs the real command with the real arguments.
import * as vscode from 'vscode';

/** What a bound id runs. */
export type BoundCommand = { command: string; arguments: unknown[] };

/** Binds lens commands to argument-free ids; one id per distinct (command, arguments), kept until deactivation. */
export class LensCommands implements vscode.Disposable {
  private readonly idByKey = new Map<string, string>();
  private readonly bound = new Map<string, BoundCommand>();
  private readonly registrations: vscode.Disposable[] = [];

  /** The lens command as an id without arguments (commands without arguments are returned unchanged). */
  bind(command: vscode.Command): vscode.Command {
    if (!command.command || !command.arguments?.length) return command;
    const target: BoundCommand = { command: command.command, arguments: command.arguments };
    const key = JSON.stringify(target);
    let id = this.idByKey.get(key);
    if (!id) {
      id = `airbyte.lens.${this.idByKey.size + 1}`;
      this.idByKey.set(key, id);
      this.bound.set(id, target);
      this.registrations.push(
        vscode.commands.registerCommand(id, () => vscode.commands.executeCommand(target.command, ...target.arguments)),
      );
    }
    return { title: command.title, ...(command.tooltip ? { tooltip: command.tooltip } : {}), command: id };
  }

  /** Binds the command of every lens (in place) and returns the lenses. */
  bindAll<T extends vscode.CodeLens>(lenses: T[] | null | undefined): T[] | null | undefined {
    for (const lens of lenses ?? []) if (lens.command) lens.command = this.bind(lens.command);
    return lenses;
  }

  /** What a bound id runs, or undefined for any other id (tests read lenses through this). */
  resolve(id: string): BoundCommand | undefined {
    return this.bound.get(id);
  }

  dispose(): void {
    for (const r of this.registrations.splice(0)) r.dispose();
    this.idByKey.clear();
    this.bound.clear();
  }
}

/** The extension's one binder: the language client's lenses and the cassette lenses share it. */
export const lensCommands = new LensCommands();
