#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Style checks that need no kernel build: rustfmt with the kernel's settings
# on every Rust file, and bash -n on the scripts. (The Rust lints run during
# the kernel build, with CLIPPY=1 and -Dwarnings.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cd "$STACKER_ROOT"
mapfile -t rs < <(git ls-files -co --exclude-standard '*.rs' 2>/dev/null || find . -name '*.rs' -not -path './target/*')
[ -x /usr/bin/rustfmt ] || die "/usr/bin/rustfmt missing (package rustfmt-web)"
/usr/bin/rustfmt --config-path .rustfmt.toml --check "${rs[@]}" \
	|| die "rustfmt: the files above are not formatted (run: /usr/bin/rustfmt --config-path .rustfmt.toml FILE)"
for s in scripts/*.sh .ci/run; do
	bash -n "$s" || die "syntax error in $s"
done
python3 -m py_compile tests/qemu/boottest.py
log "lint: ${#rs[@]} Rust files formatted, scripts parse"
