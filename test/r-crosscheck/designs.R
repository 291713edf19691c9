# R oracle for test/r-crosscheck/designs.test.ts (ragci's stratified and two-stage design
# estimators against the survey package).
#
# Usage: Rscript --vanilla designs.R INPUT.json OUTPUT.csv
#
# INPUT.json: {
#   "stratified": [{"id", "levels": [...], "lonely", "doc": [...], "stratum": [...], "Mh": [...], "n": [...], "s": [...]}],
#   "twostage":   [{"id", "levels": [...], "doc": [...], "psu": [...], "T", "Mi": [...], "n": [...], "s": [...]}],
#   "reference":  [{"id", "levels": [...], "csv": PATH, "design": PATH}]
# }
#   stratified / twostage: one row per document (doc id, its stratum or first-stage unit, that
#   stratum's M_h or that unit's M_i, n_d results and their sum s_d). "lonely" (stratified only):
#   the value of options(survey.lonely.psu =) for that data set: "fail" (the default when
#   absent), "remove", "adjust", "average" or "certainty".
#   reference: a per-query CSV (doc_id, psu, score) and its .design.json (first_stage_population,
#   second_stage_population); R aggregates it per document itself (rowsum).
# OUTPUT.csv: lines "id,quantity,value", value printed with sprintf("%.17g") (round-trips a
#   double exactly); id -1 carries the versions ("-1,version.R,4.2.2").
#
# Per data set, on the per-document frame pd (doc, stratum or psu, Mh or T and Mi, n, s, r = s/n):
#   stratified: des <- svydesign(ids = ~1, strata = ~stratum, fpc = ~Mh, data = pd)
#   two-stage:  des <- svydesign(ids = ~psu + doc, fpc = ~T + Mi, data = pd)
#   micro <- svyratio(~s, ~n, des); macro <- svymean(~r, des)     # coef, SE
#   degf(des); confint(<each>, level = level, df = degf(des)); q = qt(1 - (1 - level)/2, degf(des))
# with survey's default options (survey.lonely.psu = "fail", survey.ultimate.cluster = FALSE),
# except that a stratified data set sets survey.lonely.psu to its "lonely" rule. When survey
# stops ("Stratum (x) has only one PSU at stage 1", the "fail" rule), the data set gets
# "error,1" and "error.stratum,<0-based position of x among the strata in order of appearance>"
# instead of the estimates.
#
# Written and checked with R 4.2.2 Patched (2022-11-10 r83330), survey 4.1.1, jsonlite 1.8.4.
# Exits with status 3 and a message naming the package when one is missing.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "preamble.R"))
args <- ragci_oracle("designs.R", c("jsonlite", "survey"), "designs.R INPUT.json OUTPUT.csv", 2)
# The defaults, stated: a stratum or unit with one sampled PSU is an error, multistage variance.
options(survey.lonely.psu = "fail", survey.ultimate.cluster = FALSE)

input <- ragci_read_json(args[1])
emit_versions(c("survey", "jsonlite"))

# svyratio(~s, ~n) (micro) and svymean(~r) (macro) on one design, with their intervals.
estimates <- function(id, pd, des, levels) {
  emit(id, "data.K", nrow(pd))
  emit(id, "data.N", sum(pd$n))
  emit(id, "data.sum_s", sum(pd$s))
  nu <- degf(des)
  emit(id, "degf", nu)
  rat <- svyratio(~s, ~n, des)
  mn <- svymean(~r, des)
  out <- list(micro = rat, macro = mn)
  for (name in names(out)) {
    est <- out[[name]]
    emit(id, paste0(name, ".estimate"), coef(est))
    emit(id, paste0(name, ".se"), SE(est))
    for (level in levels) {
      ci <- confint(est, level = level, df = nu)
      emit(id, at(paste0(name, ".lower"), level), ci[1, 1])
      emit(id, at(paste0(name, ".upper"), level), ci[1, 2])
    }
  }
  for (level in levels) emit(id, at("q", level), qt(1 - (1 - level) / 2, nu))
}

for (ds in input$stratified) {
  pd <- data.frame(
    doc = chr(ds$doc), stratum = chr(ds$stratum), Mh = num(ds$Mh), n = num(ds$n), s = num(ds$s)
  )
  pd$r <- pd$s / pd$n
  options(survey.lonely.psu = if (is.null(ds$lonely)) "fail" else ds$lonely)
  des <- svydesign(ids = ~1, strata = ~stratum, fpc = ~Mh, data = pd)
  emit(ds$id, "data.H", length(unique(pd$stratum)))
  failed <- tryCatch(
    {
      estimates(ds$id, pd, des, num(ds$levels))
      NULL
    },
    error = function(e) conditionMessage(e)
  )
  if (!is.null(failed)) {
    lonely <- regmatches(failed, regexec("^Stratum \\((.*)\\) has only one PSU at stage 1$", failed))[[1]]
    if (length(lonely) != 2) stop(sprintf("data set %s: unexpected error: %s", ds$id, failed))
    emit(ds$id, "error", 1)
    emit(ds$id, "error.stratum", match(lonely[2], unique(pd$stratum)) - 1)
  }
}
options(survey.lonely.psu = "fail")

two_stage <- function(id, pd, levels) {
  des <- svydesign(ids = ~psu + doc, fpc = ~T + Mi, data = pd)
  emit(id, "data.m", length(unique(pd$psu)))
  estimates(id, pd, des, levels)
}

for (ds in input$twostage) {
  pd <- data.frame(
    doc = chr(ds$doc), psu = chr(ds$psu), T = ds$T, Mi = num(ds$Mi), n = num(ds$n), s = num(ds$s)
  )
  pd$r <- pd$s / pd$n
  two_stage(ds$id, pd, num(ds$levels))
}

for (ds in input$reference) {
  q <- read.csv(ds$csv, colClasses = c(doc_id = "character", psu = "character"))
  design <- jsonlite::fromJSON(ds$design, simplifyVector = FALSE)
  docs <- sort(unique(q$doc_id), method = "radix") # code-point order, like ragci
  psu_of <- tapply(q$psu, q$doc_id, function(p) {
    if (length(unique(p)) != 1) stop(sprintf("reference %s: a document in several units", ds$id))
    p[[1]]
  })
  pd <- data.frame(
    doc = docs,
    psu = as.vector(psu_of[docs]),
    n = as.vector(rowsum(rep(1, nrow(q)), q$doc_id)[docs, 1]),
    s = as.vector(rowsum(q$score, q$doc_id)[docs, 1]),
    T = as.numeric(design$first_stage_population)
  )
  pd$Mi <- vapply(pd$psu, function(p) as.numeric(design$second_stage_population[[p]]), numeric(1))
  pd$r <- pd$s / pd$n
  two_stage(ds$id, pd, num(ds$levels))
  emit(ds$id, "data.results", nrow(q))
}

write_emitted(args[2])
