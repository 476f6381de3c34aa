#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the Python client package (clients/python): its sdist and wheel
# built with PyPA's build, the wheel installed into a fresh venv and imported
# from there, the sdist installed into another, `mypy --strict` for Python 3.9 on the package and its tests, and the
# tests against a real touchd (the release build) run on the installed package,
# and on Python 3.9 when the machine has one.
# Needs the release touchd (`make check-python` builds it); PyPI for build,
# its backend (setuptools) and mypy, installed into the venvs only.
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
"$V/bin/python" -m pip install -q --disable-pip-version-check build "mypy==1.15.0"
# The sdist and the wheel a release would publish, built as PyPA's build does.
"$V/bin/python" -m build -q --outdir "$TMP/dist" "$TMP/python" >"$TMP/build.log" 2>&1 \
    || { cat "$TMP/build.log"; echo "FAIL  python -m build clients/python"; exit 1; }
version=$(cd clients/python && python3 -c 'import touchd_client; print(touchd_client.__version__)')
wheel="$TMP/dist/touchd_client-$version-py3-none-any.whl"
sdist=""
for f in "$TMP/dist/touchd_client-$version.tar.gz" "$TMP/dist/touchd-client-$version.tar.gz"; do [ -f "$f" ] && sdist="$f"; done
[ -f "$wheel" ] && [ -n "$sdist" ] || { echo "FAIL  no wheel and sdist of version $version in: $(ls "$TMP/dist")"; exit 1; }
case "$(python3 -m zipfile -l "$wheel")" in *touchd_client/py.typed*) ;; *) echo "FAIL  the wheel lacks py.typed"; exit 1 ;; esac
echo "ok    python -m build: $(basename "$sdist") and $(basename "$wheel") (the version from touchd_client.__version__)"
# The wheel into a fresh venv: what the tests below run.
"$V/bin/python" -m pip install -q --disable-pip-version-check "$wheel"
where=$(cd "$TMP" && "$V/bin/python" -c 'import touchd_client; print(touchd_client.__file__, touchd_client.__version__)')
case "$where" in "$V"/*" $version") echo "ok    the wheel installed into a fresh venv: $where" ;;
    *) echo "FAIL  touchd_client imported from $where, not the venv's wheel" >&2; exit 1 ;; esac
# And the sdist builds and installs on its own (pip install ./clients/python is the same path).
S="$TMP/sdist-venv"
python3 -m venv "$S"
"$S/bin/python" -m pip install -q --disable-pip-version-check "$sdist"
(cd "$TMP" && "$S/bin/python" -c 'import touchd_client, sys; sys.exit(touchd_client.__version__ != "'"$version"'")') \
    || { echo "FAIL  the sdist does not install"; exit 1; }
echo "ok    the sdist installs into a fresh venv"
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
