# Kenward–Roger against Satterthwaite for the population-of-judges interval, in R (lme4,
# lmerTest, pbkrtest: Debian's r-cran-lme4, r-cran-lmertest, r-cran-pbkrtest).
#   Rscript bench/facets-kenward-roger.R REPS SEED JUDGE_SD MISSING_SHARE
# The setting of bench/facets-coverage.mjs: 0/1 outcomes, 30 documents × 4 queries × 3 judges,
# logit p = a_d + b_dq + c_j, a, b ~ N(0, 0.5²), c ~ N(0, JUDGE_SD²); MISSING_SHARE of the
# rows dropped at random (0 keeps the design balanced). lme4's model as ragci fits it
# (document, query within document, judge, document × judge); 95% intervals for the
# intercept from lmerTest's contest() with ddf = "Satterthwaite" and "Kenward-Roger", scored
# against E[expit(S Z)], S² = 0.5² + 0.5² + JUDGE_SD².
suppressMessages({
  library(lme4)
  library(lmerTest)
  library(pbkrtest)
})
args <- commandArgs(TRUE)
reps <- as.integer(args[1])
seed <- as.integer(args[2])
sj <- as.numeric(args[3])
missing <- as.numeric(args[4])
set.seed(seed)
D <- 30; Q <- 4; J <- 3
S <- sqrt(0.5^2 + 0.5^2 + sj^2)
z <- seq(-8, 8, by = 0.002); w <- dnorm(z)
truth <- sum(w * plogis(S * z)) / sum(w)
res <- matrix(NA, reps, 6, dimnames = list(NULL, c("covS", "wS", "covKR", "wKR", "dfS", "dfKR")))
for (r in 1:reps) {
  a <- rnorm(D, 0, .5); b <- rnorm(D * Q, 0, .5); cj <- rnorm(J, 0, sj)
  g <- expand.grid(j = 1:J, q = 1:Q, d = 1:D)
  g$y <- rbinom(nrow(g), 1, plogis(a[g$d] + b[(g$d - 1) * Q + g$q] + cj[g$j]))
  if (missing > 0) g <- g[runif(nrow(g)) > missing, ]
  g$dq <- factor(paste(g$d, g$q)); g$dj <- factor(paste(g$d, g$j))
  g$d <- factor(g$d); g$j <- factor(g$j)
  m <- suppressMessages(suppressWarnings(
    lmer(y ~ 1 + (1 | d) + (1 | dq) + (1 | j) + (1 | dj), data = g, REML = TRUE)))
  est <- fixef(m)[[1]]
  s <- contest(m, L = 1, ddf = "Satterthwaite", joint = FALSE)
  k <- contest(m, L = 1, ddf = "Kenward-Roger", joint = FALSE)
  hS <- qt(.975, s$df) * s$`Std. Error`
  hK <- qt(.975, k$df) * k$`Std. Error`
  res[r, ] <- c(abs(est - truth) <= hS, 2 * hS, abs(est - truth) <= hK, 2 * hK, s$df, k$df)
}
mcse <- function(p) 100 * sqrt(p * (1 - p) / reps)
cat(sprintf(paste0(
  "judge sd %.2f, %.0f%% rows missing, %d repetitions (seed %d):\n",
  "  Satterthwaite coverage %.1f%% ± %.1f, mean width %.3f, median ν %.2f\n",
  "  Kenward-Roger coverage %.1f%% ± %.1f, mean width %.3f, median ν %.2f\n"),
  sj, 100 * missing, reps, seed,
  100 * mean(res[, 1]), mcse(mean(res[, 1])), mean(res[, 2]), median(res[, 5]),
  100 * mean(res[, 3]), mcse(mean(res[, 3])), mean(res[, 4]), median(res[, 6])))
