#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Debian packages touchd, libtouchd-client1 and libtouchd-client-dev
# (NAME_VERSION_ARCH.deb) from the release binaries of .build/release (`make
# deb` builds them first) and clients/c, with dpkg-deb from staged trees
# (docs/deploy.md, "The Debian package", says why). touchd:
#  - the tree is `make install-files PREFIX=/usr` (one list of installed files
#    for `make install` and the package), plus the package's own files;
#  - the release build links the Swift runtime statically: no library of the
#    toolchain is shipped;
#  - one binary for touchd and touchctl (a hard link), stripped with its
#    debug information in touchd-dbgsym; libraries stripped; man pages and
#    changelog compressed;
#  - Depends from dpkg-shlibdeps on every ELF file of the package;
#  - /etc/touchd/touchd.yaml a conffile; maintainer scripts from
#    packaging/debian.
# libtouchd-client1 has the shared library (Debian's hardening flags, the
# multiarch directory, shlibs, the ldconfig trigger), libtouchd-client-dev the
# header, the .so link and the pkg-config file.
# touchd-dbgsym (the debug information of touchd and touchctl, split off before
# stripping) is written next to them and not printed.
# Prints the paths of the three packages, touchd first.
#
# Environment: BUILD_DIR (default .build), DEB_DIR (output directory, default
#              $BUILD_DIR/deb), MAKE (default make), DEB_MAINTAINER (the
#              Maintainer field).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-.build}"
DEB_DIR="${DEB_DIR:-$BUILD_DIR/deb}"
MAKE="${MAKE:-make}"
# The Maintainer field and the changelog's signature.
DEB_MAINTAINER="${DEB_MAINTAINER:-touchd developers <maintainers@users.noreply.a-seed-49cabcb9.example>}"

need=()
command -v dpkg-shlibdeps >/dev/null || need+=(dpkg-dev)
if ((${#need[@]})); then
    if [ "$(id -u)" != 0 ]; then echo "make-deb: missing ${need[*]} (need root to install)" >&2; exit 1; fi
    echo "make-deb: installing ${need[*]}" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
for b in touchd touchctl; do
    [ -x "$BUILD_DIR/release/$b" ] || { echo "make-deb: $BUILD_DIR/release/$b missing (make release)" >&2; exit 2; }
done

VERSION=$(sed -n 's/^public let serverVersion = "\(.*\)"$/\1/p' Sources/Wire/Messages.swift)
[ -n "$VERSION" ] || { echo "make-deb: no serverVersion in Sources/Wire/Messages.swift" >&2; exit 1; }
ARCH=$(dpkg --print-architecture)

TMP=$(mktemp -d /tmp/touchd-deb.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
umask 022
R="$TMP/root"

# --- the files of make install ---------------------------------------------------
"$MAKE" --no-print-directory -s install-files DESTDIR="$R" PREFIX=/usr BUILD_DIR="$BUILD_DIR" >"$TMP/install.log" 2>&1 \
    || { cat "$TMP/install.log" >&2; exit 1; }

# --- one binary, the Swift runtime linked in ------------------------------------------
# `make release` links the Swift runtime statically (docs/deploy.md, "Size"):
# nothing of the toolchain's directory is loaded, so nothing of it is shipped.
if ldd "$BUILD_DIR/release/touchctl" | grep -q 'libswiftCore\.so'; then
    echo "make-deb: $BUILD_DIR/release/touchctl loads the Swift runtime: build it with make release (--static-swift-stdlib)" >&2
    exit 1
fi
# One binary for both commands: touchctl links all of touchd's code and runs it
# when started as touchd (Sources/touchctl/Touchctl.swift), so /usr/bin/touchd
# becomes a hard link to it below, after stripping (which would break the link).
rm "$R/usr/bin/touchd"
# Its debug information goes apart, into touchd-dbgsym
# (/usr/lib/debug/.build-id/xx/yyyy.debug, where gdb looks it up by build id),
# as Debian's dh_strip does.
DBG="$TMP/dbgsym"
f="$R/usr/bin/touchctl"
build_id=$(readelf -n "$f" | awk '/Build ID:/ { print $3 }')
[ -n "$build_id" ] || { echo "make-deb: $f has no build id" >&2; exit 1; }
debug="$DBG/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug"
install -d "$(dirname "$debug")"
objcopy --only-keep-debug --compress-debug-sections "$f" "$debug"
chmod 0644 "$debug"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"
ln "$f" "$R/usr/bin/touchd"

# finish_package ROOT NAME DEPENDS: the copyright and changelog, the control
# file from packaging/debian/NAME.control.in, md5sums; builds the package and
# prints its path.
CHANGELOG_DATE=$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")
finish_package() {
    local root="$1" name="$2" depends="$3"
    local doc="$root/usr/share/doc/$name"
    install -d "$doc" "$root/DEBIAN"
    install -m 0644 packaging/debian/copyright "$doc/copyright"
    sed -e "s/@VERSION@/$VERSION/" -e "s|@MAINTAINER@|$DEB_MAINTAINER|" -e "s/@DATE@/$CHANGELOG_DATE/" \
        -e "s/^touchd (/$name (/" packaging/debian/changelog | gzip -9n >"$doc/changelog.gz"
    chmod 0644 "$doc/changelog.gz"
    local size; size=$(du -k -s --apparent-size --exclude=DEBIAN "$root" | cut -f1)
    sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
        -e "s|@MAINTAINER@|$DEB_MAINTAINER|" "packaging/debian/$name.control.in" >"$root/DEBIAN/control"
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
    chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
    mkdir -p "$DEB_DIR"
    local out="$DEB_DIR/${name}_${VERSION}_${ARCH}.deb"
    dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
    echo "$out"
}

# shlibs_depends ROOT [dpkg-shlibdeps options]: the Depends of the ELF files
# under ROOT/usr (dpkg-shlibdeps wants a debian/control around it).
shlibs_depends() {
    local root="$1"; shift
    mkdir -p "$TMP/src/debian"
    printf 'Source: touchd\n\nPackage: touchd\nArchitecture: any\n' >"$TMP/src/debian/control"
    local elves; elves=$(cd "$root" && find usr -type f \( -path 'usr/bin/*' -o -name '*.so*' \) -printf "$root/%p\n")
    local depends
    depends=$(cd "$TMP/src" && dpkg-shlibdeps -O -S"$root" "$@" $elves 2>"$TMP/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') \
        || { cat "$TMP/shlibdeps.log" >&2; return 1; }
    [ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependency in $root" >&2; cat "$TMP/shlibdeps.log" >&2; return 1; }
    echo "$depends"
}

# --- touchd -------------------------------------------------------------------------
gzip -9n "$R"/usr/share/man/man*/*
install -d "$R/DEBIAN"
install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$R/DEBIAN/"
(cd "$R" && find etc -type f -printf '/%p\n' | sort) >"$R/DEBIAN/conffiles"
chmod 0644 "$R/DEBIAN/conffiles"
finish_package "$R" touchd "$(shlibs_depends "$R")"

# --- libtouchd-client1 and libtouchd-client-dev (clients/c) --------------------------------
# Built with Debian's hardening flags (all of them: bindnow too); the library
# in the multiarch directory.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
C_OUT="$TMP/c-build"
make -s -C clients/c OUT="$C_OUT" PREFIX=/usr LIBDIR="/usr/lib/$MULTIARCH" \
    CFLAGS="$(dpkg-buildflags --get CFLAGS)" CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
    LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" install DESTDIR="$TMP/c-dest" >"$TMP/c.log" 2>&1 \
    || { cat "$TMP/c.log" >&2; exit 1; }
L="$TMP/lib"; LD="$TMP/dev"; libdir="usr/lib/$MULTIARCH"
install -d "$L/$libdir" "$LD/$libdir/pkgconfig" "$LD/usr/include" "$L/DEBIAN"
cp -P "$TMP/c-dest/$libdir"/libtouchd-client.so.1* "$L/$libdir/"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$L/$libdir"/libtouchd-client.so.1.*
cp -P "$TMP/c-dest/$libdir/libtouchd-client.so" "$LD/$libdir/"
install -m 0644 "$TMP/c-dest/$libdir/pkgconfig/touchd-client.pc" "$LD/$libdir/pkgconfig/"
install -m 0644 "$TMP/c-dest/usr/include/touchd-client.h" "$LD/usr/include/"
soversion=$(objdump -p "$L/$libdir"/libtouchd-client.so.1.* | awk '/SONAME/ { sub(/.*\.so\./, "", $2); print $2 }')
echo "libtouchd-client $soversion libtouchd-client1 (>= $VERSION)" >"$L/DEBIAN/shlibs"
# The symbols file (packaging/debian): each exported symbol and the version that added it.
install -m 0644 packaging/debian/libtouchd-client1.symbols "$L/DEBIAN/symbols"
echo "activate-noawait ldconfig" >"$L/DEBIAN/triggers"
chmod 0644 "$L/DEBIAN/shlibs" "$L/DEBIAN/triggers"
finish_package "$L" libtouchd-client1 "$(shlibs_depends "$L")"
finish_package "$LD" libtouchd-client-dev ""

# --- touchd-dbgsym: the debug information of touchd and touchctl -----------------------
install -d "$DBG/DEBIAN"
finish_package "$DBG" touchd-dbgsym "touchd (= $VERSION)" >/dev/null
