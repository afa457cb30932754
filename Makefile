# SPDX-License-Identifier: GPL-2.0
#
# User commands. (Kbuild reads the file named Kbuild in this directory, so
# this Makefile is never seen by the kernel build.)
#
#   make run    set up, build the kernel with stacker, boot it in QEMU and
#               show the chain and one denial
#   make test   set up, run host tests and KUnit, build the kernel, run boot
#               tests
#   make test-debug  every boot test on the debug kernel (linux/debug.config)
#   make kunit  stacker's KUnit suites through the kernel's kunit.py
#   make bench  benchmark every variant side by side (see README)
#   make fuzz   run every fuzz target for FUZZ_SECONDS (default 600) each

.PHONY: run test test-debug kunit bench profile fuzz setup kernel host-test clean

run:
	@scripts/run.sh

test:
	@scripts/test.sh

test-debug:
	@STACKER_TEST_DEBUG=1 scripts/test.sh

kunit:
	@scripts/kunit.sh

bench:
	@scripts/bench.sh

# PROFILE="WORKLOAD [ROUNDS [TOP]] [-- VARIANT...]" (scripts/profile.sh)
profile:
	@scripts/profile.sh $(or $(PROFILE),create_delete)

fuzz:
	@scripts/fuzz.sh

setup:
	@scripts/setup.sh

kernel:
	@scripts/build-kernel.sh

host-test:
	@cargo test --workspace --all-targets

clean:
	rm -rf out target
