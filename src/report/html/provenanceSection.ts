import type { InputDescription } from "../analysisReport.js";
import { count } from "../format.js";
import { csvDataUrl } from "./csvDataUrl.js";
import { escapeHtml } from "./escapeHtml.js";
import { htmlTable } from "./htmlTable.js";

/** The per-document table embedded in the page, and the SHA-256 of exactly those CSV bytes. */
export interface AggregatesDownload {
  readonly fileName: string;
  readonly csv: string;
  readonly sha256: string;
  readonly documents: number;
  /** Columns, for the sentence that says what the file holds. */
  readonly columns: readonly string[];
}

/** An analysed input's row of the provenance table: its file, digest and what was read. */
export function inputProvenance(input: InputDescription): ProvenanceInput["inputs"][number] {
  return {
    file: input.file,
    sha256: input.sha256,
    detail: `${input.format}, ${input.kind}, ${count(input.rows)} rows`,
  };
}

export interface ProvenanceInput {
  readonly inputs: readonly {
    readonly file: string;
    readonly sha256: string;
    readonly detail: string;
  }[];
  readonly aggregates: AggregatesDownload | null;
  /** ragci's canonical digest of each analysis's aggregates (the JSON's aggregatesSha256). */
  readonly digests: readonly { readonly label: string; readonly sha256: string }[];
  /** How to re-run from the downloaded file, when that is possible. */
  readonly rerun: string | null;
  readonly notes: readonly string[];
}

/**
 * "Download the aggregates and the hashes": the SHA-256 of every input, the per-document
 * aggregates as a CSV inside the page (a data: URL, so nothing is fetched), the digest of that
 * file and ragci's canonical digest of the aggregates, so the analysis can be re-run and checked.
 */
export function provenanceSection(input: ProvenanceInput): string {
  const parts = [`<section id="provenance"><h2>Inputs, aggregates and their SHA-256</h2>`];
  parts.push(
    htmlTable({
      header: ["input", "what", "SHA-256"],
      rows: input.inputs.map((i) => ({
        data: { input: i.file },
        cells: [
          { text: i.file, className: "path" },
          i.detail,
          { text: i.sha256, field: "sha256", className: "hash" },
        ],
      })),
      data: { table: "inputs" },
    }),
  );
  const a = input.aggregates;
  if (a) {
    parts.push(
      `<p><a class="download" download="${escapeHtml(a.fileName)}" href="${csvDataUrl(a.csv)}" data-sha256="${a.sha256}">Download the per-document aggregates (${escapeHtml(a.fileName)}, ${count(a.documents)} rows)</a></p>`,
      `<p>Columns ${escapeHtml(a.columns.join(", "))}: one row per document${a.columns.includes("system") ? " and system × metric" : ""}, n_d results, their sum s_d and sum of squares ss_d, and the smallest and largest single result of the document (min, max; of the table where a document's range was not kept: a score's census in plan, strata and simulate). SHA-256 of this CSV file: <span class="hash" data-field="csv-sha256">${a.sha256}</span>.${input.rerun ? ` ${escapeHtml(input.rerun)}` : ""}</p>`,
    );
  } else {
    parts.push("<p>No per-document data entered this report.</p>");
  }
  if (input.digests.length > 0) {
    parts.push(
      htmlTable({
        caption: "ragci's digest of the aggregates (aggregatesSha256 in --json)",
        header: ["analysis", "SHA-256"],
        rows: input.digests.map((d) => ({
          cells: [d.label, { text: d.sha256, field: "aggregates-sha256", className: "hash" }],
        })),
        data: { table: "digests" },
      }),
    );
  }
  for (const note of input.notes) parts.push(`<p>${escapeHtml(note)}</p>`);
  parts.push("</section>");
  return parts.join("\n");
}
