# R oracle for test/r-crosscheck/srs.test.ts (ragci SRS estimators against clubSandwich and survey).
#
# Usage: Rscript --vanilla srs.R INPUT.json OUTPUT.csv
#
# INPUT.json: {"datasets": [{"index", "k", "population", "levels": [...], "doc": [...], "y": [...]}]}
#   one row per query result: doc = document code, y = the result (0/1 or a score).
# OUTPUT.csv: lines "index,quantity,value", value printed with sprintf("%.17g") (round-trips a
#   double exactly); index -1 carries the versions ("-1,version.R,4.2.2").
#
# Written and checked with R 4.2.2 Patched (2022-11-10 r83330), clubSandwich 0.5.8, survey 4.1.1,
# jsonlite 1.8.4. Exits with status 3 and a message naming the package when one is missing.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "preamble.R"))
args <- ragci_oracle("srs.R", c("jsonlite", "clubSandwich", "survey"), "srs.R INPUT.json OUTPUT.csv", 2)
input <- ragci_read_json(args[1])
emit_versions(c("clubSandwich", "survey", "jsonlite"))

for (ds in input$datasets) {
  i <- ds$index
  K <- ds$k
  M <- ds$population
  levels <- as.numeric(unlist(ds$levels))
  d <- data.frame(y = as.numeric(unlist(ds$y)), doc = factor(unlist(ds$doc)))
  if (nlevels(d$doc) != K) stop(sprintf("data set %d: %d documents, expected %d", i, nlevels(d$doc), K))
  emit(i, "data.N", nrow(d))
  emit(i, "data.sum_y", sum(d$y))

  # 1. clubSandwich on the per-query data, intercept-only model.
  fit <- lm(y ~ 1, data = d)
  v2 <- vcovCR(fit, cluster = d$doc, type = "CR2")
  v1 <- vcovCR(fit, cluster = d$doc, type = "CR1")
  v0 <- vcovCR(fit, cluster = d$doc, type = "CR0")
  ct2 <- coef_test(fit, vcov = v2, test = "Satterthwaite") # v2: the vcovCR(..., "CR2") above
  ct1 <- coef_test(fit, vcov = "CR1", cluster = d$doc, test = "naive-t")
  emit(i, "lm.coef", coef(fit)[[1]])
  emit(i, "club.cr2.vcov", v2[1, 1])
  emit(i, "club.cr2.se", ct2$SE)
  emit(i, "club.cr2.df", ct2$df_Satt)
  emit(i, "club.cr1.vcov", v1[1, 1])
  emit(i, "club.cr0.vcov", v0[1, 1])
  emit(i, "club.cr1.se", ct1$SE)
  emit(i, "club.cr1.df", ct1$df_t)
  est <- ct2$beta
  for (level in levels) {
    q2 <- qt(1 - (1 - level) / 2, ct2$df_Satt)
    emit(i, at("club.cr2.q", level), q2)
    emit(i, at("club.cr2.lower", level), est - q2 * ct2$SE)
    emit(i, at("club.cr2.upper", level), est + q2 * ct2$SE)
    q1 <- qt(1 - (1 - level) / 2, ct1$df_t)
    emit(i, at("club.cr1.q", level), q1)
    emit(i, at("club.cr1.lower", level), ct1$beta - q1 * ct1$SE)
    emit(i, at("club.cr1.upper", level), ct1$beta + q1 * ct1$SE)
  }
  # CR2 with the finite population correction: clubSandwich has none, so its se × √(1 − K/M).
  f <- 1 - K / M
  emit(i, "club.cr2.fpc.se", ct2$SE * sqrt(f))
  for (level in levels) {
    q2 <- qt(1 - (1 - level) / 2, ct2$df_Satt)
    emit(i, at("club.cr2.fpc.lower", level), est - q2 * ct2$SE * sqrt(f))
    emit(i, at("club.cr2.fpc.upper", level), est + q2 * ct2$SE * sqrt(f))
  }

  # 2. survey on the per-document sums, SRS of documents with and without fpc.
  s <- as.vector(rowsum(d$y, d$doc))
  n <- as.vector(rowsum(rep(1, nrow(d)), d$doc))
  pd <- data.frame(s = s, n = n, r = s / n, M = M)
  designs <- list(
    svy = suppressWarnings(svydesign(ids = ~1, data = pd)), # "assuming equal probability"
    svyfpc = svydesign(ids = ~1, fpc = ~M, data = pd)
  )
  for (name in names(designs)) {
    des <- designs[[name]]
    rat <- svyratio(~s, ~n, des)
    mn <- svymean(~r, des)
    emit(i, paste0(name, ".degf"), degf(des))
    emit(i, paste0(name, ".ratio"), coef(rat))
    emit(i, paste0(name, ".ratio.se"), SE(rat))
    emit(i, paste0(name, ".mean"), coef(mn))
    emit(i, paste0(name, ".mean.se"), SE(mn))
    for (level in levels) {
      cm <- confint(mn, level = level, df = degf(des))
      emit(i, at(paste0(name, ".mean.lower"), level), cm[1, 1])
      emit(i, at(paste0(name, ".mean.upper"), level), cm[1, 2])
      cr <- confint(rat, level = level, df = degf(des))
      emit(i, at(paste0(name, ".ratio.lower"), level), cr[1, 1])
      emit(i, at(paste0(name, ".ratio.upper"), level), cr[1, 2])
    }
  }
}

write_emitted(args[2])
