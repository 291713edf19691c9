# The set-up every R oracle of ragci's tests shares: test/r-crosscheck/*.R,
# test/core/variance/cv3.R and test/fixtures/covidqa-compare.R source this file from its path
# relative to their own, so that they can be run from any directory:
#
#   source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
#     value = TRUE)[1])), "preamble.R"))
#
# ragci_oracle(script, packages, usage, arguments) checks that the packages are installed (exit
#   status 3 and a message naming the missing ones and how to install them), attaches all but
#   jsonlite quietly, checks the number of command-line arguments (exit status 2 with the usage)
#   and returns them. ragci_read_json(path) reads the input as lists (jsonlite, no data frames).
# emit(id, name, value) adds a line "id,name,value", the value printed with sprintf("%.17g")
#   (which round-trips a double exactly); emit_versions(packages) adds the id −1 lines
#   "-1,version.R,4.2.2" and one per package; write_emitted(path) writes them all.
# at(name, level) names a quantity at a level ("q@0.95"); num and chr flatten a JSON array.

ragci_oracle <- function(script, packages, usage, arguments) {
  missing_packages <- Filter(function(p) !requireNamespace(p, quietly = TRUE), packages)
  if (length(missing_packages) > 0) {
    message(sprintf(
      "%s: R package(s) not installed: %s (install.packages(c(%s)))",
      script,
      paste(missing_packages, collapse = ", "),
      paste(sprintf('"%s"', missing_packages), collapse = ", ")
    ))
    quit(status = 3)
  }
  for (p in setdiff(packages, "jsonlite")) {
    suppressPackageStartupMessages(library(p, character.only = TRUE))
  }
  args <- commandArgs(trailingOnly = TRUE)
  if (length(args) != arguments) {
    message(sprintf("usage: Rscript --vanilla %s", usage))
    quit(status = 2)
  }
  args
}

ragci_read_json <- function(path, ...) jsonlite::fromJSON(path, simplifyDataFrame = FALSE, ...)

.ragci_emitted <- new.env()
.ragci_emitted$lines <- character(0)

emit <- function(id, name, value) {
  value <- as.numeric(value)
  if (length(value) != 1) {
    stop(sprintf("data set %s, %s: expected one value, got %d", id, name, length(value)))
  }
  .ragci_emitted$lines <- c(.ragci_emitted$lines, sprintf("%s,%s,%.17g", id, name, value))
}

emit_versions <- function(packages) {
  versions <- c(
    sprintf("-1,version.R,%s", paste(R.version$major, R.version$minor, sep = ".")),
    vapply(packages, function(p) {
      sprintf("-1,version.%s,%s", p, as.character(packageVersion(p)))
    }, character(1))
  )
  .ragci_emitted$lines <- c(.ragci_emitted$lines, unname(versions))
}

write_emitted <- function(path) writeLines(.ragci_emitted$lines, path)

at <- function(name, level) sprintf("%s@%s", name, format(level, digits = 15))
num <- function(x) as.numeric(unlist(x))
chr <- function(x) as.character(unlist(x))
