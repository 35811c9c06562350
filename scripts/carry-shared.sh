#!/usr/bin/env bash
# Copies ../shared/data into .shared/data (ignored by git) so a device call can carry it:
# run once, then pass carry: [".deps", ".shared"]; scripts/device-run.sh links ../shared to it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d ../shared/data ] || { echo "carry-shared: ../shared/data not found" >&2; exit 1; }
rm -rf .shared && mkdir -p .shared && cp -r ../shared/data .shared/data
du -sh .shared
