// The incremental lab's memory: the input state of each manifest stream, kept in workspace state (state is
// not a secret: it holds cursor values, never credentials), and the chain of reads of this session (read 1
// → state → read 2 …) with the records each read added. Also where every finished test read is announced,
// so the form can pre-fill partitions and "Continue" knows the last final state.
import type * as vscode from 'vscode';
import type { ShownStreamRead } from '../../../server/src/protocol';

type Obj = Record<string, unknown>;

import type { ChainRead } from '../webviewMessages';
export type { ChainRead } from '../webviewMessages';

const KEY = 'airbyte.inputStates';
const keyOf = (uri: string, stream: string) => `${uri}#${stream}`;

/** The stream_state of the last slice's state message; null when the read shows none. */
export function finalStateOf(read: ShownStreamRead): Obj | null {
  for (let i = read.slices.length - 1; i >= 0; i--) {
    const m = read.slices[i].state[read.slices[i].state.length - 1] as { stream?: { stream_state?: unknown } } | undefined;
    const s = m?.stream?.stream_state;
    if (s && typeof s === 'object' && !Array.isArray(s)) return s as Obj;
  }
  return null;
}

/** The partitions a read's slices had: descriptors less the cursor window keys, distinct, in order. */
export function partitionsOf(read: ShownStreamRead, cursorKeys: string[]): Obj[] {
  const out: Obj[] = [];
  const seen = new Set<string>();
  for (const s of read.slices) {
    const d = s.slice_descriptor;
    if (!d || typeof d !== 'object') continue;
    const p = Object.fromEntries(Object.entries(d).filter(([k]) => !cursorKeys.includes(k)));
    const key = JSON.stringify(p);
    if (Object.keys(p).length && !seen.has(key)) {
      seen.add(key);
      out.push(p);
    }
  }
  return out;
}

/** Input states in workspace state, chains and last reads in memory. */
export class InputStates {
  private readonly chains = new Map<string, { reads: ChainRead[]; seen: Set<string> }>();
  private readonly lastReads = new Map<string, ShownStreamRead>();
  private readonly listeners = new Set<(uri: string, stream: string) => void>();

  constructor(private readonly memento: vscode.Memento) {}

  /** The saved input state of a stream; undefined when none was saved. */
  get(uri: string, stream: string): Obj | null | undefined {
    const all = this.memento.get<Record<string, Obj | null>>(KEY, {});
    return Object.hasOwn(all, keyOf(uri, stream)) ? all[keyOf(uri, stream)] : undefined;
  }

  async set(uri: string, stream: string, state: Obj | null): Promise<void> {
    const all = { ...this.memento.get<Record<string, Obj | null>>(KEY, {}) };
    all[keyOf(uri, stream)] = state;
    await this.memento.update(KEY, all);
    this.changed(uri, stream);
  }

  async clear(uri: string, stream: string): Promise<void> {
    const all = { ...this.memento.get<Record<string, Obj | null>>(KEY, {}) };
    delete all[keyOf(uri, stream)];
    await this.memento.update(KEY, all);
    this.chains.delete(keyOf(uri, stream));
    this.changed(uri, stream);
  }

  /** The last finished read of a stream (any Run: plain, from state, continued). */
  lastRead(uri: string, stream: string): ShownStreamRead | undefined {
    return this.lastReads.get(keyOf(uri, stream));
  }

  chain(uri: string, stream: string): ChainRead[] {
    return this.chains.get(keyOf(uri, stream))?.reads ?? [];
  }

  /**
   * A read finished: remembered as the stream's last read and, when it ran from a state or continued the
   * chain (`from`), appended to the chain; a plain read starts a new chain. `primaryKey` names records.
   */
  recordRead(
    uri: string,
    stream: string,
    read: ShownStreamRead,
    from: ChainRead['from'],
    inputState: Obj | null,
    primaryKey: string[][],
  ): ChainRead {
    const key = keyOf(uri, stream);
    this.lastReads.set(key, read);
    let chain = this.chains.get(key);
    if (!chain || from !== 'previous') {
      chain = { reads: [], seen: new Set() };
      this.chains.set(key, chain);
    }
    let records = 0;
    let added = 0;
    for (const slice of read.slices) {
      for (const page of slice.pages) {
        for (const r of page.records) {
          records++;
          const id = recordId(r as Obj, primaryKey);
          if (!chain.seen.has(id)) {
            chain.seen.add(id);
            added++;
          }
        }
      }
    }
    const error = read.logs.find((l) => String(l.level).toUpperCase() === 'ERROR');
    const entry: ChainRead = {
      n: chain.reads.length + 1,
      from,
      inputState,
      finalState: finalStateOf(read),
      records,
      added,
      failed: error ? error.message : null,
    };
    chain.reads.push(entry);
    this.changed(uri, stream);
    return entry;
  }

  onDidChange(listener: (uri: string, stream: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(uri: string, stream: string): void {
    for (const l of this.listeners) l(uri, stream);
  }
}

function recordId(record: Obj, primaryKey: string[][]): string {
  if (!primaryKey.length) return JSON.stringify(record);
  return JSON.stringify(
    primaryKey.map((path) => path.reduce<unknown>((v, seg) => (v && typeof v === 'object' ? (v as Obj)[seg] : undefined), record)),
  );
}
