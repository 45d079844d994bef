#!/usr/bin/env bash
# Lints terraform/: checkov (static security analysis) and, when a terraform binary is on PATH,
# `terraform fmt -check`. checkov lives in its own venv (.venv-checkov) because it is large and pins
# dependencies that would conflict with the project's .venv.
#
# Skips are inline, next to the resource they concern, as `#checkov:skip=ID:reason`
# (currently only CKV2_GCP_34 on the index endpoint: public by design, PSC is the opt-in).
set -euo pipefail

cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
CHECKOV_VENV="${CHECKOV_VENV:-.venv-checkov}"
CHECKOV_VERSION="3.3.30"
stamp="$CHECKOV_VENV/.checkov-$CHECKOV_VERSION"

if [ ! -f "$stamp" ]; then
  test -x "$CHECKOV_VENV/bin/python" || "$PYTHON" -m venv "$CHECKOV_VENV"
  "$CHECKOV_VENV/bin/python" -m pip install --quiet --upgrade pip
  "$CHECKOV_VENV/bin/python" -m pip install --quiet "checkov==$CHECKOV_VERSION"
  touch "$stamp"
fi

"$CHECKOV_VENV/bin/checkov" -d terraform --framework terraform --skip-download --quiet --compact

if command -v terraform >/dev/null 2>&1; then
  terraform fmt -check -recursive -diff terraform
  echo "terraform fmt: ok"
else
  echo "terraform fmt: skipped (no terraform binary on PATH)"
fi
