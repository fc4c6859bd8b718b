// Whether a string is a template at all: the cheap test every template walker runs first.

/** Whether a string holds template markup (`{{`, `{%` or `{#`). */
export function hasTemplateMarkup(s: string): boolean {
  return s.includes('{{') || s.includes('{%') || s.includes('{#');
}
