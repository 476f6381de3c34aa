#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks `make install` / `make uninstall` in temporary DESTDIRs (the release
# binaries of .build/release must exist: `make check-install` builds them):
# the installed tree (files, modes, substituted paths), the configuration not
# being overwritten, uninstall; the units with `systemd-analyze verify` and
# `systemd-analyze security --offline=true` (exposure at most 2.9); the udev
# rules (`udevadm verify` when udev has it, else the rules parsed by
# `udevadm test` in a private mount namespace); the sysusers.d file; the man
# pages with groff warnings on; the default configuration loaded by touchd.
# Prints one line per check and `N passed, N failed`; exit 1 when any failed.
#
# Environment: MAKE (default make), BUILD_DIR (default .build),
#              MAX_EXPOSURE (default 2.9).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
MAKE="${MAKE:-make}"
BUILD_DIR="${BUILD_DIR:-.build}"
MAX_EXPOSURE="${MAX_EXPOSURE:-2.9}"

passed=0; failed=0; skipped=0
pass() { passed=$((passed + 1)); printf 'ok    %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/      /'; }
skip() { skipped=$((skipped + 1)); printf 'skip  %s\n' "$1"; }
check() { # check NAME COMMAND...: passes when the command succeeds
    local name="$1"; shift
    local out
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

# --- tools: systemd-analyze, udevadm, systemd-sysusers, groff, man ----------
need=()
command -v systemd-analyze >/dev/null || need+=(systemd)
command -v udevadm >/dev/null || need+=(udev)
command -v groff >/dev/null || need+=(groff-base)
command -v man >/dev/null || need+=(man-db)
if ((${#need[@]})); then
    if [ "$(id -u)" = 0 ]; then
        echo "check-install: installing ${need[*]}" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "check-install: missing ${need[*]} (need root to install)" >&2
    fi
fi
for b in touchd touchctl; do
    [ -x "$BUILD_DIR/release/$b" ] || { echo "check-install: $BUILD_DIR/release/$b missing (make release)" >&2; exit 2; }
done

TMP=$(mktemp -d /tmp/touchd-check-install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
D="$TMP/dest"
install_into() { "$MAKE" --no-print-directory -s install-files DESTDIR="$1" "${@:2}" >"$TMP/make.log" 2>&1; }

# --- 1. install into a DESTDIR with the default PREFIX -------------------------
if install_into "$D"; then pass "make install-files DESTDIR=… (PREFIX=/usr/local)"; else fail "make install-files" "$(cat "$TMP/make.log")"; fi

mode_is() { # mode_is FILE MODE
    [ -f "$D$1" ] || { echo "$1 missing"; return 1; }
    local m; m=$(stat -c %a "$D$1")
    [ "$m" = "$2" ] || { echo "$1 has mode $m, expected $2"; return 1; }
}
for f in /usr/local/bin/touchd:755 /usr/local/bin/touchctl:755 \
         /usr/local/lib/systemd/system/touchd.service:644 /usr/local/lib/systemd/system/touchd.socket:644 \
         /usr/local/lib/systemd/system/touchd-guard.service:644 \
         /usr/local/lib/systemd/user/touchd-actions.service:644 \
         /usr/local/lib/udev/rules.d/70-touchd.rules:644 /usr/local/lib/udev/rules.d/90-touchd-mirror.rules:644 /usr/local/lib/sysusers.d/touchd.conf:644 \
         /usr/local/lib/tmpfiles.d/touchd.conf:644 \
         /usr/local/share/man/man8/touchd.8:644 /usr/local/share/man/man1/touchctl.1:644 \
         /usr/local/share/man/man5/touchd.yaml.5:644 /etc/touchd/touchd.yaml:644 \
         /usr/local/share/doc/touchd/touchd.yaml:644 \
         /usr/local/share/gnome-shell/extensions/touchd-focus@touchd.org/metadata.json:644 \
         /usr/local/share/gnome-shell/extensions/touchd-focus@touchd.org/extension.js:644; do
    check "installed ${f%:*} (mode ${f#*:})" mode_is "${f%:*}" "${f#*:}"
done
for r in udev-rules/examples/*.rules; do
    check "installed example $(basename "$r")" mode_is "/usr/local/share/doc/touchd/udev-rules/$(basename "$r")" 644
done
check "installed binaries are the release build" cmp "$BUILD_DIR/release/touchd" "$D/usr/local/bin/touchd"
UNIT="$D/usr/local/lib/systemd/system/touchd.service"
check "ExecStart substituted: /usr/local/bin/touchd --config /etc/touchd/touchd.yaml" \
    grep -qx 'ExecStart=/usr/local/bin/touchd --config /etc/touchd/touchd.yaml' "$UNIT"
check "no @BINDIR@ left in the installed units" bash -c "! grep -n '@BINDIR@' '$UNIT' '$D/usr/local/lib/systemd/system/touchd.socket' '$D/usr/local/lib/systemd/user/touchd-actions.service'"
check "the action agent's user unit runs the installed touchctl" \
    grep -qx 'ExecStart=/usr/local/bin/touchctl actions' "$D/usr/local/lib/systemd/user/touchd-actions.service"
check "the rotation follower's user unit runs the installed touchctl" \
    grep -qx 'ExecStart=/usr/local/bin/touchctl rotate --follow-sensor' "$D/usr/local/lib/systemd/user/touchd-rotation.service"
unexpected=$(cd "$D" && find . -type f | sort | grep -vE '^\./(usr/local/(bin|lib/systemd/system|lib/systemd/user|lib/udev/rules.d|lib/sysusers.d|lib/tmpfiles.d|share/man|share/doc/touchd|share/gnome-shell/extensions/touchd-focus@touchd.org)/|etc/touchd/touchd.yaml$)')
if [ -z "$unexpected" ]; then pass "nothing installed outside the expected directories"; else fail "unexpected files installed" "$unexpected"; fi

# --- 2. the configuration is never overwritten -------------------------------
CONF="$D/etc/touchd/touchd.yaml"
check "default configuration is the shipped one" cmp config/touchd.yaml "$CONF"
install_into "$D"
check "second install, unmodified configuration: no touchd.yaml.default" test ! -e "$CONF.default"
printf 'screens:\n  - {name: DSI-1, width: 1280, height: 800}\n' >"$CONF"
cp "$CONF" "$TMP/edited.yaml"
install_into "$D"
check "second install keeps an edited configuration" cmp "$TMP/edited.yaml" "$CONF"
check "second install puts the new default next to it (touchd.yaml.default)" cmp config/touchd.yaml "$CONF.default"

# --- 3. uninstall --------------------------------------------------------------
"$MAKE" --no-print-directory -s uninstall DESTDIR="$D" >"$TMP/make.log" 2>&1 || fail "make uninstall" "$(cat "$TMP/make.log")"
left=$(cd "$D" && find . -type f | sort)
if [ "$left" = "./etc/touchd/touchd.yaml" ]; then pass "uninstall removes every file but the edited configuration"
else fail "uninstall left (expected only ./etc/touchd/touchd.yaml)" "$left"; fi
D2="$TMP/dest2"
install_into "$D2"; "$MAKE" --no-print-directory -s uninstall DESTDIR="$D2" >/dev/null 2>&1
left=$(cd "$D2" && find . -type f)
if [ -z "$left" ]; then pass "install then uninstall leaves no file (unmodified configuration removed)"; else fail "install then uninstall left files" "$left"; fi

# --- 4. PREFIX=/usr: Debian's unit and rules directories ------------------------
D3="$TMP/dest3"
install_into "$D3" PREFIX=/usr
check "PREFIX=/usr: unit in /lib/systemd/system, ExecStart=/usr/bin/touchd" \
    grep -qx 'ExecStart=/usr/bin/touchd --config /etc/touchd/touchd.yaml' "$D3/lib/systemd/system/touchd.service"
check "PREFIX=/usr: rules in /lib/udev/rules.d, sysusers in /usr/lib/sysusers.d" \
    test -f "$D3/lib/udev/rules.d/70-touchd.rules" -a -f "$D3/usr/lib/sysusers.d/touchd.conf" -a -x "$D3/usr/bin/touchd"

# --- 5. systemd-analyze verify and security -------------------------------------
install_into "$D"
if command -v systemd-analyze >/dev/null; then
    # verify checks that ExecStart's binary exists on this machine and that the
    # Documentation= man pages open: point both at the DESTDIR.
    V="$TMP/verify"; mkdir -p "$V"
    sed "s|^\(Exec[A-Za-z]*=\)/usr/local/bin/|\1$D/usr/local/bin/|" "$UNIT" >"$V/touchd.service"
    cp "$D/usr/local/lib/systemd/system/touchd.socket" "$V/"
    sed "s|^ExecStart=/usr/local/bin/|ExecStart=$D/usr/local/bin/|" "$D/usr/local/lib/systemd/system/touchd-guard.service" >"$V/touchd-guard.service"
    out=$(MANPATH="$D/usr/local/share/man" systemd-analyze verify "$V/touchd.service" "$V/touchd.socket" "$V/touchd-guard.service" 2>&1)
    if [ $? = 0 ] && [ -z "$out" ]; then pass "systemd-analyze verify touchd.service touchd.socket: clean"
    else fail "systemd-analyze verify" "$out"; fi
    sed "s|^ExecStart=/usr/local/bin/|ExecStart=$D/usr/local/bin/|" "$D/usr/local/lib/systemd/user/touchd-actions.service" >"$V/touchd-actions.service"
    sed "s|^ExecStart=/usr/local/bin/|ExecStart=$D/usr/local/bin/|" "$D/usr/local/lib/systemd/user/touchd-rotation.service" >"$V/touchd-rotation.service"
    # A user manager needs a runtime directory, which a root shell in CI has not.
    mkdir -p "$TMP/xdg-runtime" && chmod 0700 "$TMP/xdg-runtime"
    out=$(XDG_RUNTIME_DIR="$TMP/xdg-runtime" MANPATH="$D/usr/local/share/man" systemd-analyze --user verify "$V/touchd-actions.service" "$V/touchd-rotation.service" 2>&1)
    if [ $? = 0 ] && [ -z "$out" ]; then pass "systemd-analyze --user verify touchd-actions.service touchd-rotation.service: clean"
    else fail "systemd-analyze --user verify touchd-actions.service touchd-rotation.service" "$out"; fi
    sec=$(systemd-analyze security --offline=true --no-pager "$UNIT" 2>&1)
    score=$(printf '%s\n' "$sec" | sed -n 's/.*Overall exposure level for touchd.service: \([0-9.]*\) \([A-Z]*\).*/\1 \2/p')
    echo "      systemd-analyze security --offline=true touchd.service: ${score:-?}"
    printf '%s\n' "$sec" | grep '✗' | sed 's/^/      /'
    if [ -n "$score" ] && awk -v s="${score% *}" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }'; then
        pass "systemd-analyze security: exposure ${score} <= $MAX_EXPOSURE"
    else fail "systemd-analyze security: exposure ${score:-unknown} > $MAX_EXPOSURE" "$sec"; fi
else
    fail "systemd-analyze missing (apt-get install systemd)"
fi
check "service: no PrivateNetwork (udev's netlink events do not cross network namespaces)" \
    bash -c "! grep -q '^PrivateNetwork=yes' '$UNIT' && grep -qx 'RestrictAddressFamilies=AF_UNIX AF_NETLINK' '$UNIT'"
check "service: only input devices, read-only; no /dev/uinput" \
    bash -c "grep -qx 'DevicePolicy=closed' '$UNIT' && [ \"\$(grep -c '^DeviceAllow=' '$UNIT')\" = 1 ] && grep -qx 'DeviceAllow=char-input r' '$UNIT'"

# --- 6. sysusers.d: the user and groups ----------------------------------------
if command -v systemd-sysusers >/dev/null; then
    S="$TMP/sysroot"; mkdir -p "$S/etc"
    systemd-sysusers --root="$S" "$D/usr/local/lib/sysusers.d/touchd.conf" >/dev/null 2>&1
    check "sysusers: user touchd with primary group touchd-clients" \
        bash -c "gid=\$(awk -F: '\$1==\"touchd-clients\"{print \$3}' '$S/etc/group'); awk -F: -v g=\"\$gid\" '\$1==\"touchd\" && \$4==g && \$7 ~ /nologin/ {f=1} END{exit !f}' '$S/etc/passwd'"
    check "sysusers: group touchd with member touchd" grep -qx 'touchd:x:[0-9]*:touchd' "$S/etc/group"
else
    fail "systemd-sysusers missing (apt-get install systemd)"
fi

# --- 7. udev rules ----------------------------------------------------------------
RULES="$D/usr/local/lib/udev/rules.d/70-touchd.rules"
EXAMPLES=("$D"/usr/local/share/doc/touchd/udev-rules/*.rules)
if udevadm verify --help >/dev/null 2>&1; then
    check "udevadm verify 70-touchd.rules, 90-touchd-mirror.rules and the examples" udevadm verify --resolve-names=never "$RULES" "$D/usr/local/lib/udev/rules.d/90-touchd-mirror.rules" "${EXAMPLES[@]}"
elif [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    # udev 252 has no `udevadm verify`: parse the rules with `udevadm test` in a
    # private mount namespace where they are the only /run/udev/rules.d and the
    # groups of sysusers.d/touchd.conf exist. udev reports every bad line
    # (unknown key, bad operator, unknown group, GOTO without LABEL).
    R="$TMP/rules"; mkdir -p "$R"; cp "$RULES" "${EXAMPLES[@]}" "$R/"
    cp /etc/group "$TMP/group"
    getent group touchd >/dev/null || echo "touchd:x:60998:" >>"$TMP/group"
    getent group touchd-uinput >/dev/null || echo "touchd-uinput:x:60997:" >>"$TMP/group"
    out=$(unshare -m sh -c 'mkdir -p /run/udev/rules.d && mount --bind "$1" /run/udev/rules.d && mount --bind "$2" /etc/group && udevadm test /sys/class/mem/null 2>&1' sh "$R" "$TMP/group" 2>&1)
    diag=$(printf '%s\n' "$out" | grep -F '/run/udev/rules.d/' | grep -v '^Reading rules file')
    read_count=$(printf '%s\n' "$out" | grep -c '^Reading rules file: /run/udev/rules.d/')
    if [ -z "$diag" ] && [ "$read_count" = $((1 + ${#EXAMPLES[@]})) ]; then
        pass "udev rules parse cleanly (udevadm test, udev $(udevadm --version) has no verify): $read_count files"
    else fail "udev rules: $read_count of $((1 + ${#EXAMPLES[@]})) files read" "$diag"; fi
else
    skip "udev rules syntax: needs udevadm verify (udev >= 253) or root for udevadm test"
fi
check "rules: only touchscreen, tablet and touchpad nodes, never keyboards" \
    bash -c "grep -q 'ENV{ID_INPUT_KEYBOARD}==\"1\", GOTO=\"touchd_end\"' '$RULES' && grep -q 'GROUP=\"touchd\", MODE=\"0640\"' '$RULES' && grep -q 'ENV{SYSTEMD_WANTS}+=\"touchd.service\"' '$RULES'"

# --- 8. man pages ---------------------------------------------------------------------
for p in man8/touchd.8 man1/touchctl.1 man5/touchd.yaml.5; do
    f="$D/usr/local/share/man/$p"
    out=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
    if [ -z "$out" ] && MANWIDTH=80 man -l "$f" 2>/dev/null | grep -q '^NAME'; then pass "man page $(basename "$p"): groff -ww clean, renders"
    else fail "man page $(basename "$p")" "$out"; fi
done

# --- 9. the default configuration loads ------------------------------------------------
TRACE="Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
out=$("$D/usr/local/bin/touchd" --config "$D/usr/local/share/doc/touchd/touchd.yaml" --replay "$TRACE" --speed 0 \
    --exit-after-replay --socket "$TMP/touchd.sock" --log-level warning 2>&1)
status=$?
if [ $status = 0 ]; then pass "installed touchd runs with the default configuration"; else fail "touchd with the default configuration: exit $status" "$out"; fi

# Every configuration of docs/deploy.md, as written there.
awk -v dir="$TMP" '/^```yaml$/ { n++; f = dir "/deploy-" n ".yaml"; on = 1; next } /^```$/ { on = 0 } on { print > f }' docs/deploy.md
for f in "$TMP"/deploy-*.yaml; do
    [ -e "$f" ] || { fail "docs/deploy.md has no yaml block"; break; }
    out=$("$D/usr/local/bin/touchd" --config "$f" --replay "$TRACE" --speed 0 --exit-after-replay \
        --socket "$TMP/touchd.sock" --log-level warning 2>&1)
    status=$?
    if [ $status = 0 ]; then pass "docs/deploy.md configuration $(basename "$f" .yaml) loads"
    else fail "docs/deploy.md configuration $(basename "$f" .yaml): exit $status" "$(cat "$f"; echo "$out")"; fi
done

printf '%d passed, %d failed' "$passed" "$failed"
[ "$skipped" -gt 0 ] && printf ', %d skipped' "$skipped"
printf '\n'
[ "$failed" = 0 ]
