#!/usr/bin/env bash
# Set up the project in .venv and run every test. Usage: bash scripts/test.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
bash scripts/install-chromium.sh || echo "scripts/test.sh: Chromium could not be installed; browser tests will be skipped" >&2
exec .venv/bin/python -m pytest -n 2 "$@"
