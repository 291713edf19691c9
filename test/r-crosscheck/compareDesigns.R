# R oracle for test/r-crosscheck/compareDesigns.test.ts: `ragci compare --design` against the
# survey package, from the per-query files themselves.
#
# Usage: Rscript --vanilla compareDesigns.R INPUT.json OUTPUT.csv
#
# INPUT.json: [{"id", "csv": PATH, "kind": "stratified" | "two-stage", "a", "b", "metric",
#               "label": COLUMN, "population": {name: M_h or M_i, ...}, "T": first-stage T,
#               "level"}]
#   csv: per-query results, columns doc_id, query_id, system, <label>, <metric>.
# Per data set R pairs the two systems on query_id, takes x = b - a per query, sums per
# document (n_d queries, s_d = sum of x), and on the per-document frame:
#   stratified: des <- svydesign(ids = ~1, strata = ~label, fpc = ~M, data = pd)
#   two-stage:  des <- svydesign(ids = ~label + doc, fpc = ~T + M, data = pd)
#   micro <- svyratio(~s, ~n, des); macro <- svymean(~r, des)   (r = s / n)
#   confint(<each>, level = level, df = degf(des))
# OUTPUT.csv: lines "id,quantity,value" (sprintf("%.17g")); id -1 carries the versions.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "preamble.R"))
args <- ragci_oracle("compareDesigns.R", c("jsonlite", "survey"), "compareDesigns.R INPUT.json OUTPUT.csv", 2)
cases <- ragci_read_json(args[1], simplifyVector = FALSE)
emit_versions(c("survey", "jsonlite"))

for (cs in cases) {
  rows <- read.csv(cs$csv, colClasses = "character")
  value <- as.numeric(rows[[cs$metric]])
  a <- rows[rows$system == cs$a, ]
  b <- rows[rows$system == cs$b, ]
  va <- value[rows$system == cs$a]
  vb <- value[rows$system == cs$b]
  m <- match(a$query_id, b$query_id)
  if (anyNA(m) || length(m) != nrow(b)) stop(sprintf("data set %s: queries do not pair", cs$id))
  x <- vb[m] - va
  doc <- a$doc_id
  label <- a[[cs$label]]
  docs <- sort(unique(doc))
  pd <- data.frame(
    doc = docs,
    label = label[match(docs, doc)],
    n = as.numeric(table(factor(doc, levels = docs))),
    s = as.numeric(tapply(x, factor(doc, levels = docs), sum))
  )
  pd$r <- pd$s / pd$n
  pd$M <- unlist(cs$population[pd$label])
  des <- if (cs$kind == "stratified") {
    svydesign(ids = ~1, strata = ~label, fpc = ~M, data = pd)
  } else {
    pd$T <- cs$T
    svydesign(ids = ~label + doc, fpc = ~T + M, data = pd)
  }
  df <- degf(des)
  micro <- svyratio(~s, ~n, des)
  macro <- svymean(~r, des)
  ci_micro <- confint(micro, level = cs$level, df = df)
  ci_macro <- confint(macro, level = cs$level, df = df)
  emit(cs$id, "documents", nrow(pd))
  emit(cs$id, "df", df)
  emit(cs$id, "micro.estimate", coef(micro))
  emit(cs$id, "micro.se", SE(micro))
  emit(cs$id, "micro.lower", ci_micro[1])
  emit(cs$id, "micro.upper", ci_micro[2])
  emit(cs$id, "macro.estimate", coef(macro))
  emit(cs$id, "macro.se", SE(macro))
  emit(cs$id, "macro.lower", ci_macro[1])
  emit(cs$id, "macro.upper", ci_macro[2])
}
write_emitted(args[2])
