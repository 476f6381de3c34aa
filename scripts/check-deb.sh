#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the Debian package of `make deb` in a clean root: a minimal Debian
# made by debootstrap from the mirror apt uses (with the packages the
# package's Depends name, so dpkg -i inside it proves they suffice), then
#  - lintian: no errors (warnings printed);
#  - install: the user and groups, every file where it belongs, the socket
#    enabled, the units verify, touchd and touchctl run from /usr/bin on the
#    private Swift runtime and touchd serves a replay with the conffile;
#  - libtouchd-client1 and -dev: the library where ldconfig finds it, an
#    example compiled against the installed files (pkg-config) reads the
#    installed touchd in the root;
#  - reinstall keeps an edited conffile;
#  - remove keeps the conffile, purge leaves nothing but the user and groups.
# Prints one line per check and `N passed, N failed`; exit 1 when any failed.
# Needs root (debootstrap, chroot); installs debootstrap, lintian, dpkg-dev,
# gcc and pkg-config when missing.
#
# Usage: scripts/check-deb.sh touchd.deb libtouchd-client1.deb libtouchd-client-dev.deb
# (the output of scripts/make-deb.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
DEBS=()
for d in "$@"; do
    DEBS+=("$(realpath "$d")")
    [ "$(dpkg-deb -f "$d" Package)" = touchd ] && DEB=$(realpath "$d")
done
[ -n "${DEB:-}" ] && [ ${#DEBS[@]} = 3 ] || { echo "usage: check-deb.sh touchd.deb libtouchd-client1.deb libtouchd-client-dev.deb" >&2; exit 2; }

passed=0; failed=0
pass() { passed=$((passed + 1)); printf 'ok    %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/      /'; }
check() { # check NAME COMMAND...: passes when the command succeeds
    local name="$1"; shift
    local out
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

[ "$(id -u)" = 0 ] || { echo "check-deb: needs root (debootstrap, chroot)" >&2; exit 2; }
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v lintian >/dev/null || need+=(lintian)
command -v dpkg-architecture >/dev/null || need+=(dpkg-dev)
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
if ((${#need[@]})); then
    echo "check-deb: installing ${need[*]}" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
TMP=$(mktemp -d /tmp/touchd-check-deb.XXXXXX)
R="$TMP/root"
cleanup() {
    umount -l "$R/proc" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

# --- size: a panel daemon fits a small root (docs/deploy.md, "Size") ----------------
size_kb=$(dpkg-deb -f "$DEB" Installed-Size)
if [ "$size_kb" -le 30720 ]; then pass "touchd Installed-Size ${size_kb} KiB <= 30 MiB"
else fail "touchd Installed-Size ${size_kb} KiB <= 30 MiB" "$(dpkg-deb -c "$DEB" | sort -k3 -n -r 2>/dev/null | head -5)"; fi
dbgsym="$(dirname "$DEB")/touchd-dbgsym_$(dpkg-deb -f "$DEB" Version)_$(dpkg-deb -f "$DEB" Architecture).deb"
dpkg-deb -x "$DEB" "$TMP/unpacked"
touchd_id=$(readelf -n "$TMP/unpacked/usr/bin/touchd" | awk '/Build ID:/ { print $3 }')
if readelf -S "$TMP/unpacked/usr/bin/touchd" | grep -q '\.debug_info'; then
    fail "touchd is stripped, its debug information in touchd-dbgsym" "/usr/bin/touchd has .debug_info"
elif [ -f "$dbgsym" ] && [ -n "$touchd_id" ] \
    && grep -q "/usr/lib/debug/.build-id/${touchd_id:0:2}/${touchd_id:2}\.debug$" <<<"$(dpkg-deb -c "$dbgsym")"; then
    pass "touchd is stripped, its debug information in touchd-dbgsym"
else fail "touchd is stripped, its debug information in touchd-dbgsym" "build id ${touchd_id:-none}; $dbgsym"; fi
rm -rf "$TMP/unpacked"

# --- lintian ------------------------------------------------------------------------
lint=$(lintian --tag-display-limit 0 "${DEBS[@]}" 2>&1 | grep -v '^running with root privileges')
if printf '%s\n' "$lint" | grep -q '^E: '; then fail "lintian: no errors" "$lint"
else pass "lintian: no errors (${#DEBS[@]} packages)"; [ -n "$lint" ] && printf '%s\n' "$lint" | sed 's/^/      /'; fi

# --- the clean root ------------------------------------------------------------------
# The mirror and release apt uses; the packages Depends names (versions are
# checked by dpkg -i below).
. /etc/os-release
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\/*\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\?\(http[^ ]*\) [a-z]* main.*/\2/p' /etc/apt/sources.list 2>/dev/null | grep -v security | head -1)
mirror="${mirror:-http://deb.debian.org/debian}"
depends=$(for d in "${DEBS[@]}"; do dpkg-deb -f "$d" Depends; echo; done | tr ',' '\n' | sed 's/^ *//; s/[ (].*//' \
    | grep -v '^$' | grep -vxE 'touchd|libtouchd-client1|libtouchd-client-dev' | sort -u | paste -sd, -)
start=$(date +%s)
if debootstrap --variant=minbase --include="$depends,udev" "$VERSION_CODENAME" "$R" "$mirror" >"$TMP/debootstrap.log" 2>&1; then
    pass "debootstrap $VERSION_CODENAME from $mirror with $depends,udev ($(( $(date +%s) - start )) s)"
else
    fail "debootstrap" "$(tail -20 "$TMP/debootstrap.log")"
    printf '%d passed, %d failed\n' "$passed" "$failed"; exit 1
fi
mount -t proc proc "$R/proc"
in_root() { chroot "$R" "$@"; }
(cd "$R" && find . -xdev \( -path ./proc -o -path ./run -o -path ./tmp -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./var/cache \) -prune -o -print | sort) >"$TMP/before"
mkdir -p "$R/tmp/debs"; cp "${DEBS[@]}" "$R/tmp/debs/"

# --- install --------------------------------------------------------------------------
check "dpkg -i the ${#DEBS[@]} packages in the clean root (Depends satisfied, maintainer scripts succeed)" \
    bash -c "chroot '$R' sh -c 'dpkg -i /tmp/debs/*.deb'"
check "user touchd (primary group touchd-clients, no shell)" \
    bash -c "gid=\$(chroot '$R' getent group touchd-clients | cut -d: -f3); chroot '$R' getent passwd touchd | awk -F: -v g=\"\$gid\" '\$4 == g && \$7 ~ /nologin/ { f = 1 } END { exit !f }'"
check "groups touchd (member touchd), touchd-uinput" bash -c "chroot '$R' getent group touchd | grep -q ':touchd\$' && chroot '$R' getent group touchd-uinput"

expected=(/usr/bin/touchd /usr/bin/touchctl /lib/systemd/system/touchd.service /lib/systemd/system/touchd.socket /lib/systemd/system/touchd-guard.service
    /lib/udev/rules.d/70-touchd.rules /lib/udev/rules.d/90-touchd-mirror.rules /usr/lib/sysusers.d/touchd.conf /usr/lib/tmpfiles.d/touchd.conf /etc/touchd/touchd.yaml
    /usr/share/man/man8/touchd.8.gz /usr/share/man/man1/touchctl.1.gz /usr/share/man/man5/touchd.yaml.5.gz
    /usr/share/doc/touchd/copyright /usr/share/doc/touchd/changelog.gz /usr/share/doc/touchd/touchd-pass-through.conf
    /usr/share/gnome-shell/extensions/touchd-focus@touchd.org/metadata.json /usr/share/gnome-shell/extensions/touchd-focus@touchd.org/extension.js
    )
for u in systemd/user/*; do [ -f "$u" ] && expected+=("/usr/lib/systemd/user/$(basename "$u")"); done
missing=""
for f in "${expected[@]}"; do [ -f "$R$f" ] || missing+="$f "; done
if [ -z "$missing" ]; then pass "installed: ${#expected[@]} files (the binary and its link, system and user units, rules, sysusers, tmpfiles, man pages, conffile, GNOME Shell extension)"
else fail "installed files missing" "$missing"; fi
check "/run/touchd touchd:touchd-clients 0750 from installation on (tmpfiles.d), before touchd runs" \
    bash -c "s=\$(chroot '$R' stat -c '%U:%G %a' /run/touchd 2>&1); echo \"\$s\"; [ \"\$s\" = 'touchd:touchd-clients 750' ]"
check "the conffile is the shipped default configuration" cmp config/touchd.yaml "$R/etc/touchd/touchd.yaml"
check "dpkg knows /etc/touchd/touchd.yaml as a conffile" bash -c "chroot '$R' dpkg-query -W -f='\${Conffiles}' touchd | grep -q '/etc/touchd/touchd.yaml'"
check "units: ExecStart=/usr/bin/touchd" grep -qx 'ExecStart=/usr/bin/touchd --config /etc/touchd/touchd.yaml' "$R/lib/systemd/system/touchd.service"
check "touchd.socket enabled (sockets.target.wants)" test -L "$R/etc/systemd/system/sockets.target.wants/touchd.socket"
units=(/lib/systemd/system/touchd.service /lib/systemd/system/touchd.socket)
check "systemd-analyze verify touchd.service touchd.socket (in the root)" bash -c "out=\$(chroot '$R' systemd-analyze verify --man=no ${units[*]} 2>&1); echo \"\$out\"; [ -z \"\$out\" ]"
# The user manager wants a runtime directory (no user session in the root).
mkdir -p -m 0700 "$R/tmp/xdg-runtime"
for u in systemd/user/*; do
    [ -f "$u" ] || continue
    check "systemd-analyze --user verify $(basename "$u") (in the root)" \
        bash -c "out=\$(chroot '$R' env XDG_RUNTIME_DIR=/tmp/xdg-runtime systemd-analyze --user verify --man=no /usr/lib/systemd/user/$(basename "$u") 2>&1); echo \"\$out\"; [ -z \"\$out\" ]"
done
check "/usr/bin/touchd and /usr/bin/touchctl: one binary (a hard link)" \
    bash -c "[ \$(stat -c %i '$R/usr/bin/touchd') = \$(stat -c %i '$R/usr/bin/touchctl') ]"
check "touchd --help runs from /usr/bin" bash -c "chroot '$R' /usr/bin/touchd --help | grep -q '^USAGE: touchd'"
check "touchctl --help runs from /usr/bin" bash -c "chroot '$R' /usr/bin/touchctl --help | grep -q '^USAGE: touchctl'"
check "the binary needs no Swift library (the runtime is linked in), nothing missing" \
    bash -c "out=\$(chroot '$R' ldd /usr/bin/touchd /usr/bin/touchctl); echo \"\$out\"; ! echo \"\$out\" | grep -q 'not found' && ! echo \"\$out\" | grep -qi 'swift\|Foundation' && ! echo \"\$out\" | grep -q /opt/"
TRACE="Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
cp "$TRACE" "$R/tmp/trace.events"
check "installed touchd serves a replay with /etc/touchd/touchd.yaml" \
    chroot "$R" /usr/bin/touchd --config /etc/touchd/touchd.yaml --replay /tmp/trace.events --speed 0 --exit-after-replay \
        --socket /tmp/touchd.sock --log-level warning --realtime-priority 0

# --- the C client library -----------------------------------------------------------------------
check "libtouchd-client1: ldconfig finds libtouchd-client.so.1" bash -c "chroot '$R' ldconfig -p | grep -qE 'libtouchd-client.so.1 .*=> (/usr)?/lib/$MULTIARCH/libtouchd-client.so.1$'"
check "libtouchd-client-dev: header, .so link, pkg-config file" \
    test -f "$R/usr/include/touchd-client.h" -a -L "$R/usr/lib/$MULTIARCH/libtouchd-client.so" -a -f "$R/usr/lib/$MULTIARCH/pkgconfig/touchd-client.pc"
flags=$(PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_LIBDIR="$R/usr/lib/$MULTIARCH/pkgconfig" pkg-config --cflags --libs touchd-client 2>&1)
check "the example compiles against the installed files ($flags)" cc -o "$R/tmp/touchd-events" clients/c/examples/touchd-events.c $flags
chroot "$R" /usr/bin/touchd --replay /tmp/trace.events --speed 0 --exit-after-replay --wait-for-subscribers 1 \
    --socket /tmp/touchd-c.sock --log-level warning --realtime-priority 0 & touchd_pid=$!
for _ in $(seq 100); do [ -S "$R/tmp/touchd-c.sock" ] && break; sleep 0.1; done
check "the example reads the installed touchd through the installed library (hello, the swipe, goodbye)" \
    bash -c "out=\$(timeout 20 chroot '$R' /tmp/touchd-events /tmp/touchd-c.sock gesture,device); echo \"\$out\" | head -1 | grep -q '^hello touchd' && echo \"\$out\" | grep -q '^gesture swipe swipe recognized' && echo \"\$out\" | tail -1 | grep -qx 'goodbye: shutdown' || { echo \"\$out\"; false; }"
wait "$touchd_pid" 2>/dev/null
rm -f "$R/tmp/touchd-events"

# --- upgrade keeps an edited conffile --------------------------------------------------------
printf '# edited\nscreens:\n  - {name: DSI-1, width: 1280, height: 800}\n' >"$R/etc/touchd/touchd.yaml"
cp "$R/etc/touchd/touchd.yaml" "$TMP/edited.yaml"
check "reinstall (dpkg -i again)" in_root dpkg -i --force-confold "/tmp/debs/$(basename "$DEB")"
check "reinstall keeps the edited /etc/touchd/touchd.yaml" cmp "$TMP/edited.yaml" "$R/etc/touchd/touchd.yaml"

# --- remove and purge --------------------------------------------------------------------------
check "dpkg -r touchd libtouchd-client-dev libtouchd-client1" in_root dpkg -r touchd libtouchd-client-dev libtouchd-client1
check "remove: binaries and Swift runtime gone, conffile kept" \
    bash -c "[ ! -e '$R/usr/bin/touchd' ] && [ ! -e '$R/usr/lib/touchd' ] && cmp '$TMP/edited.yaml' '$R/etc/touchd/touchd.yaml'"
check "dpkg -P touchd libtouchd-client-dev libtouchd-client1" in_root dpkg -P touchd libtouchd-client-dev libtouchd-client1
(cd "$R" && find . -xdev \( -path ./proc -o -path ./run -o -path ./tmp -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./var/cache \) -prune -o -print | sort) >"$TMP/after"
# Policy keeps the system user and groups (their backups are sysusers' own).
left=$(comm -13 "$TMP/before" "$TMP/after" | grep -vxE '\./etc/(passwd|group|shadow|gshadow)-')
if [ -z "$left" ]; then pass "purge leaves no file the package or its scripts made (the user and groups stay)"
else fail "purge left" "$left"; fi
check "purge keeps the user touchd (Debian practice)" in_root getent passwd touchd

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
