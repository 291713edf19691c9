# R oracle for test/core/facets/*.lme4.test.ts (ragci's faceted variance components against lme4
# and lmerTest).
#
# Usage: Rscript --vanilla facets.R INPUT.json OUTPUT.csv
#
# INPUT.json: {"datasets": [{"index", "level", "doc": [...], "query": [...], "judge": [...] | null,
#   "variant": [...] | null, "y": [...]}]}, one row per trial (rerun).
# OUTPUT.csv: lines "index,quantity,value" (sprintf("%.17g")); index -1 carries the versions.
#   Per data set, for the fit with a tight optimiser ("tight.*": nloptwrap with xtol_rel 1e-12,
#   ftol_abs 1e-14) and lme4's default one ("default.*"): the variances (vc.<group>), the REML
#   criterion, the intercept, its se and lmerTest's Satterthwaite df; and theta.<group> of the
#   tight fit, so that ragci's criterion can be evaluated at lme4's own optimum.
#
# Written and checked with R 4.2.2, lme4 1.1.31, lmerTest 3.1.3, jsonlite 1.8.4. Exits with
# status 3 and a message naming the package when one is missing.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "../../r-crosscheck/preamble.R"))
args <- ragci_oracle("facets.R", c("jsonlite", "lme4", "lmerTest"), "facets.R INPUT.json OUTPUT.csv", 2)
input <- ragci_read_json(args[1])
emit_versions(c("lme4", "lmerTest", "jsonlite"))

group_name <- c(
  "document" = "document", "document:query" = "query", "judge" = "judge",
  "document:judge" = "documentJudge", "variant" = "variant", "Residual" = "residual"
)

for (ds in input$datasets) {
  i <- ds$index
  d <- data.frame(
    y = num(ds$y), document = factor(num(ds$doc)), query = factor(num(ds$query))
  )
  terms <- c("(1 | document)")
  if (isTRUE(ds$fitQuery)) terms <- c(terms, "(1 | document:query)")
  if (!is.null(ds$judge)) {
    d$judge <- factor(num(ds$judge))
    terms <- c(terms, "(1 | judge)")
    if (isTRUE(ds$fitDocumentJudge)) terms <- c(terms, "(1 | document:judge)")
  }
  if (!is.null(ds$variant)) {
    d$variant <- factor(num(ds$variant))
    terms <- c(terms, "(1 | variant)")
  }
  formula <- as.formula(paste("y ~ 1 +", paste(terms, collapse = " + ")))
  quiet <- lmerControl(check.conv.singular = "ignore", calc.derivs = FALSE)
  tight <- lmerControl(
    optimizer = "nloptwrap", check.conv.singular = "ignore", calc.derivs = FALSE,
    optCtrl = list(xtol_rel = 1e-12, xtol_abs = 1e-12, ftol_abs = 1e-14, ftol_rel = 1e-15, maxeval = 1e5)
  )
  for (fit_name in c("tight", "default")) {
    control <- if (fit_name == "tight") tight else quiet
    fit <- suppressWarnings(lmerTest::lmer(formula, data = d, REML = TRUE, control = control))
    vc <- as.data.frame(VarCorr(fit))
    for (r in seq_len(nrow(vc))) emit(i, sprintf("%s.vc.%s", fit_name, group_name[[vc$grp[r]]]), vc$vcov[r])
    co <- summary(fit)$coefficients
    emit(i, sprintf("%s.remlcrit", fit_name), REMLcrit(fit))
    emit(i, sprintf("%s.mean", fit_name), co[1, "Estimate"])
    emit(i, sprintf("%s.se", fit_name), co[1, "Std. Error"])
    emit(i, sprintf("%s.df", fit_name), co[1, "df"])
    if (fit_name == "tight") {
      th <- getME(fit, "theta")
      groups <- sub("\\.\\(Intercept\\)$", "", names(th))
      for (r in seq_along(th)) emit(i, sprintf("theta.%s", group_name[[groups[r]]]), th[[r]])
      # lme4's criterion at θ = 1 for every component: checks the criterion itself, no optimiser.
      devfun <- as.function(fit)
      emit(i, "remlcrit.at.ones", devfun(rep(1, length(th))))
    }
  }
}
write_emitted(args[2])
