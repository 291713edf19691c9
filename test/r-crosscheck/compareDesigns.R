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

missing_packages <- Filter(
  function(p) !requireNamespace(p, quietly = TRUE),
  c("jsonlite", "survey")
)
if (length(missing_packages) > 0) {
  message(sprintf("ragci r-crosscheck: R package(s) not installed: %s", paste(missing_packages, collapse = ", ")))
  quit(status = 3)
}
suppressPackageStartupMessages(library(survey))

args <- commandArgs(trailingOnly = TRUE)
cases <- jsonlite::fromJSON(args[1], simplifyVector = FALSE)
lines <- character(0)
put <- function(id, name, value) {
  if (length(value) != 1) stop(sprintf("data set %s, %s: expected one value", id, name))
  lines[length(lines) + 1] <<- sprintf("%s,%s,%.17g", id, name, value)
}
lines[length(lines) + 1] <- sprintf("-1,version.R,%s", paste(R.version$major, R.version$minor, sep = "."))
lines[length(lines) + 1] <- sprintf("-1,version.survey,%s", as.character(packageVersion("survey")))

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
  put(cs$id, "documents", nrow(pd))
  put(cs$id, "df", df)
  put(cs$id, "micro.estimate", coef(micro))
  put(cs$id, "micro.se", SE(micro))
  put(cs$id, "micro.lower", ci_micro[1])
  put(cs$id, "micro.upper", ci_micro[2])
  put(cs$id, "macro.estimate", coef(macro))
  put(cs$id, "macro.se", SE(macro))
  put(cs$id, "macro.lower", ci_macro[1])
  put(cs$id, "macro.upper", ci_macro[2])
}
writeLines(lines, args[2])
