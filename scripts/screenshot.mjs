#!/usr/bin/env node
// Screenshot of an HTML report in Debian's chromium (playwright-core drives it; no browser
// download). Usage: node scripts/screenshot.mjs PAGE.html OUT.png [--width 1000] [--height H]
// With --height, only the top H pixels are kept (a small PNG for docs/html-report.md); otherwise the
// whole page. Needs /usr/bin/chromium (apt-get install chromium) or CHROMIUM=path.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  args.splice(i, 2);
  return value;
};
const width = flag("--width", 1000);
const height = flag("--height", null);
const [page, out] = args;
if (!page || !out) {
  console.error("usage: node scripts/screenshot.mjs PAGE.html OUT.png [--width W] [--height H]");
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const tab = await browser.newPage({ viewport: { width, height: height ?? 800 } });
  await tab.goto(pathToFileURL(resolve(page)).href);
  await tab.screenshot({
    path: out,
    ...(height ? { clip: { x: 0, y: 0, width, height } } : { fullPage: true }),
  });
} finally {
  await browser.close();
}
