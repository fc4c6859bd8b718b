// Extra styles of the testing-values form (layout of fields, groups, secrets and errors).

/** CSS appended to the shared webview styles for the form. */
export const FORM_CSS = `
form { max-width: 760px; }
.field { display: flex; flex-direction: column; gap: 3px; margin: 10px 0; }
.field input[type=text], .field input[type=number], .field input[type=password], .field select, .field textarea { width: 100%; box-sizing: border-box; }
.field input[type=checkbox] { align-self: flex-start; }
.label { font-weight: 600; }
.req { color: var(--vscode-editorError-foreground); }
.help, .hint { color: var(--vscode-descriptionForeground); font-size: 0.92em; }
.error { color: var(--vscode-errorForeground); font-size: 0.92em; }
fieldset.group { border: 1px solid var(--vscode-panel-border); border-radius: 3px; padding: 6px 12px 8px; margin: 10px 0; }
fieldset.group > legend { font-weight: 600; padding: 0 4px; }
fieldset.group > select { margin: 4px 0; }
.secret { display: flex; gap: 6px; }
.secret input { flex: 1; }
.array-item { display: flex; gap: 8px; align-items: flex-end; }
.array-item > .field, .array-item > fieldset { flex: 1; }
.checks { display: flex; flex-wrap: wrap; gap: 4px 14px; }
.help p { margin: 2px 0; }
.help ul, .help ol { margin: 2px 0; padding-left: 18px; }
.help code { font-family: var(--vscode-editor-font-family); background: var(--vscode-textCodeBlock-background); padding: 0 3px; border-radius: 2px; }
form.limits { max-width: 360px; }
form.limits input[type=number] { width: 140px; }
.actions { margin-top: 16px; position: sticky; bottom: 0; padding: 8px 0; background: var(--vscode-editor-background); }
`;
