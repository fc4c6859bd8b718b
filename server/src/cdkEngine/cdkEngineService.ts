// The language server's view of the CDK engine: which interpreter the client chose (the
// `airbyte.cdk.python` setting, the Python extension's interpreter, or python3 on the PATH) and what a
// probe of it found, kept per connection and re-probed when the choice changes or on demand. Lenses
// read the last answer synchronously; reads wait for it.
import { probeInterpreter, type CdkEngineStatus } from './pythonProbe';
import { DEFAULT_PYTHON } from './cdkReadEngine';

/** Where the interpreter came from, as the lens and guidance name it. */
export type PythonSource = 'setting' | 'python-extension' | 'path';

export class CdkEngineService {
  private python = DEFAULT_PYTHON;
  private source: PythonSource = 'path';
  private probing: Promise<CdkEngineStatus> | null = null;
  private last: CdkEngineStatus | null = null;

  /** `onChange` runs when a probe finishes (the server refreshes its code lenses). */
  constructor(
    private readonly onChange: () => void = () => {},
    private readonly probe: (python: string) => Promise<CdkEngineStatus> = probeInterpreter,
  ) {}

  /** The interpreter the client resolved; a new one is probed again when next needed. */
  setPython(python: string | null | undefined, source: PythonSource): void {
    const next = python?.trim() || DEFAULT_PYTHON;
    if (next === this.python && source === this.source && (this.last || this.probing)) return;
    this.python = next;
    this.source = python?.trim() ? source : 'path';
    this.last = null;
    this.probing = null;
    // Probed when a lens or a read first needs it (most manifests never do); lenses shown so far are redrawn.
    this.onChange();
  }

  get interpreter(): { python: string; source: PythonSource } {
    return { python: this.python, source: this.source };
  }

  /** The last probe's answer; null while none has finished (a probe is then started). */
  current(): CdkEngineStatus | null {
    if (!this.last && !this.probing) void this.status();
    return this.last;
  }

  /** The status of the chosen interpreter, probing it when needed. `fresh` probes again (after an install). */
  status(fresh = false): Promise<CdkEngineStatus> {
    if (fresh) {
      this.last = null;
      this.probing = null;
    }
    if (this.last) return Promise.resolve(this.last);
    if (!this.probing) {
      const python = this.python;
      this.probing = this.probe(python).then((s) => {
        // A choice made while probing wins over this answer.
        if (python === this.python) {
          this.last = s;
          this.probing = null;
          this.onChange();
        }
        return s;
      });
    }
    return this.probing;
  }
}
