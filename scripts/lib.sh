# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the stacker scripts: paths, logging and stage timing.

STACKER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STACKER_CACHE=${STACKER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stacker}
# The kernel package this project targets (see Documentation/admin-guide.rst).
KERNEL_PKG=${KERNEL_PKG:-linux-source-7.3}
KERNEL_SUITE=${KERNEL_SUITE:-trixie-backports}

log() { printf '[stacker] %s\n' "$*" >&2; }
die() { printf '[stacker] error: %s\n' "$*" >&2; exit 1; }

# stage NAME CMD...: run CMD, print when it starts and how long it took.
stage() {
	local name=$1 start end rc
	shift
	start=$(date +%s)
	log "stage '$name': start"
	"$@"
	rc=$?
	end=$(date +%s)
	if [ "$rc" -eq 0 ]; then
		log "stage '$name': done in $((end - start)) s"
	else
		log "stage '$name': FAILED (exit $rc) after $((end - start)) s"
	fi
	return "$rc"
}
