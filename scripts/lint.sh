#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Style checks that need no kernel build: rustfmt with the kernel's settings
# on every Rust file, bash -n and shellcheck on the scripts, the kernel's
# checkpatch on stacker's C and on the patches in linux/patches, and a
# syntax check of the boot-test harness that writes no bytecode. (The Rust
# lints run during the kernel build, with CLIPPY=1 and -Dwarnings.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cd "$STACKER_ROOT"
mapfile -t rs < <(git ls-files -co --exclude-standard '*.rs' 2>/dev/null || find . -name '*.rs' -not -path './target/*')
[ -x /usr/bin/rustfmt ] || die "/usr/bin/rustfmt missing (package rustfmt-web)"
/usr/bin/rustfmt --config-path .rustfmt.toml --check "${rs[@]}" \
	|| die "rustfmt: the files above are not formatted (run: /usr/bin/rustfmt --config-path .rustfmt.toml FILE)"
scripts=(scripts/*.sh .ci/run)
for s in "${scripts[@]}"; do
	bash -n "$s" || die "syntax error in $s"
done
# Required, not skipped when missing: setup.sh installs shellcheck,
# and make test runs setup before lint.
command -v shellcheck >/dev/null \
	|| die "shellcheck missing (package shellcheck; scripts/setup.sh installs it)"
# Warnings and errors fail; SC1091 (lib.sh is sourced through a computed
# path, which shellcheck cannot follow) is only informational.
shellcheck --severity=warning "${scripts[@]}" \
	|| die "shellcheck: the scripts above have warnings"
checked="scripts parse and pass shellcheck"
# checkpatch on the kernel C (the glue and its headers), from the cached
# kernel tree. Ignored: what the X-macro lists (lsm_hook_defs.h's LSM_HOOK,
# layout_check.c's STACKER_FIELDS, stacker.h's STACKER_OWN_LSMS) trip by
# design: COMPLEX_MACRO, MACRO_ARG_UNUSED, TRAILING_SEMICOLON (an X-macro
# that defines or declares one item per entry ends each with its ';', as
# security.c's LSM_HOOK does), and CONST_STRUCT for the struct
# file_operations in a sizeof list.
checkpatch="${KSRC:-$STACKER_CACHE/linux}/scripts/checkpatch.pl"
if [ -x "$checkpatch" ]; then
	mapfile -t csrc < <(git ls-files -co --exclude-standard 'stacker/kernel/*.[ch]' 'modules/*.[ch]' \
		| grep -v '^modules/.*/tests\?/' || true)
	if ! report=$("$checkpatch" --no-tree --terse --quiet -f \
		--ignore COMPLEX_MACRO,MACRO_ARG_UNUSED,TRAILING_SEMICOLON,CONST_STRUCT "${csrc[@]}"); then
		grep -v '^total:' <<<"$report" >&2
		die "checkpatch: the C files above have errors or warnings"
	fi
	checked="$checked; ${#csrc[@]} C files pass checkpatch"
	# checkpatch on the kernel patches, as patches (subject, changelog,
	# Signed-off-by, the code they add); the cover letter has no diff and
	# is left out (stacker_patches). Ignored: COMPLEX_MACRO, which
	# include/linux/lsm_count.h trips by design: each *_ENABLED macro
	# expands to bare "1," list items, one per LSM, that MAX_LSM_COUNT
	# counts as arguments of __COUNT_LSMS, so parentheses would break
	# the count (STACKER_PROBES_ENABLED, for three LSMs, is "1, 1, 1,").
	# FILE_PATH_CHANGES too: it asks whether MAINTAINERS needs a line
	# for any added file, and the one file the series adds,
	# include/linux/lsm/stacker.h, is under SECURITY SUBSYSTEM's
	# "F: include/linux/lsm/" already.
	mapfile -t patches < <(stacker_patches)
	if ! report=$("$checkpatch" --no-tree --terse --quiet --ignore COMPLEX_MACRO,FILE_PATH_CHANGES \
		"${patches[@]}"); then
		grep -v '^total:' <<<"$report" >&2
		die "checkpatch: the patches above have errors or warnings"
	fi
	checked="$checked; ${#patches[@]} kernel patches pass checkpatch"
else
	log "checkpatch skipped: no kernel tree at ${KSRC:-$STACKER_CACHE/linux} (run scripts/setup.sh)"
	checked="$checked; checkpatch skipped (no kernel tree)"
fi
for py in tests/qemu/*.py tests/scripts/*.py scripts/*.py; do
	python3 -B -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$py" \
		|| die "syntax error in $py"
done
# The boot-test harness's own unit tests (crafted logs; no QEMU).
python3 -B -m unittest -q tests/qemu/test_boottest.py 2>&1 | tail -n 1 \
	|| die "boottest.py unit tests failed"
# And of the boot driver (the BOOTS table, --only, retries; boottest.py
# faked).
python3 -B -m unittest -q tests/qemu/test_boots.py 2>&1 | tail -n 1 \
	|| die "boots.py unit tests failed"
# check-hook-paths.py's reading of objdump (crafted disassembly: panic
# paths, indirect branches, section-relative calls).
python3 -B -m unittest -q tests/scripts/test_check_hook_paths.py 2>&1 | tail -n 1 \
	|| die "check-hook-paths.py unit tests failed"
# integrity-fixtures.py's pure parts: the bytes EVM's HMAC covers (against
# integrity-hmac's value), real debugfs stat output, MANIFEST.sha256 and the
# byte of the xattr block's checksum it breaks.
python3 -B -m unittest -q tests/scripts/test_integrity_fixtures.py 2>&1 | tail -n 1 \
	|| die "integrity-fixtures.py unit tests failed"
# sepolgen (audit2allow, audit2why) reads mlte's denial lines, whole
# contexts included: Debian's python3 has the package.
/usr/bin/python3 -c 'import sys; sys.path.append("/usr/lib/python3/dist-packages"); import sepolgen' 2>/dev/null \
	|| die "sepolgen missing (package python3-sepolgen; scripts/setup.sh installs it)"
/usr/bin/python3 -B -m unittest -q tests/mlte/test_sepolgen.py 2>&1 | tail -n 1 \
	|| die "sepolgen does not read mlte's denial lines (tests/mlte/test_sepolgen.py)"
# kunit.sh's reading of kunit.py's JSON report (scripts/kunit-check.py):
# the real report in tests/kunit/report.json passes; a failed, skipped or
# crashed test, a skipped, missing or empty suite and a failing parameter
# each fail (tests/kunit/test_kunit_check.py).
scripts/kunit.sh --check tests/kunit/report.json >/dev/null \
	|| die "kunit.sh --check refused tests/kunit/report.json"
python3 -B -m unittest -q tests/kunit/test_kunit_check.py 2>&1 | tail -n 1 \
	|| die "kunit-check.py unit tests failed"
log "lint: ${#rs[@]} Rust files formatted, $checked; kunit.sh reads kunit.py's reports right"
