#!/usr/bin/env bash
# Builds the Debian package touchd_VERSION_ARCH.deb from the release binaries
# of .build/release (`make deb` builds them first), with dpkg-deb from a staged
# tree (docs/deploy.md, "The Debian package", says why):
#  - the tree is `make install-files PREFIX=/usr` (one list of installed files
#    for `make install` and the package), plus the package's own files;
#  - the Swift runtime libraries the binaries load go to the private directory
#    /usr/lib/touchd, and the binaries' RUNPATH is set to it;
#  - binaries and libraries stripped, man pages and changelog compressed;
#  - Depends from dpkg-shlibdeps on every ELF file of the package;
#  - /etc/touchd/touchd.yaml a conffile; maintainer scripts from
#    packaging/debian.
# Prints the path of the package.
#
# Environment: BUILD_DIR (default .build), DEB_DIR (output directory, default
#              $BUILD_DIR/deb), MAKE (default make), DEB_MAINTAINER (the
#              Maintainer field).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-.build}"
DEB_DIR="${DEB_DIR:-$BUILD_DIR/deb}"
MAKE="${MAKE:-make}"
PRIVATE_LIBDIR=/usr/lib/touchd
# The Maintainer field and the changelog's signature.
DEB_MAINTAINER="${DEB_MAINTAINER:-touchd maintainers <touchd-maintainers@example.org>}"

need=()
command -v patchelf >/dev/null || need+=(patchelf)
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

# --- the Swift runtime, privately -------------------------------------------------
# The libraries ldd resolves in libswiftCore's directory are the toolchain's
# (libswiftCore, Foundation, libdispatch, ICU ...): nothing in Debian provides them.
install -d "$R$PRIVATE_LIBDIR"
swift_dir=$(ldd "$BUILD_DIR/release/touchd" | awk '$1 == "libswiftCore.so" { print $3 }' | xargs -r dirname)
[ -n "$swift_dir" ] || { echo "make-deb: touchd does not load libswiftCore.so (static stdlib?)" >&2; exit 1; }
swift_libs=$(ldd "$BUILD_DIR/release/touchd" "$BUILD_DIR/release/touchctl" \
    | awk -v d="$swift_dir/" '$2 == "=>" && index($3, d) == 1 { print $3 }' | sort -u)
[ -n "$swift_libs" ] || { echo "make-deb: found no Swift runtime library in ldd's output" >&2; exit 1; }
for lib in $swift_libs; do
    case "$(basename "$lib")" in lib*.so*) ;; *) echo "make-deb: unexpected library $lib" >&2; exit 1 ;; esac
    install -m 0644 "$lib" "$R$PRIVATE_LIBDIR/"
done
for f in "$R/usr/bin/touchd" "$R/usr/bin/touchctl" "$R$PRIVATE_LIBDIR"/*.so*; do
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"
    patchelf --set-rpath "$PRIVATE_LIBDIR" "$f"
done

# --- documentation ----------------------------------------------------------------
DOC="$R/usr/share/doc/touchd"
gzip -9n "$R"/usr/share/man/man*/*
install -m 0644 packaging/debian/copyright "$DOC/copyright"
sed -e "s/@VERSION@/$VERSION/" -e "s|@MAINTAINER@|$DEB_MAINTAINER|" -e "s/@DATE@/$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")/" \
    packaging/debian/changelog | gzip -9n >"$DOC/changelog.gz"
chmod 0644 "$DOC/changelog.gz"

# --- control ------------------------------------------------------------------------
install -d "$R/DEBIAN"
install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$R/DEBIAN/"
(cd "$R" && find etc -type f -printf '/%p\n' | sort) >"$R/DEBIAN/conffiles"
chmod 0644 "$R/DEBIAN/conffiles"
# dpkg-shlibdeps wants a debian/control of a source package around it.
mkdir -p "$TMP/src/debian"
printf 'Source: touchd\n\nPackage: touchd\nArchitecture: any\n' >"$TMP/src/debian/control"
elves=$(cd "$R" && find usr -type f \( -path 'usr/bin/*' -o -name '*.so*' \) -printf "$R/%p\n")
depends=$(cd "$TMP/src" && dpkg-shlibdeps -O -S"$R" -l"$R$PRIVATE_LIBDIR" $elves 2>"$TMP/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') \
    || { cat "$TMP/shlibdeps.log" >&2; exit 1; }
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependency" >&2; cat "$TMP/shlibdeps.log" >&2; exit 1; }
size=$(du -k -s --apparent-size --exclude=DEBIAN "$R" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" -e "s|@MAINTAINER@|$DEB_MAINTAINER|" \
    packaging/debian/control.in >"$R/DEBIAN/control"
(cd "$R" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$R/DEBIAN/md5sums"
chmod 0644 "$R/DEBIAN/control" "$R/DEBIAN/md5sums"

mkdir -p "$DEB_DIR"
out="$DEB_DIR/touchd_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group -Zxz --build "$R" "$out" >/dev/null
echo "$out"
