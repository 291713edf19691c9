# R oracle for test/core/variance/cv3.test.ts (ragci's CV3 pieces against clubSandwich).
#
# Usage: Rscript --vanilla cv3.R INPUT.json OUTPUT.csv
#
# INPUT.json: {"datasets": [{"index", "n": [...], "s": [...], "binary", "population"}]}, per
#   document its result count n_d and sum s_d; population M or null.
# OUTPUT.csv: lines "index,quantity,value" printed with sprintf("%.17g"); index -1 carries the
#   versions. Written and checked with R 4.2.2 Patched, clubSandwich 0.5.8, jsonlite 1.8.4.
#
# Relations checked (K documents, h_d = n_d/N):
# - vcovCR(lm(s/n ~ 1, weights = n), cluster = doc, type = "CR3") is Σ u_d²/(1 − h_d)² / N²,
#   WITHOUT the jackknife factor (K−1)/K: ragci's V₃ = (K−1)/K · CR3.
# - coef_test(..., test = "Satterthwaite") on that fit with target = 1/n (Var(r_d) ∝ 1/n_d:
#   independent results) gives ν₃; with the default target (identity: Var(r_d) equal across
#   documents) it gives another working model's df, emitted as club.cr3.df.default for the
#   record only. For 0/1 data the query-level lm(y ~ 1) gives the same CR3 and ν₃.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "../../r-crosscheck/preamble.R"))
args <- ragci_oracle("cv3.R", c("jsonlite", "clubSandwich"), "cv3.R INPUT.json OUTPUT.csv", 2)
input <- ragci_read_json(args[1])
emit_versions(c("clubSandwich", "jsonlite"))

for (ds in input$datasets) {
  i <- ds$index
  n <- as.numeric(unlist(ds$n))
  s <- as.numeric(unlist(ds$s))
  K <- length(n)
  doc <- factor(seq_len(K))
  r <- s / n
  fit <- lm(r ~ 1, weights = n)
  v3 <- vcovCR(fit, cluster = doc, type = "CR3")
  v3t <- vcovCR(fit, cluster = doc, type = "CR3", target = 1 / n)
  ct <- coef_test(fit, vcov = v3t, test = "Satterthwaite")
  emit(i, "club.cr3.vcov", v3[1, 1])
  emit(i, "club.cr3.df", ct$df_Satt)
  emit(i, "club.cr3.df.default", coef_test(fit, vcov = v3, test = "Satterthwaite")$df_Satt)
  # logit-cv3 at 95% from clubSandwich's pieces.
  R <- coef(fit)[[1]]
  f <- if (is.null(ds$population)) 1 else 1 - K / ds$population
  se <- sqrt((K - 1) / K * v3[1, 1] * f) / (R * (1 - R))
  q <- qt(0.975, ct$df_Satt)
  emit(i, "logit.lower", plogis(qlogis(R) - q * se))
  emit(i, "logit.upper", plogis(qlogis(R) + q * se))
  if (isTRUE(ds$binary) && max(n) <= 1000) {
    y <- unlist(mapply(function(nd, sd) c(rep(1, sd), rep(0, nd - sd)), n, s, SIMPLIFY = FALSE))
    qfit <- lm(y ~ 1)
    qdoc <- factor(rep(seq_len(K), n))
    qv3 <- vcovCR(qfit, cluster = qdoc, type = "CR3")
    emit(i, "query.cr3.vcov", qv3[1, 1])
    emit(i, "query.cr3.df", coef_test(qfit, vcov = qv3, test = "Satterthwaite")$df_Satt)
  }
}
write_emitted(args[2])
