#!/usr/bin/env bash
# Static checks: ruff (likely bugs, import order, modern syntax) and mypy (the rules, the engine and
# records with --strict's checks, the rest of the package at mypy's default; pyproject.toml).
# Usage: bash scripts/check.sh  (after scripts/test.sh has set up .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m ruff check src tests scripts examples
.venv/bin/python -m mypy src/hokm
