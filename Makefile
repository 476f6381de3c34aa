# touchd: `make run` and `make test` are all a fresh Debian machine needs.
SWIFT      ?= swift
CONFIG     ?= debug
BUILD_DIR  ?= .build
APT_PKGS   := libevdev-dev libudev-dev libsystemd-dev pkg-config
DEMO_TRACE ?= Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events
TOUCHCTL   := $(BUILD_DIR)/release/touchctl

.PHONY: all deps build release run test test-vm check-cli check-schemas check-view pictures bench clean

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

release: deps
	$(SWIFT) build -c release

# Starts touchd on a bundled real recording (a virtual device, no hardware
# needed) on a temporary socket, and prints what a client subscribed with
# `touchctl monitor` receives; touchd stops when the replay is over.
TOUCHD     := $(BUILD_DIR)/release/touchd
RUN_SOCKET ?= /tmp/touchd-run-$(shell id -u).sock
run: release
	@rm -f "$(RUN_SOCKET)"; \
	$(TOUCHD) --replay "$(DEMO_TRACE)" --socket "$(RUN_SOCKET)" --wait-for-subscribers 1 --exit-after-replay & pid=$$!; \
	tries=0; while [ ! -S "$(RUN_SOCKET)" ]; do \
		tries=$$((tries + 1)); if [ $$tries -gt 300 ] || ! kill -0 $$pid 2>/dev/null; then echo "touchd did not start" >&2; exit 1; fi; \
		sleep 0.1; \
	done; \
	$(TOUCHCTL) monitor --socket "$(RUN_SOCKET)" --events gesture,device; status=$$?; \
	wait $$pid; exit $$status

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory check-cli
	$(MAKE) --no-print-directory check-schemas
	$(MAKE) --no-print-directory check-view
	$(MAKE) --no-print-directory test-vm

# Every example message of docs/schemas against its JSON Schema (and the decoder's verdict).
check-schemas:
	@python3 -c 'import jsonschema, referencing' 2>/dev/null || python3 -m pip install -q jsonschema referencing
	python3 docs/schemas/validate.py

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
bench: deps
	cd Benchmarks && $(SWIFT) build -c release
	LD_PRELOAD="$$(find Benchmarks/.build/release -name 'libMallocInterposerSwift.so' | head -1)" Benchmarks/.build/release/touchd-bench "$(CURDIR)"
