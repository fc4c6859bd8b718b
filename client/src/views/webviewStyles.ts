// Styles of our webviews, only in terms of VS Code's theme variables so light, dark and high-contrast
// themes all work without a line of theme-specific CSS.

/** Shared CSS for the results view and the testing-values form. */
export const SHARED_CSS = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 24px; }
h1 { font-size: 1.3em; margin: 0; font-weight: 600; }
h2 { font-size: 1.1em; margin: 16px 0 6px; }
h3 { font-size: 1em; margin: 10px 0 4px; color: var(--vscode-descriptionForeground); }
button { font-family: inherit; font-size: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent); padding: 4px 12px; border-radius: 2px; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
button:disabled { opacity: 0.5; cursor: default; }
button.secondary, button.seg, button.tab { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
button.secondary:hover, button.seg:hover, button.tab:hover { background: var(--vscode-button-secondaryHoverBackground); }
button.seg.active { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.header { display: flex; align-items: center; gap: 16px; padding: 12px 0; position: sticky; top: 0; background: var(--vscode-editor-background); z-index: 2; }
.header .status { color: var(--vscode-descriptionForeground); flex: 1; }
.banner { padding: 8px 12px; margin: 6px 0; border-left: 3px solid; border-radius: 2px; }
.banner.warn { border-color: var(--vscode-editorWarning-foreground); background: var(--vscode-inputValidation-warningBackground); }
.banner.error { border-color: var(--vscode-editorError-foreground); background: var(--vscode-inputValidation-errorBackground); }
.banner.info { border-color: var(--vscode-editorInfo-foreground); background: var(--vscode-editorWidget-background); }
.banner.ok { border-color: var(--vscode-testing-iconPassed, #73c991); background: var(--vscode-editorWidget-background); }
.tabs { display: flex; gap: 2px; border-bottom: 1px solid var(--vscode-panel-border); margin-top: 8px; }
button.tab { border-radius: 2px 2px 0 0; background: transparent; color: var(--vscode-foreground); border: none; border-bottom: 2px solid transparent; padding: 6px 12px; }
button.tab.active { border-bottom-color: var(--vscode-panelTitle-activeBorder, var(--vscode-focusBorder)); color: var(--vscode-panelTitle-activeForeground, var(--vscode-foreground)); }
.panel { padding-top: 10px; }
.toolbar { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 8px; }
/* In a narrow pane buttons wrap to the next row instead of being cut off (the form's Clear, the results' Compare). */
button { max-width: 100%; overflow-wrap: anywhere; }
.header h1 { min-width: 0; overflow-wrap: anywhere; }
.empty, .muted { color: var(--vscode-descriptionForeground); }
.table-wrap { overflow: auto; max-height: 70vh; border: 1px solid var(--vscode-panel-border); }
.table-more { margin: 6px 0; }
.table-more button { padding: 2px 8px; margin-left: 4px; }
table { border-collapse: collapse; width: max-content; min-width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--vscode-panel-border); vertical-align: top; max-width: 420px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
thead th { position: sticky; top: 0; background: var(--vscode-editorWidget-background); font-weight: 600; }
td.idx, th.idx { color: var(--vscode-editorLineNumber-foreground); text-align: right; }
tr:hover td { background: var(--vscode-list-hoverBackground); }
/* Header tables fit any pane width: fixed layout, names take a third, values wrap anywhere. */
table.headers { width: 100%; min-width: 0; table-layout: fixed; }
table.headers th, table.headers td { white-space: normal; overflow-wrap: anywhere; word-break: break-word; max-width: none; }
table.headers th { width: 34%; color: var(--vscode-descriptionForeground); font-weight: normal; }
.header { flex-wrap: wrap; }
.header .status { flex: 1 1 180px; }
.navigator { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; margin-bottom: 8px; }
.navigator select { max-width: 100%; }
.nav-label { color: var(--vscode-descriptionForeground); }
.pager { display: flex; flex-wrap: wrap; gap: 3px; }
.pager button { min-width: 30px; padding: 3px 8px; }
.tabs { flex-wrap: wrap; }
.subtabs { margin-top: 0; }
/* The pagination trace line wraps anywhere: tokens may be whole URLs, and the pane may be narrow. */
.trace { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); overflow-wrap: anywhere; margin: 0 0 6px; padding: 4px 8px; border-left: 3px solid var(--vscode-panel-border); background: var(--vscode-editorWidget-background); }
.trace .trace-sep { color: var(--vscode-descriptionForeground); }
.trace .trace-next.requested { color: var(--vscode-descriptionForeground); }
.subpanel { padding-top: 8px; }
.slice-state { border: 1px solid var(--vscode-panel-border); border-radius: 3px; padding: 2px 10px 8px; margin: 8px 0; }
ul.differences { margin: 6px 0; padding-left: 18px; }
ul.differences code { font-family: var(--vscode-editor-font-family); }
details.stack { margin-top: 6px; }
details.stack > summary { cursor: pointer; }
pre { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); background: var(--vscode-textCodeBlock-background); padding: 8px; overflow: auto; max-height: 60vh; white-space: pre-wrap; word-break: break-all; margin: 4px 0; }
details.page { border: 1px solid var(--vscode-panel-border); border-radius: 3px; margin: 6px 0; padding: 4px 10px; }
details.page > summary { cursor: pointer; padding: 4px 0; font-family: var(--vscode-editor-font-family); }
.reqline { font-family: var(--vscode-editor-font-family); word-break: break-all; }
ul.logs { list-style: none; padding: 0; margin: 0; }
li.log { padding: 4px 0; border-bottom: 1px solid var(--vscode-panel-border); font-family: var(--vscode-editor-font-family); }
li.log .level { display: inline-block; min-width: 52px; font-weight: 600; }
li.log.error .level { color: var(--vscode-editorError-foreground); }
li.log.warn .level, li.log.warning .level { color: var(--vscode-editorWarning-foreground); }
a, a.goto { color: var(--vscode-textLink-foreground); }
input, select, textarea { font-family: inherit; font-size: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, var(--vscode-panel-border)); padding: 4px 6px; border-radius: 2px; }
input:focus, select:focus, textarea:focus { outline: 1px solid var(--vscode-focusBorder); }
`;
