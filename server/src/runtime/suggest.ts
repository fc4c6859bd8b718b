// "Did you mean" suggestions for misspelt component types, field names, enum values and template names
// (schema errors, template checks and the template evaluator share it). Pure, imports nothing.

/** Edit distance between two strings (case-insensitive), capped at `max + 1` for speed. */
function distance(a: string, b: string, max: number): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** The candidate closest to `input`, if it is close enough to be a plausible typo; else undefined. */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const max = Math.max(2, Math.floor(input.length / 3));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const c of candidates) {
    if (c.toLowerCase() === input.toLowerCase()) return c;
    const d = distance(input, c, max);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best ?? onlyCompletion(input, candidates);
}

/**
 * The one candidate that a type name `input` begins (a type name typed short, `BearerAuth` for
 * `BearerAuthenticator`, is too far from it for the edit distance); undefined when none or several do.
 */
function onlyCompletion(input: string, candidates: readonly string[]): string | undefined {
  // Type names only (PascalCase): a field name or a key that is no type pays nothing more.
  if (input.length < 4 || !/^[A-Z]/.test(input)) return undefined;
  const lower = input.toLowerCase();
  const starting = candidates.filter((c) => c.toLowerCase().startsWith(lower));
  return starting.length === 1 ? starting[0] : undefined;
}
