// Helpers for LSP tests: read a fixture and find positions by searching its text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Position } from 'vscode-languageserver-protocol';

export function readFixture(name: string): string {
  return readFileSync(join(__dirname, '..', 'fixtures', 'lsp', name), 'utf8');
}

/** The position of the `nth` occurrence (0-based) of `needle` in `text`, moved `delta` characters into it. */
export function positionOf(text: string, needle: string, delta = 0, nth = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`fixture has no occurrence #${nth} of ${JSON.stringify(needle)}`);
  }
  return positionAt(text, at + delta);
}

export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}
