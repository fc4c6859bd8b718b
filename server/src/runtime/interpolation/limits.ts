// Bounds on what one template evaluation may compute. The evaluator's step count alone cannot see
// the work done inside a single filter, method or operator (`'x' | center(10**8)`, `l | slice(10**9)`):
// those check the size their result WOULD have before allocating (`checkSize`) and charge the work
// they are about to do to the meter of the running evaluation (`charge`), which enforces the step and
// wall-clock budget. Evaluation is synchronous, so "the running evaluation" is a module-level stack.
import { TemplateValueError } from './templateValueError';

/** Longest string (characters) or list (items) a single value may have. */
export const MAX_SEQUENCE = 1_000_000;

/** Characters of text work that cost one step (copying text is far cheaper than evaluating a node). */
const CHARS_PER_STEP = 16;

/** The limits of one evaluation. */
export interface MeterLimits {
  /** Maximum work units: evaluated nodes, items copied or compared, CHARS_PER_STEP characters of text. */
  maxSteps: number;
  /** Wall-clock limit in milliseconds. */
  maxMillis: number;
}

/** The work meter of one evaluation. */
export class WorkMeter {
  private used = 0;
  private sinceClock = 0;
  private readonly started = Date.now();

  constructor(private readonly limits: MeterLimits) {}

  /** Adds `units` of work; throws a LimitError past the step or time budget. */
  charge(units: number): void {
    this.used += units;
    if (!(this.used <= this.limits.maxSteps)) {
      throw new TemplateValueError(`template evaluation exceeded ${this.limits.maxSteps} steps`, 'LimitError');
    }
    this.sinceClock += units;
    if (this.sinceClock >= 1024) {
      this.sinceClock = 0;
      if (Date.now() - this.started > this.limits.maxMillis) {
        throw new TemplateValueError(`template evaluation exceeded ${this.limits.maxMillis} ms`, 'LimitError');
      }
    }
  }
}

const active: WorkMeter[] = [];

/** Runs `fn` with `meter` as the meter of the running evaluation. */
export function withMeter<T>(meter: WorkMeter, fn: () => T): T {
  active.push(meter);
  try {
    return fn();
  } finally {
    active.pop();
  }
}

/** Charges `units` of work (items visited, copied or compared) to the running evaluation, if any. */
export function charge(units: number): void {
  const meter = active[active.length - 1];
  if (meter) meter.charge(units);
}

/** Charges the copying or scanning of `chars` characters. */
export function chargeText(chars: number): void {
  if (chars >= CHARS_PER_STEP) charge(Math.ceil(chars / CHARS_PER_STEP));
}

/**
 * Refuses a result of `n` items or characters before it is built. `what` names the operation in the
 * message (e.g. "center", "'*' on a str"). NaN and infinities are refused too.
 */
export function checkSize(n: number, what: string): void {
  if (!(n <= MAX_SEQUENCE)) {
    throw new TemplateValueError(
      `${what}: result too large (more than ${MAX_SEQUENCE.toLocaleString('en-US')} items or characters)`,
      'LimitError',
    );
  }
}

/** Checks a result length and charges the text work of building it (strings) in one call. */
export function checkText(n: number, what: string): void {
  checkSize(n, what);
  chargeText(n);
}

/** Checks a result length and charges one unit per item (lists). */
export function checkItems(n: number, what: string): void {
  checkSize(n, what);
  charge(n);
}

/**
 * Accumulates text with a bound: `add` throws a LimitError as soon as the total would pass
 * MAX_SEQUENCE, so a join or a repr of huge parts never builds the oversized string.
 */
export class TextBuilder {
  private readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly what: string) {}

  add(text: string): void {
    this.length += text.length;
    checkSize(this.length, this.what);
    chargeText(text.length);
    this.parts.push(text);
  }

  toString(): string {
    return this.parts.join('');
  }
}

/** An integer argument that sizes a result (a width, a count), checked before any allocation. */
export function sizeArg(v: number, what: string): number {
  if (!Number.isFinite(v)) throw new TemplateValueError(`${what}: expected a finite number`, 'ValueError');
  checkSize(Math.abs(v), what);
  return Math.trunc(v);
}

/** `s.split(old)` for a replace, refusing a result that would be too large before it is joined. */
export function splitForReplace(s: string, old: string, rep: string, count: number): string[] {
  const parts = s.split(old);
  const replaced = count < 0 ? parts.length - 1 : Math.min(count, parts.length - 1);
  checkText(s.length + replaced * (rep.length - old.length), 'replace');
  return parts;
}
