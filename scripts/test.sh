#!/usr/bin/env bash
# Set up the project in .venv and run every test. Usage: bash scripts/test.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
bash scripts/install-chromium.sh || echo "scripts/test.sh: Chromium could not be installed; browser tests will be skipped" >&2
bash scripts/check.sh
# Compile the search kernels once into Numba's cache before the tests start servers that need them.
.venv/bin/python -c 'from hokm.search.prepare import prepare; prepare(lambda line: print("scripts/test.sh:", line, flush=True))'
# Two passes: everything in parallel, then the tests marked `alone` (timing bounds) by themselves.
# One worker more than the cores: many tests wait on a server, a bot or a browser, and the cores idle
# meanwhile (two cores, one session: the parallel pass took 741 s with 2 workers, 615 s with 3; README).
workers=${HOKM_TEST_WORKERS:-$(( $(nproc 2>/dev/null || echo 2) + 1 ))}
status=0
HOKM_ALONE=exclude .venv/bin/python -m pytest -n "$workers" "$@" || status=$?
alone=0
HOKM_ALONE=only .venv/bin/python -m pytest "$@" || alone=$?
# 5: no test marked `alone` was selected (a run narrowed by its arguments)
if [ "$alone" -ne 0 ] && [ "$alone" -ne 5 ]; then status=$alone; fi
[ "$status" -ne 5 ] || status=0
exit "$status"
