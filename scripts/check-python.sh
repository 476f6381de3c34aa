#!/usr/bin/env bash
# Checks the Python client package (clients/python): `pip install
# ./clients/python` into a fresh venv, the installed package imported from
# there, `mypy --strict` for Python 3.9 on the package and its tests, and the
# tests against a real touchd (the release build) run on the installed package.
# Needs the release touchd (`make check-python` builds it); PyPI for pip's
# build backend (setuptools) and mypy, installed into the venv only.
#
# Environment: BUILD_DIR (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
BUILD_DIR="${BUILD_DIR:-.build}"
[ -x "$BUILD_DIR/release/touchd" ] || { echo "check-python: $BUILD_DIR/release/touchd missing (make release)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/touchd-check-python.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
V="$TMP/venv"
python3 -m venv "$V"
# A copy: setuptools builds in the source directory (build/, *.egg-info).
cp -r clients/python "$TMP/python"
"$V/bin/python" -m pip install -q --disable-pip-version-check "$TMP/python" "mypy==1.15.0"
where=$(cd "$TMP" && "$V/bin/python" -c 'import touchd_client; print(touchd_client.__file__)')
case "$where" in "$V"/*) echo "ok    pip install ./clients/python: $where" ;;
    *) echo "FAIL  touchd_client imported from $where, not the venv" >&2; exit 1 ;; esac
# mypy 1.15: later ones no longer check for Python 3.9.
"$V/bin/mypy" --strict --python-version 3.9 --no-error-summary clients/python/touchd_client clients/python/tests
echo "ok    mypy --strict --python-version 3.9: touchd_client and its tests"
(cd "$TMP" && TOUCHD_CLIENT_INSTALLED=1 TOUCHD="$ROOT/$BUILD_DIR/release/touchd" \
    "$V/bin/python" -m unittest discover -s "$ROOT/clients/python/tests" -v)
