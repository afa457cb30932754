#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Compile the SELinux policy of the bench variant "selinux".
#
# The policy (tests/bench/policy.conf) is written without the
# classes, initial SIDs and permissions: those must be the ones the kernel
# was built with, so they are generated here from the kernel tree's own
# classmap.h and initial_sid_to_string.h by its scripts/selinux/mdp (the
# kernel's "minimal dummy policy" generator, built for the host). Its
# output up to its own policy part (the first "policycap" line) is the
# declaration part of a policy.conf; ours follows. checkpolicy -M compiles
# the whole as an MLS policy.
#
# Usage: selinux-policy.sh OUTDIR   (prints the path of the binary policy)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:?usage: selinux-policy.sh OUTDIR}
KSRC=${KSRC:-$STACKER_CACHE/linux}
mdp_src=$KSRC/scripts/selinux/mdp/mdp.c
[ -f "$mdp_src" ] || die "no $mdp_src: the kernel tree (KSRC=$KSRC) is needed for the SELinux classes"
command -v checkpolicy >/dev/null || die "checkpolicy missing (Debian package checkpolicy; scripts/setup.sh installs it)"

work="$out/selinux"
rm -rf "$work"
mkdir -p "$work/include/generated"
# mdp includes <linux/kconfig.h>, which wants the build's autoconf.h; the
# options it reads there only choose its fs_use lines, which are not used.
: >"$work/include/generated/autoconf.h"
gcc -O1 -I "$KSRC/include" -I "$KSRC/security/selinux/include" -I "$work/include" \
	-o "$work/mdp" "$mdp_src" || die "building $mdp_src for the host failed"
"$work/mdp" "$work/mdp.conf" "$work/mdp.file_contexts" >/dev/null || die "mdp failed"
awk '/^policycap / { exit } { print }' "$work/mdp.conf" >"$work/declarations.conf"
grep -q '^class file$' "$work/declarations.conf" || die "mdp gave no class declarations"
cat "$work/declarations.conf" "$STACKER_ROOT/tests/bench/policy.conf" >"$work/policy.conf"
# -c 33: the newest policy format checkpolicy 3.4 writes; 7.3 reads it.
checkpolicy -M -c 33 -o "$work/policy.33" "$work/policy.conf" >"$work/checkpolicy.log" 2>&1 \
	|| { cat "$work/checkpolicy.log" >&2; die "checkpolicy failed on $work/policy.conf"; }
printf '%s\n' "$work/policy.33"
