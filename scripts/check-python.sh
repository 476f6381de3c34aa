#!/usr/bin/env bash
# Checks the Python client package (clients/python): `pip install
# ./clients/python` into a fresh venv, the installed package imported from
# there, `mypy --strict` for Python 3.9 on the package and its tests, and the
# tests against a real touchd (the release build) run on the installed package,
# and on Python 3.9 when the machine has one.
# Needs the release touchd (`make check-python` builds it); PyPI for pip's
# build backend (setuptools) and mypy, installed into the venv only.
#
# Environment: BUILD_DIR (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
BUILD_DIR="${BUILD_DIR:-.build}"
TOUCHD="$(realpath -m "$BUILD_DIR/release/touchd")"
[ -x "$TOUCHD" ] || { echo "check-python: $BUILD_DIR/release/touchd missing (make release)" >&2; exit 2; }

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
(cd "$TMP" && TOUCHD_CLIENT_INSTALLED=1 TOUCHD="$TOUCHD" \
    "$V/bin/python" -m unittest discover -s "$ROOT/clients/python/tests" -v)
# The oldest Python the package supports, when this machine has one (pyenv's).
py39=""
for candidate in $(command -v pyenv >/dev/null && ls -d "$(pyenv root)"/versions/3.9*/bin/python3 2>/dev/null) \
        $(command -v python3.9 || true); do
    "$candidate" --version >/dev/null 2>&1 && { py39="$candidate"; break; }
done
if [ -n "$py39" ]; then
    TOUCHD="$TOUCHD" "$py39" -m unittest discover -s clients/python/tests 2>&1 | tail -1 \
        | grep -qx OK && echo "ok    the tests on $("$py39" --version) (the package of the tree)" \
        || { echo "FAIL  the tests on $py39"; exit 1; }
else
    echo "skip  no Python 3.9 here: the tests ran on $(python3 --version) only (mypy checked for 3.9)"
fi
