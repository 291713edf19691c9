#!/usr/bin/env bash
# Installs what the tests need beyond npm's packages, on Debian (as root, or with sudo):
#   r-base-core r-cran-clubsandwich r-cran-survey r-cran-jsonlite  the R cross-check oracles
#   r-cran-lme4 r-cran-lmertest                    the faceted fit's oracles (test/core/facets)
#   python3-numpy                                                  the numpy oracle (if python3 has none)
#   chromium                                   the HTML report's browser tests (driven by playwright-core)
#   postgresql clickhouse-server               the database tests, which start throwaway servers
#                                              of their own on 127.0.0.1 (test/postgres, test/clickhouse)
# then the npm packages (npm ci) when node_modules is missing. Safe to run again: it installs
# only what is missing. Used by .ci/run and by the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(r-base-core r-cran-clubsandwich r-cran-survey r-cran-jsonlite r-cran-lme4 r-cran-lmertest python3-numpy chromium postgresql clickhouse-server)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
    echo "install-test-deps: needs root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  echo "install-test-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ -d node_modules ] || npm ci --no-audit --no-fund
