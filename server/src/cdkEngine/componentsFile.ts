// The connector's components.py, beside the manifest (the layout of manifest-only connectors), and
// the Python tracebacks that point into it: the CDK compiles the file's text with exec(), so its
// frames read `File "<string>", line N`; they are rewritten to the file so the user can open them.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export type ComponentsFile = { path: string; text: string; md5: string };

/** Where components.py is expected for a manifest file. */
export function componentsPathFor(manifestPath: string): string {
  return join(dirname(manifestPath), 'components.py');
}

/** Reads components.py beside the manifest; null when there is none (an unreadable file throws). */
export async function readComponentsFile(manifestPath: string): Promise<ComponentsFile | null> {
  const path = componentsPathFor(manifestPath);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`Cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  // The CDK refuses injected code without a checksum of it (custom_code_compiler.validate_python_code).
  return { path, text, md5: createHash('md5').update(text, 'utf8').digest('hex') };
}

/** A place in a file a traceback points at (1-based line). */
export type FileLink = { path: string; line: number };

/**
 * The traceback with the components frames pointed at `componentsPath`, and the links to every frame
 * of that file (innermost last, as Python prints them).
 */
export function linkTraceback(traceback: string, componentsPath: string | null): { text: string; links: FileLink[] } {
  const links: FileLink[] = [];
  const text = traceback.replace(/File "([^"]+)", line (\d+)/g, (_whole, file: string, line: string) => {
    const path = file === '<string>' && componentsPath ? componentsPath : file;
    if (path === componentsPath) links.push({ path, line: Number(line) });
    return `File "${path}", line ${line}`;
  });
  // A syntax error in the file names its line apart from the frames: `  File "<string>", line N` is
  // covered above; "(<string>, line N)" in the message is not.
  const syntax = /\(<string>, line (\d+)\)/.exec(text);
  if (syntax && componentsPath && !links.some((l) => l.line === Number(syntax[1])))
    links.push({ path: componentsPath, line: Number(syntax[1]) });
  return { text: componentsPath ? text.replace(/\(<string>, line (\d+)\)/g, `(${componentsPath}, line $1)`) : text, links };
}
