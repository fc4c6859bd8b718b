// The one reader of a command's arguments: options in order, each a switch or an option with one
// value, and the positional arguments, with the same messages in every command (`--x needs a value`,
// `unknown option --y`, `unexpected argument "z"`). A command says what each option does; the first
// problem ends the reading and is the command's usage message.
import type { TestReadLimits } from '../types';

/** One option: a switch, or an option followed by its value. `set` returns a problem's message, if any. */
export type OptionSpec = { value: false; set: () => string | undefined } | { value: true; set: (value: string) => string | undefined };

export type CommandSpec = {
  options: Record<string, OptionSpec>;
  /** A positional argument; returns a problem's message when it is not wanted. */
  positional: (arg: string) => string | undefined;
  /** The message for an unknown `--option` (`unknown option --x` unless the command says more). */
  unknown?: (arg: string) => string;
  /** Options also written `--name=value` (validate's `--format=json`). */
  inline?: readonly string[];
  /** Options whose value may be missing at the end of the line: then it is the empty string. */
  emptyWhenMissing?: readonly string[];
};

/** Reads `args` in order; the first problem's message, or undefined when all of them were read. */
export function parseOptions(args: readonly string[], spec: CommandSpec): string | undefined {
  for (let i = 0; i < args.length; i++) {
    let a = args[i];
    let inlineValue: string | undefined;
    const eq = a.indexOf('=');
    if (eq > 0 && spec.inline?.includes(a.slice(0, eq))) {
      inlineValue = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const option = Object.hasOwn(spec.options, a) ? spec.options[a] : undefined;
    let problem: string | undefined;
    if (option && !option.value) problem = option.set();
    else if (option) {
      const v = inlineValue ?? args[++i] ?? (spec.emptyWhenMissing?.includes(a) ? '' : undefined);
      problem = v === undefined ? `${a} needs a value` : option.set(v);
    } else if (a.startsWith('--')) problem = spec.unknown ? spec.unknown(a) : `unknown option ${a}`;
    else problem = spec.positional(a);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** An option with a value stored as is. */
export function valueOption(set: (value: string) => void): OptionSpec {
  return {
    value: true,
    set: (v) => {
      set(v);
      return undefined;
    },
  };
}

/** A switch. */
export function switchOption(set: () => void): OptionSpec {
  return {
    value: false,
    set: () => {
      set();
      return undefined;
    },
  };
}

/** `--format json|pretty`. */
export function formatOption(set: (format: 'json' | 'pretty') => void): OptionSpec {
  return {
    value: true,
    set: (v) => {
      if (v !== 'json' && v !== 'pretty') return `--format must be json or pretty, got "${v}"`;
      set(v);
      return undefined;
    },
  };
}

/** `--max-records N`, `--max-pages N`, `--max-slices N`: positive integers into `limits`. */
export function limitOptions(limits: TestReadLimits): Record<string, OptionSpec> {
  const option = (flag: string, key: keyof TestReadLimits): OptionSpec => ({
    value: true,
    set: (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) return `${flag} must be a positive integer, got "${v}"`;
      limits[key] = n;
      return undefined;
    },
  });
  return {
    '--max-records': option('--max-records', 'maxRecords'),
    '--max-pages': option('--max-pages', 'maxPagesPerSlice'),
    '--max-slices': option('--max-slices', 'maxSlices'),
  };
}

/** The one positional argument of a command (its manifest); a second is unexpected. */
export function oneArgument(set: (arg: string) => void): (arg: string) => string | undefined {
  let taken = false;
  return (arg) => {
    if (taken) return `unexpected argument "${arg}"`;
    taken = true;
    set(arg);
    return undefined;
  };
}
