import { escapeHtml } from "./escapeHtml.js";
import { PAGE_CSS } from "./pageStyles.js";

export interface PageContent {
  readonly title: string;
  /** One line under the title: what was analysed. */
  readonly lede: string;
  /** The page's sections, already rendered. */
  readonly body: string;
  /** ragci's version, for the footer. */
  readonly version: string;
}

/**
 * One self-contained HTML document. The Content-Security-Policy forbids every fetch (no
 * default source; inline styles and data: images only), so a page that tried to load anything
 * at view time would fail visibly in the browser tests instead of leaking a request.
 */
export function htmlPage(content: PageContent): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="ragci ${escapeHtml(content.version)}">
<title>${escapeHtml(content.title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(content.title)}</h1>
<p class="lede">${escapeHtml(content.lede)}</p>
</header>
<main>
${content.body}
</main>
<footer>Made by ragci ${escapeHtml(content.version)}. Self-contained: no script, no request at view time; the figures are inline SVG drawn when the report was written.</footer>
</body>
</html>
`;
}
