# touchd: `make run` and `make test` are all a fresh Debian machine needs.
SWIFT      ?= swift
CONFIG     ?= debug
BUILD_DIR  ?= .build
APT_PKGS   := libevdev-dev libudev-dev libsystemd-dev pkg-config socat dbus-daemon dbus-bin python3-dbusmock nodejs
DEMO_TRACE ?= Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events
TOUCHCTL   := $(BUILD_DIR)/release/touchctl

.PHONY: all deps build release run test test-vm test-compositors bench-passthrough bench-compositor check-cli check-schemas check-view check-install deb check-deb check-python check-c check-drag install install-files uninstall pictures bench bench-vm fuzz fuzz-short sanitize soak soak-short clean

all: build

# Installs the Debian packages the build needs, once, if any is missing.
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" != 0 ]; then echo "need root to install$$missing" >&2; exit 1; fi; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG)

# Release builds link the Swift runtime statically (docs/deploy.md, "Size"): one
# build for the package, the CLI checks, the soak and the benchmarks in the guest.
RELEASE_FLAGS := -c release --static-swift-stdlib

# (The two products only: KernelTesting, a test helper, needs the Testing module,
# which the static runtime does not have.)
release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product touchd
	$(SWIFT) build $(RELEASE_FLAGS) --product touchctl

# Starts touchd on a bundled real recording (a virtual device, no hardware
# needed) on a temporary socket, and prints what a client subscribed with
# `touchctl monitor` receives; touchd stops when the replay is over.
TOUCHD     := $(BUILD_DIR)/release/touchd
RUN_SOCKET ?= /tmp/touchd-run-$(shell id -u).sock
run: release
	@rm -f "$(RUN_SOCKET)"; \
	if $(TOUCHCTL) devices 2>/dev/null | grep -v ': ignored: \|: cannot be used: ' | grep -q '^/dev/input/'; then \
		echo "touch devices present: serving them (Ctrl-C stops)"; \
		$(TOUCHCTL) devices; \
		$(TOUCHD) --socket "$(RUN_SOCKET)" & pid=$$!; \
	else \
		echo "no touch device: replaying $(DEMO_TRACE)"; \
		$(TOUCHD) --replay "$(DEMO_TRACE)" --socket "$(RUN_SOCKET)" --wait-for-subscribers 1 --exit-after-replay & pid=$$!; \
	fi; \
	tries=0; while [ ! -S "$(RUN_SOCKET)" ]; do \
		tries=$$((tries + 1)); if [ $$tries -gt 300 ] || ! kill -0 $$pid 2>/dev/null; then echo "touchd did not start" >&2; exit 1; fi; \
		sleep 0.1; \
	done; \
	$(TOUCHCTL) monitor --socket "$(RUN_SOCKET)" --events gesture,system,device; status=$$?; \
	kill -TERM $$pid 2>/dev/null; wait $$pid; exit $$status

# Tests run one at a time: socket tests block a thread of the concurrency
# pool in recv(2) while an in-process publisher needs one, and on a 2-core
# machine parallel tests could take both (docs/reliability.md). Serial is
# no slower here.
# Each step prints how long it took (scripts/timed-step.sh).
STEP := scripts/timed-step.sh
test: deps
	@$(STEP) build-tests $(SWIFT) build --build-tests
	@$(STEP) host-tests $(SWIFT) test --skip-build --no-parallel
	@$(STEP) check-cli $(MAKE) --no-print-directory check-cli
	@$(STEP) check-schemas $(MAKE) --no-print-directory check-schemas
	@$(STEP) check-view $(MAKE) --no-print-directory check-view
	@$(STEP) check-install $(MAKE) --no-print-directory check-install
	@$(STEP) check-deb $(MAKE) --no-print-directory check-deb
	@$(STEP) check-python $(MAKE) --no-print-directory check-python
	@$(STEP) check-c $(MAKE) --no-print-directory check-c
	@$(STEP) check-drag $(MAKE) --no-print-directory check-drag
	@$(STEP) fuzz-short $(MAKE) --no-print-directory fuzz-short
	@$(STEP) soak-short $(MAKE) --no-print-directory soak-short
	@$(STEP) test-vm $(MAKE) --no-print-directory test-vm
	@$(STEP) test-compositors $(MAKE) --no-print-directory test-compositors

# Pass-through under real compositors (cage, sway, weston, mutter, KWin) in one QEMU guest:
# what a Wayland app gets, without and with touchd, per case (docs/pass-through.md,
# "Testing under real compositors"); installs the compositors when missing.
test-compositors: deps
	scripts/compositor-test.sh

# Every example message of docs/schemas against its JSON Schema (and the decoder's verdict),
# then every line a real touchd sends a client subscribed to everything.
check-schemas: release
	@python3 -c 'import jsonschema, referencing' 2>/dev/null || python3 -m pip install -q jsonschema referencing
	python3 docs/schemas/validate.py
	python3 docs/schemas/validate-server.py $(BUILD_DIR)/release/touchd

# The kernel tests (uinput, evdev, udev) in one QEMU guest; installs qemu, a
# kernel, busybox-static and virtme-ng when missing (see docs/udev.md).
test-vm: deps
	scripts/vm-test.sh


# Every command of touchctl on every bundled fixture (and ../shared/realdata when present).
check-cli: release
	@scripts/check-cli.sh "$(TOUCHCTL)"

# The live view (`touchctl view`) in headless chromium, fed by a stand-in daemon socket; installs chromium when missing.
check-view: release
	@scripts/check-view.sh "$(TOUCHCTL)"

# The example pictures of docs/visualisation.md (docs/images/*.svg), from the bundled recordings.
pictures: build
	scripts/make-pictures.sh "$(BUILD_DIR)/$(CONFIG)/touchctl"

clean:
	rm -rf $(BUILD_DIR)

# Host benchmarks (release build), printed as a table; see docs/performance.md.
# touchd-bench is a target of this package declared only with
# TOUCHD_EXTRA_TARGETS=bench, built in its own scratch path (.build-bench).
bench: deps
	TOUCHD_EXTRA_TARGETS=bench $(SWIFT) build -c release --scratch-path .build-bench --product touchd-bench
	LD_PRELOAD="$$(find -L .build-bench/release -name 'libMallocInterposerSwift.so' | head -1)" .build-bench/release/touchd-bench "$(CURDIR)"

# Pass-through's forwarding latency and CPU against interception-tools, in one guest boot (docs/performance.md).
bench-passthrough: deps
	scripts/bench-passthrough.sh

# The whole path to a Wayland app: write into the touchscreen to the app's
# receipt, without and with touchd, under sway (docs/performance.md).
bench-compositor: deps
	scripts/compositor-test.sh --bench

# Soak (docs/reliability.md): touchd replaying a real recording in a loop at
# 4x with 50 clients (10 misbehaving); RSS, descriptors and healthy clients'
# latency sampled every minute. SOAK_MINUTES sets the length (default 30).
# soak-short is the CI version: 2 minutes, a sample every 15 s. SOAK_ARGS adds
# options of scripts/soak.py (e.g. --json FILE).
SOAK_MINUTES ?= 30
soak: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product touchd
	python3 scripts/soak.py --touchd $(BUILD_DIR)/release/touchd --minutes $(SOAK_MINUTES) --interval 60 $(SOAK_ARGS)

soak-short: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product touchd
	python3 scripts/soak.py --touchd $(BUILD_DIR)/release/touchd --minutes 2 --interval 15 --baseline 15 $(SOAK_ARGS)

# libFuzzer harnesses (Fuzz/, debug + AddressSanitizer), each run for
# FUZZ_SECONDS; prints the executions reached. See docs/reliability.md.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# The short pass for CI: 20 s per harness.
fuzz-short: deps
	FUZZ_SECONDS=20 scripts/fuzz.sh

# The unit tests under AddressSanitizer, then ThreadSanitizer (.build-asan, .build-tsan).
sanitize: deps
	scripts/sanitize.sh

# The daemon in a QEMU guest: memory with 4 touchscreens and 100 clients, CPU
# time against libinput on the same uinput device (docs/performance.md).
bench-vm: deps
	scripts/bench-vm.sh

# --- Installation (docs/deploy.md) -------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=]: release binaries, systemd units
# (binary path substituted), udev rules, sysusers.d, man pages, the default
# configuration (/etc/touchd/touchd.yaml, never overwritten: a different
# existing file stays and the new default goes next to it as
# touchd.yaml.default). Without DESTDIR, also creates the user and groups and
# reloads systemd and udev. make uninstall removes the same files, and the
# configuration only when it is still the shipped default.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/touchd
# GNOME Shell's extension for the focus follower (clients/gnome-shell, docs/actions.md);
# shipped disabled: a user enables it with `gnome-extensions enable`.
GNOME_EXTENSION := touchd-focus@touchd.org
GNOME_EXTDIR ?= $(PREFIX)/share/gnome-shell/extensions/$(GNOME_EXTENSION)
SYSCONFDIR  ?= /etc
ifeq ($(PREFIX),/usr)
UNITDIR     ?= /lib/systemd/system
USERUNITDIR ?= /usr/lib/systemd/user
UDEVRULESDIR ?= /lib/udev/rules.d
SYSUSERSDIR ?= /usr/lib/sysusers.d
TMPFILESDIR ?= /usr/lib/tmpfiles.d
else
UNITDIR     ?= $(PREFIX)/lib/systemd/system
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
endif
CONFDIR     := $(SYSCONFDIR)/touchd
MANPAGES    := touchd.8 touchctl.1 touchd.yaml.5
RULE_EXAMPLES := $(notdir $(wildcard udev-rules/examples/*.rules))
# Every unit of systemd/user (e.g. the action agent) is a systemd user unit.
USER_UNITS  := $(notdir $(wildcard systemd/user/*.service systemd/user/*.socket systemd/user/*.timer systemd/user/*.path))

install: release
	@$(MAKE) --no-print-directory install-files

# install without building (the binaries of .build/release must exist).
install-files:
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(UNITDIR)" "$(DESTDIR)$(USERUNITDIR)" "$(DESTDIR)$(UDEVRULESDIR)" \
		"$(DESTDIR)$(SYSUSERSDIR)" "$(DESTDIR)$(TMPFILESDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" \
		"$(DESTDIR)$(MANDIR)/man8" "$(DESTDIR)$(DOCDIR)/udev-rules" "$(DESTDIR)$(CONFDIR)" "$(DESTDIR)$(GNOME_EXTDIR)"
	install -m 0755 $(BUILD_DIR)/release/touchd $(BUILD_DIR)/release/touchctl "$(DESTDIR)$(BINDIR)/"
	for u in touchd.service touchd.socket touchd-guard.service; do \
		sed 's|@BINDIR@|$(BINDIR)|g' systemd/$$u > "$(DESTDIR)$(UNITDIR)/$$u.tmp" && \
		chmod 0644 "$(DESTDIR)$(UNITDIR)/$$u.tmp" && mv "$(DESTDIR)$(UNITDIR)/$$u.tmp" "$(DESTDIR)$(UNITDIR)/$$u" || exit 1; \
	done
	for u in $(USER_UNITS); do \
		install -d "$(DESTDIR)$(USERUNITDIR)" && \
		sed 's|@BINDIR@|$(BINDIR)|g' systemd/user/$$u > "$(DESTDIR)$(USERUNITDIR)/$$u.tmp" && \
		chmod 0644 "$(DESTDIR)$(USERUNITDIR)/$$u.tmp" && mv "$(DESTDIR)$(USERUNITDIR)/$$u.tmp" "$(DESTDIR)$(USERUNITDIR)/$$u" || exit 1; \
	done
	install -m 0644 systemd/touchd.sysusers "$(DESTDIR)$(SYSUSERSDIR)/touchd.conf"
	install -m 0644 systemd/touchd.tmpfiles "$(DESTDIR)$(TMPFILESDIR)/touchd.conf"
	install -m 0644 udev-rules/70-touchd.rules "$(DESTDIR)$(UDEVRULESDIR)/70-touchd.rules"
	install -m 0644 udev-rules/90-touchd-mirror.rules "$(DESTDIR)$(UDEVRULESDIR)/90-touchd-mirror.rules"
	install -m 0644 $(addprefix udev-rules/examples/,$(RULE_EXAMPLES)) "$(DESTDIR)$(DOCDIR)/udev-rules/"
	install -m 0644 systemd/touchd-pass-through.conf "$(DESTDIR)$(DOCDIR)/touchd-pass-through.conf"
	install -m 0644 config/touchd.yaml "$(DESTDIR)$(DOCDIR)/touchd.yaml"
	install -m 0644 docs/man/touchctl.1 "$(DESTDIR)$(MANDIR)/man1/touchctl.1"
	install -m 0644 docs/man/touchd.yaml.5 "$(DESTDIR)$(MANDIR)/man5/touchd.yaml.5"
	install -m 0644 docs/man/touchd.8 "$(DESTDIR)$(MANDIR)/man8/touchd.8"
	install -m 0644 clients/gnome-shell/$(GNOME_EXTENSION)/metadata.json clients/gnome-shell/$(GNOME_EXTENSION)/extension.js "$(DESTDIR)$(GNOME_EXTDIR)/"
	@conf="$(DESTDIR)$(CONFDIR)/touchd.yaml"; \
	if [ ! -e "$$conf" ]; then \
		install -m 0644 config/touchd.yaml "$$conf" && echo "installed $$conf"; \
	elif cmp -s config/touchd.yaml "$$conf"; then \
		rm -f "$$conf.default"; echo "kept $$conf (the shipped default)"; \
	else \
		install -m 0644 config/touchd.yaml "$$conf.default"; \
		echo "kept your $$conf; the new default is $$conf.default"; \
	fi
	@if [ -z "$(DESTDIR)" ]; then \
		command -v systemd-sysusers >/dev/null && systemd-sysusers "$(SYSUSERSDIR)/touchd.conf"; \
		command -v systemd-tmpfiles >/dev/null && systemd-tmpfiles --create "$(TMPFILESDIR)/touchd.conf"; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
		if command -v udevadm >/dev/null && [ -S /run/udev/control ]; then \
			udevadm control --reload && udevadm trigger --subsystem-match=input --action=change; fi; \
		echo "next: systemctl enable --now touchd.socket; add client users to the group touchd-clients (docs/deploy.md)"; \
	fi

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/touchd" "$(DESTDIR)$(BINDIR)/touchctl" \
		"$(DESTDIR)$(UNITDIR)/touchd.service" "$(DESTDIR)$(UNITDIR)/touchd.socket" \
		"$(DESTDIR)$(UNITDIR)/touchd-guard.service" \
		$(foreach u,$(USER_UNITS),"$(DESTDIR)$(USERUNITDIR)/$(u)") \
		"$(DESTDIR)$(SYSUSERSDIR)/touchd.conf" "$(DESTDIR)$(TMPFILESDIR)/touchd.conf" "$(DESTDIR)$(UDEVRULESDIR)/70-touchd.rules" \
		"$(DESTDIR)$(UDEVRULESDIR)/90-touchd-mirror.rules" \
		"$(DESTDIR)$(MANDIR)/man1/touchctl.1" "$(DESTDIR)$(MANDIR)/man5/touchd.yaml.5" \
		"$(DESTDIR)$(MANDIR)/man8/touchd.8" "$(DESTDIR)$(DOCDIR)/touchd.yaml" \
		"$(DESTDIR)$(DOCDIR)/touchd-pass-through.conf" \
		$(foreach r,$(RULE_EXAMPLES),"$(DESTDIR)$(DOCDIR)/udev-rules/$(r)") \
		"$(DESTDIR)$(CONFDIR)/touchd.yaml.default" \
		"$(DESTDIR)$(GNOME_EXTDIR)/metadata.json" "$(DESTDIR)$(GNOME_EXTDIR)/extension.js"
	-rmdir "$(DESTDIR)$(DOCDIR)/udev-rules" "$(DESTDIR)$(DOCDIR)" "$(DESTDIR)$(GNOME_EXTDIR)" 2>/dev/null
	@conf="$(DESTDIR)$(CONFDIR)/touchd.yaml"; \
	if [ -e "$$conf" ]; then \
		if cmp -s config/touchd.yaml "$$conf"; then rm -f "$$conf"; echo "removed $$conf (unmodified)"; \
		else echo "kept $$conf (modified)"; fi; \
	fi; \
	rmdir "$(DESTDIR)$(CONFDIR)" 2>/dev/null || true
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi

# The Debian package .build/deb/touchd_VERSION_ARCH.deb (docs/deploy.md).
deb: release
	@BUILD_DIR=$(BUILD_DIR) scripts/make-deb.sh

# The package in a clean debootstrap root: lintian, install, units, run, purge.
check-deb: release
	@debs=$$(BUILD_DIR=$(BUILD_DIR) scripts/make-deb.sh) && scripts/check-deb.sh $$debs

# The Python client (clients/python): pip-installed into a venv, typed, its
# tests against a real touchd replaying a recording.
check-python: release
	@scripts/check-python.sh

# The C client library (clients/c, libtouchd-client): built with cc, its test
# program against a real touchd, the example built with pkg-config.
check-c: release
	@BUILD_DIR=$(BUILD_DIR) scripts/check-c.sh

# Drag sessions across clients end to end: a Python source, a C target and a
# bystander against a real touchd replaying a hold-then-drag (semantics §12).
check-drag: release
	@BUILD_DIR=$(BUILD_DIR) scripts/check-drag.sh

# Installs into a temporary DESTDIR and checks the tree, the units
# (systemd-analyze verify and security), the udev rules and the man pages.
check-install: release
	@scripts/check-install.sh
