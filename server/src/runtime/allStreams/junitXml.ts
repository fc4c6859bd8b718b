// JUnit XML as CI servers read it (Jenkins, GitLab, GitHub test reporters): one <testsuite> of
// <testcase>s, a failing case carrying a <failure> with the error. Text from APIs and manifests goes in
// escaped, with the characters XML 1.0 cannot hold removed. Pure.

/** One test case: `failure` is null when it passed; `skipped` gives the reason it did not run. */
export type JUnitCase = {
  name: string;
  classname: string;
  timeSeconds: number;
  failure: { message: string; details: string } | null;
  skipped?: string;
  output?: string;
};

// Characters outside XML 1.0's Char production (control characters, lone surrogates, U+FFFE/U+FFFF).
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** `text` as XML character data or an attribute value. */
export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (s: number) => (Math.round(s * 1000) / 1000).toFixed(3);

/** A JUnit XML document of one suite named `suite`. */
export function junitXml(suite: string, cases: JUnitCase[], timestamp: Date = new Date()): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined && !c.failure).length;
  const total = cases.reduce((t, c) => t + c.timeSeconds, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total)}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total)}" timestamp="${timestamp.toISOString().replace(/\.\d+Z$/, '')}">`,
  ];
  for (const c of cases) {
    const open = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}" time="${seconds(c.timeSeconds)}"`;
    const body: string[] = [];
    if (c.failure)
      body.push(
        `      <failure message="${xmlEscape(firstLine(c.failure.message))}" type="failure">${xmlEscape(c.failure.details)}</failure>`,
      );
    else if (c.skipped !== undefined) body.push(`      <skipped message="${xmlEscape(c.skipped)}"/>`);
    if (c.output) body.push(`      <system-out>${xmlEscape(c.output)}</system-out>`);
    lines.push(body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`);
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 500 ? `${line.slice(0, 497)}...` : line;
}
