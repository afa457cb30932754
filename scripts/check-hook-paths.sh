#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Check the built stacker object: no hook entry point may reach a panic or
# make an indirect call. Reads the relocations and instructions of every
# stacker_<hook> function (the LSM hook entry points, not stacker_rs_*).
#
# Usage: check-hook-paths.sh BUILD_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"

obj="${1:?usage: check-hook-paths.sh BUILD_DIR}/security/stacker/stacker/stacker_main.o"
[ -f "$obj" ] || die "no $obj: build the kernel first"

report=$(objdump -dr --no-show-raw-insn "$obj" | awk '
	/^[0-9a-f]+ <.*>:$/ {
		fn = $2; gsub(/[<>:]/, "", fn)
		hook = (fn ~ /^stacker_/ && fn !~ /^stacker_rs_/)
		if (hook) n++
		next
	}
	hook && /R_X86_64/ && /panic|unwrap_failed|expect_failed/ { print fn ": reaches " $3 }
	hook && /(call|jmp)[a-z]*[ \t]+\*/ { print fn ": indirect branch: " $0 }
	hook && /__x86_indirect_thunk/ { print fn ": indirect call through a thunk" }
	END { print "checked " n " hook entry points" > "/dev/stderr" }
')
if [ -n "$report" ]; then
	printf '%s\n' "$report" >&2
	die "hook entry points with a panic path or an indirect branch (above)"
fi
log "hook entry points: no panic path, no indirect branch"
