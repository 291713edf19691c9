import { type FacetComponent, facetComponentName } from "../core/facets/facetCells.js";
import type { FacetDetectionPlan, FacetPairPlan } from "../core/facets/facetPairPlan.js";
import type { FacetPilotPlan } from "../core/facets/facetPilotPlan.js";
import { type FacetDesign, type FacetPlan, facetsAtLimit } from "../core/facets/facetPlan.js";
import { groupedInteger } from "../core/groupedInteger.js";
import type { SamplePlan } from "../core/planning/samplePlan.js";
import type { SizeStratifiedPlan } from "../core/planning/sizeStratifiedPlan.js";
import { fixed, levelPercent, percent, significant } from "./format.js";
import { blocksToMarkdown, blocksToTerminal, type ReportBlock } from "./reportBlocks.js";

/** The `schema` of `ragci plan --json`: the package path of its JSON Schema. */
export const PLAN_SCHEMA = "ragci/schemas/plan.v2.json";

/** What `ragci plan` reports: the SRS plan and, from a census with a cutoff, the stratified one. */
export interface PlanReport {
  readonly version: string;
  readonly plan: SamplePlan;
  readonly stratified: SizeStratifiedPlan | null;
  /** --cost: the plan across reruns and judges from a faceted pilot (of one system or a pair). */
  readonly facets?: FacetPilotPlan | FacetPairPlan | null;
}

/**
 * plan's JSON: the targets, then `estimands`, one plan per estimand with an S (macro first,
 * each naming its estimand), and the size-stratified plan (null without --census --cutoff).
 */
export function planJson(report: PlanReport): Record<string, unknown> {
  const { plan } = report;
  return {
    schema: PLAN_SCHEMA,
    command: "ragci plan",
    ragci: report.version,
    level: plan.level,
    halfWidth: plan.halfWidth,
    difference: plan.difference,
    power: plan.power,
    population: plan.population,
    source: plan.source,
    estimands: plan.estimands.map((e) => ({ estimand: e, ...plan[e] })),
    stratified: report.stratified,
    facets: report.facets ?? null,
    warnings: plan.warnings,
  };
}

export function planTerminal(report: PlanReport): string {
  return blocksToTerminal(planBlocks(report));
}

export function planMarkdown(report: PlanReport): string {
  return blocksToMarkdown(planBlocks(report));
}

function beyondLimit(documents: number | null | undefined): string {
  return documents === null || documents === undefined ? "more than 10¹²" : String(documents);
}

export function planBlocks(report: PlanReport): ReportBlock[] {
  const { plan } = report;
  const { source, estimands } = plan;
  const from =
    source.kind === "given"
      ? "S given"
      : `S${source.difference ? ` of the per-document difference ${source.difference.b} − ${source.difference.a} in ${source.difference.metric}` : ""} from the ${source.kind} ${source.file} (K = ${source.documents})`;
  const blocks: ReportBlock[] = [
    {
      kind: "title",
      text: `ragci plan · ${from} · ${plan.halfWidth === null ? "" : `half-width ${plan.halfWidth} at `}${levelPercent(plan.level)} · ${plan.population === null ? "no fpc" : `M = ${plan.population}`}`,
    },
  ];
  const rows: string[][] = [
    [
      "",
      "S",
      ...(plan.halfWidth !== null ? ["documents", "without fpc"] : []),
      ...(plan.difference !== null ? [`to detect ${plan.difference} (power ${plan.power})`] : []),
    ],
  ];
  for (const e of estimands) {
    const b = plan[e];
    if (!b) continue;
    rows.push([
      e,
      significant(b.sd),
      ...(plan.halfWidth !== null ? [String(b.documents), beyondLimit(b.documentsWithoutFpc)] : []),
      ...(b.detect !== undefined
        ? [`${b.detect.documents} (${beyondLimit(b.detect.documentsWithoutFpc)} without fpc)`]
        : []),
    ]);
  }
  blocks.push({ kind: "table", rows, align: ["l", "r", "r", "r", "l"] });
  const curve: string[][] = [["K", ...estimands]];
  plan.curve.forEach((k, i) => {
    curve.push([
      String(k),
      ...estimands.map((e) => fixed(plan[e]?.curve[i]?.halfWidth as number, 4)),
    ]);
  });
  blocks.push({ kind: "heading", text: "half-width against K" });
  blocks.push({ kind: "table", rows: curve, align: ["r", "r", "r"] });
  if (report.stratified) blocks.push(...stratifiedBlocks(report.stratified));
  if (report.facets) blocks.push(...facetBlocks(report.facets));
  blocks.push({ kind: "heading", text: "advice" }, { kind: "bullets", items: [...plan.warnings] });
  return blocks;
}

function stratifiedBlocks(plan: SizeStratifiedPlan): ReportBlock[] {
  const [large, small] = plan.strata;
  const rows: string[][] = [
    ["", "design", "documents for w", "large + small", "half-width at the SRS K"],
  ];
  for (const e of ["macro", "micro"] as const) {
    const p = plan[e];
    rows.push([e, "SRS", String(p.srsDocuments), "", fixed(p.srsHalfWidth, 4)]);
    for (const a of p.allocations) {
      rows.push([
        "",
        a.rule,
        String(a.documents),
        `${a.sampled.large} + ${a.sampled.small}`,
        a.atSrsDocuments ? fixed(a.atSrsDocuments.halfWidth, 4) : "—",
      ]);
    }
  }
  return [
    {
      kind: "heading",
      text: `stratified by size at cutoff ${plan.cutoff}: large ${large?.population} ${large?.population === 1 ? "document, taken whole" : "documents"} (${percent(large?.shareOfResults ?? 0)} of results), small ${small?.population}${small?.population === 1 ? " document, taken whole" : ""}`,
    },
    { kind: "table", rows, align: ["l", "l", "r", "r", "r"] },
    {
      kind: "bullets",
      items: [
        "Predicted from the census (combined ratio for micro); Neyman allocates on each estimand's own S_h, so its counts differ between macro and micro; the stratified interval has ν = K − 2, SRS ν = K − 1.",
      ],
    },
  ];
}

function facetDesignRow(label: string, p: FacetPlan | null): string[] {
  if (!p) return [label, "none within the search's limits", "", "", "", "", ""];
  const n = (x: number) => (Number.isInteger(x) ? String(x) : fixed(x, 1));
  return [
    label,
    n(p.documents),
    n(p.queries),
    n(p.trials),
    n(p.judges),
    significant(p.cost),
    `±${fixed(p.halfWidth, 4)} (ν ${fixed(p.df, 1)})`,
  ];
}

const LIMIT_NAMES = {
  documents: "documents",
  queries: "queries per document",
  trials: "reruns",
  judges: "judges",
} as const;

/**
 * A plan found on the search's bound is the best within the bounds only: say so, with the bound,
 * for each row it concerns (a design past the bound may cost less, or be narrower).
 */
function limitNotes(
  limits: FacetDesign,
  rows: readonly [string, FacetPlan | null | undefined, "cost less" | "be narrower"][],
): string[] {
  const searched = (["judges", "queries", "trials", "documents"] as const)
    .filter((k) => !(k === "judges" && limits.judges === 1))
    .map((k) => `${groupedInteger(limits[k])} ${LIMIT_NAMES[k]}`);
  const notes: string[] = [
    `The search covers balanced designs of up to ${searched.slice(0, -1).join(", ")} and ${searched.at(-1)}: "cheapest" and "narrowest" are within these bounds.`,
  ];
  for (const [label, plan, better] of rows) {
    if (!plan) continue;
    const at = facetsAtLimit(plan, limits);
    if (at.length === 0) continue;
    const bounds = at.map((k) => `${limits[k]} ${LIMIT_NAMES[k]}`).join(" and ");
    const more = at.map((k) => LIMIT_NAMES[k]).join(" or ");
    notes.push(
      `"${label}" has ${bounds}, the search's ${at.length === 1 ? "limit" : "limits"}: it is the best within ${at.length === 1 ? "it" : "them"}, and a design with more ${more} may ${better}.`,
    );
  }
  return notes;
}

/** --cost: the components, the pilot's design and the cheapest (and budget's narrowest) design. */
function facetBlocks(f: FacetPilotPlan | FacetPairPlan): ReportBlock[] {
  const components = Object.entries(f.components)
    .map(([k, v]) => `${facetComponentName(k as FacetComponent)} ${significant(v as number)}`)
    .join(", ");
  const pair = "pair" in f ? f : null;
  const rows = [
    ["", "documents", "queries/doc", "reruns", "judges", "cost", "half-width (judges random)"],
    facetDesignRow("this pilot's design", f.current),
    ...(f.cheapest
      ? [facetDesignRow(`cheapest for ±${f.cheapest.halfWidth}`, f.cheapest.plan)]
      : []),
    ...(f.narrowest
      ? [facetDesignRow(`narrowest for ${f.narrowest.budget}`, f.narrowest.plan)]
      : []),
  ];
  const { document, query, trial, judge } = f.costs;
  const detect = pair?.detect;
  const detectRow = (label: string, p: FacetDetectionPlan | null) =>
    p ? [...facetDesignRow(label, p), fixed(p.detectable, 4)] : facetDesignRow(label, p);
  return [
    {
      kind: "heading",
      text: pair
        ? `across reruns and judges (variance components of the paired difference ${pair.pair.b} − ${pair.pair.a})`
        : "across reruns and judges (variance components of the pilot)",
    },
    {
      kind: "bullets",
      items: [
        `Components (REML): ${components}. Prices: document ${document}, query ${query}, rerun ${trial}, one judge's grade ${judge}${pair ? "; a pair buys each rerun and each grade for both systems, so the costs below count them twice" : ""}.`,
        ...(pair
          ? [
              f.current.trials > 1
                ? `The residual is the noise of one rerun of ${pair.pair.b} minus one of ${pair.pair.a} (prediction noise); document and query are the data noise; more reruns per query shrink only the first.`
                : `The pilot has one run per cell (no reruns), so its residual mixes one rerun's noise of ${pair.pair.b} − ${pair.pair.a} with the query × judge remainder; the plan treats it all as rerun noise, which overstates what reruns buy.`,
              ...(pair.pair.unmatched.a + pair.pair.unmatched.b > 0
                ? [
                    `${pair.pair.unmatched.b} cells of ${pair.pair.b} and ${pair.pair.unmatched.a} of ${pair.pair.a} have no partner (document, query, judge, variant) and are left out of the difference's components.`,
                  ]
                : []),
            ]
          : []),
      ],
    },
    { kind: "table", rows, align: ["l", "r", "r", "r", "r", "r", "l"] },
    ...(detect
      ? [
          {
            kind: "table" as const,
            rows: [
              [
                "",
                "documents",
                "queries/doc",
                "reruns",
                "judges",
                "cost",
                "half-width (judges random)",
                `detects (power ${detect.power})`,
              ],
              detectRow("this pilot's design", detect.current),
              detectRow(`cheapest to detect ${detect.difference}`, detect.plan),
            ],
            align: ["l", "r", "r", "r", "r", "r", "l", "r"] as ("l" | "r")[],
          },
        ]
      : []),
    {
      kind: "bullets",
      items: [
        "Balanced designs with judges drawn from a population: var = σ²_D/D + σ²_Q/(DQ) + σ²_J/J + σ²_DJ/(DJ) + σ²_e/(DQJT), ν by Satterthwaite (docs/facets.md). The pilot's row uses its average queries per document and reruns per cell.",
        ...limitNotes(f.limits, [
          [`cheapest for ±${f.cheapest?.halfWidth}`, f.cheapest?.plan, "cost less"],
          [`narrowest for ${f.narrowest?.budget}`, f.narrowest?.plan, "be narrower"],
          [`cheapest to detect ${detect?.difference}`, detect?.plan, "cost less"],
        ]),
        ...(detect
          ? [
              `Detects: the difference a two-sided test at this level finds with power ${detect.power}, (t(1 − α/2; ν) + t(power; ν))·√var.`,
            ]
          : []),
      ],
    },
  ];
}
