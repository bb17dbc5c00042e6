/**
 * The report as one HTML document: the page's styles, the data as an inline
 * JSON block, the page script inline, and a Content-Security-Policy that lets
 * nothing else in, so "no network" is a property of the file itself. Pure.
 */
import type { PageScript } from './asset.js'

/** Escape text for HTML content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * JSON for a `<script type="application/json">` block: every `<` written as
 * `\u003c`, so no string in the data (`</script>`, `<!--`) can end the block;
 * JSON.parse reads it back unchanged.
 */
export function inlineJson(value: unknown): string {
  const json = JSON.stringify(value)
  // Most pages hold no `<` at all, and looking for one costs less than a replace that finds none.
  return json.includes('<') ? json.replace(/</g, '\\u003c') : json
}

/** Only the page's own script runs; styles are inline (Plot writes style attributes); nothing is fetched, framed or submitted. Plain text for a double-quoted attribute: no `"`, `&` or `<`. */
export function contentSecurityPolicy(script: PageScript): string {
  return `default-src 'none'; script-src 'sha256-${script.sha256}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'`
}

// Light colours first; dark ones under prefers-color-scheme unless the reader chose light, or when they chose dark.
const DARK = `--bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --grid: #30363d; --panel: #161b22; --panel-strong: #262c36;
    --accent: #58a6ff; --baseline: #9da7b3; --better: #3fb950; --worse: #ff7b4a; --changed: #c297ff; --on-change: #0d1117;`

const STYLES = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --grid: #d0d7de; --panel: #f6f8fa; --panel-strong: #e7ebef;
  --accent: #0a5dc2; --baseline: #6e7781; --better: #1a7f37; --worse: #c2410c; --changed: #8250df; --on-change: #ffffff;
}
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${DARK} } }
:root[data-theme="dark"] { color-scheme: dark; ${DARK} }
:root[data-theme="light"] { color-scheme: light; }
* { box-sizing: border-box; }
body { background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1240px; padding: 0 1.25rem 3rem; }
header.top { display: flex; gap: 1rem; justify-content: space-between; align-items: flex-start; padding: 1rem 0 .5rem; border-bottom: 1px solid var(--grid); }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 1.75rem 0 .5rem; }
.identity { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; margin: 0; }
.muted { color: var(--muted); }
nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: .5rem 0; }
a { color: var(--accent); }
.status { font-weight: 600; padding: .4rem .7rem; border-radius: 6px; border: 1px solid var(--grid); background: var(--panel); }
.status.complete { border-left: 4px solid var(--better); }
.status.incomplete { border-left: 4px solid var(--worse); }
.not-measured { padding: .4rem .7rem; border-radius: 6px; border: 1px solid var(--grid); border-left: 4px solid var(--muted, var(--grid)); background: var(--panel); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: .75rem; }
.card { display: grid; align-content: start; gap: .1rem; background: var(--panel); border: 1px solid var(--grid); border-radius: 8px; padding: .6rem .8rem; }
.card.primary { border-color: var(--accent); }
.card-label { font-weight: 600; }
.card-direction { color: var(--muted); font-size: .75rem; }
.card-value { font-size: 1.45rem; font-weight: 650; }
.card.primary .card-value { font-size: 1.9rem; }
.card-detail, .card-interval { color: var(--muted); font-size: .85rem; }
.card-baseline { font-size: .85rem; font-weight: 600; }
.change-better { color: var(--better); } .change-worse { color: var(--worse); } .change-changed { color: var(--changed); } .change-same { color: var(--muted); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1rem; }
figure.chart { margin: 0 0 1rem; background: var(--panel); border: 1px solid var(--grid); border-radius: 8px; padding: .6rem .8rem; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: .25rem; }
svg[class^="plot"] { --plot-background: var(--bg); color: var(--fg); background: transparent; }
.scroll { overflow-x: auto; }
details.numbers { margin-top: .25rem; font-size: .85rem; }
.verdict { font-weight: 600; }
ul.plain { margin: .25rem 0 .5rem; padding-left: 1.1rem; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--grid); vertical-align: top; }
th { font-weight: 600; }
#tg-probes td:nth-child(4) { max-width: 26rem; }
code { font: .85rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
tr.detail > td { background: var(--panel); padding: .75rem 1rem 1rem; }
button, select, input { font: inherit; color: var(--fg); background: var(--panel); border: 1px solid var(--grid); border-radius: 5px; padding: .2rem .55rem; }
button { cursor: pointer; }
button.expand { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; white-space: nowrap; }
button.expand::before { content: "▸ "; }
button.expand[aria-expanded="true"]::before { content: "▾ "; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: .5rem 0 .75rem; }
fieldset.kinds { display: flex; flex-wrap: wrap; gap: .35rem; border: 0; margin: 0; padding: 0; }
fieldset.kinds legend { float: left; margin-right: .5rem; font-weight: 600; }
.chip { display: inline-flex; gap: .3rem; align-items: center; border: 1px solid var(--grid); border-radius: 999px; padding: .1rem .6rem; background: var(--panel); }
input[type="search"] { min-width: 18rem; }
.badge { font-size: .8rem; font-weight: 600; white-space: nowrap; border-radius: 4px; padding: 0 .35rem; border: 1px solid currentColor; }
.kind-stale_leak.badge, .kind-error.badge { color: var(--worse); }
.kind-wrong.badge { color: var(--changed); }
.kind-unsupported.badge, .kind-known_failure.badge { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0 0 .5rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.legend { font-size: .85rem; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; }
td.instant { white-space: nowrap; }
#tg-theme { white-space: nowrap; }
table.events { font-size: .85rem; margin-top: .5rem; }
table.events tr.unseen { opacity: .55; }
table.events tr.source td:first-child { box-shadow: inset 3px 0 var(--worse); }
footer { margin-top: 2.5rem; border-top: 1px solid var(--grid); padding-top: .75rem; font-size: .85rem; color: var(--muted); }
`

/** What the document needs besides the data. */
export interface DocumentParts {
  title: string
  harnessVersion: string
  /** The page data, already made JSON-safe for inlining (`inlineJson`). */
  dataJson: string
  script: PageScript
}

/** The whole page. */
export function htmlDocument(parts: DocumentParts): string {
  return htmlDocumentChunks(parts)
    .map((chunk) => (typeof chunk === 'string' ? chunk : chunk.toString('utf8')))
    .join('')
}

/**
 * The whole page as the pieces it is written from, in order: text, the data,
 * text, the script's bytes as built, text. A file written from them holds the
 * same bytes as `htmlDocument` encoded, without one string of the whole page.
 */
export function htmlDocumentChunks(parts: DocumentParts): (string | Buffer)[] {
  const title = escapeHtml(parts.title)
  const version = escapeHtml(parts.harnessVersion)
  const head = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(parts.script)}">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="timegrounded ${version}">
<title>${title}</title>
<style>${STYLES}</style>
</head>
<body>
<header class="top">
<div><h1>${title}</h1><p id="tg-identity" class="identity"></p></div>
<button id="tg-theme" type="button">Theme: system</button>
</header>
<main id="tg-main"><noscript><p>This report draws its charts and tables with the script it carries: allow JavaScript for this file to see them.</p></noscript></main>
<footer>
<p>Made by timegrounded ${version}. Charts drawn with Observable Plot and d3 (ISC licence); their licence notices open the script at the end of this file, and ship in the package as dist/report/html/THIRD-PARTY-NOTICES.txt. This file loads nothing from the network.</p>
</footer>
<script type="application/json" id="tg-data">`
  return [head, parts.dataJson, '</script>\n<script>', parts.script.bytes, '</script>\n</body>\n</html>\n']
}
