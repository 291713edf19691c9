// Writes covidqa-judges.csv from covidqa-retrieval.csv: each (question, retriever) graded by
// three deterministic judges that differ only in how far down the ranking they accept the
// gold chunk (rank ≤ 3, ≤ 5, ≤ 10). Run from the repository root:
//   node examples/make-covidqa-judges.mjs
// See DATA.md (covidqa-judges.csv) for why and what it shows.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const here = import.meta.dirname;
const JUDGES = [
  ["strict", 3],
  ["medium", 5],
  ["lenient", 10],
];

const [header, ...lines] = readFileSync(join(here, "covidqa-retrieval.csv"), "utf8")
  .trim()
  .split("\n");
const names = header.split(",");
const at = (name) => names.indexOf(name);
const out = ["doc_id,query_id,system,judge,found"];
for (const line of lines) {
  const cells = line.split(",");
  // rank is the gold chunk's 1-based rank, empty when it was never retrieved.
  const rank = cells[at("rank")] === "" ? Number.POSITIVE_INFINITY : Number(cells[at("rank")]);
  for (const [judge, cutoff] of JUDGES)
    out.push(
      [cells[at("doc_id")], cells[at("query_id")], cells[at("system")], judge, rank <= cutoff ? 1 : 0].join(","),
    );
}
writeFileSync(join(here, "covidqa-judges.csv"), `${out.join("\n")}\n`);
