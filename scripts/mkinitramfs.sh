#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs: busybox-static, tests/guest/init, the static
# test programs built from tests/guest/*.c on the kernel tree's
# kselftest_harness.h and the tree's LSM selftests (/tests/lsm_*), and what
# they load (/etc).
#
# Usage: mkinitramfs.sh OUTDIR [--bench]   (prints the path of the .cpio.gz)
# --bench adds the benchmark programs (tests/bench), the variants' setup
# scripts with the SELinux policy they load (tests/bench/setup,
# tests/bench/selinux) and, when Debian's dbench is installed, dbench/tbench
# with their libraries.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export PATH="$HOME/.cargo/bin:$PATH"

out=${1:?usage: mkinitramfs.sh OUTDIR [--bench]}
# Absolute: the selftests' headers_install runs make -C in the kernel tree,
# where a relative O= or INSTALL_HDR_PATH would land.
mkdir -p "$out"
out=$(cd "$out" && pwd)
bench=${2:-}
# Absolute: the guest programs are built from their own directory.
mkdir -p "$out"
out=$(cd "$out" && pwd)
root="$out/initramfs"
rm -rf "$root"
mkdir -p "$root"/{bin,proc,sys,dev,tmp,tests,helpers}

[ -x /bin/busybox ] || die "/bin/busybox missing (package busybox-static)"
file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' \
	|| ldd /bin/busybox 2>&1 | grep -q 'not a dynamic' \
	|| die "/bin/busybox is not static (package busybox-static)"
cp /bin/busybox "$root/bin/busybox"

# copy_libraries PROGRAM...: the shared libraries the programs load, where
# the loader looks for them in the guest.
copy_libraries() {
	local lib
	for lib in $(ldd "$@" | grep -o '/[^ ]*\.so[^ ]*' | sort -u); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
install -m 0755 "$STACKER_ROOT/tests/guest/init" "$root/init"

# hook_names.h: the hooks of the table and of each submodule, from the sources.
gen="$out/generated"
mkdir -p "$gen"
python3 "$STACKER_ROOT/scripts/gen-hook-names.py" "$STACKER_ROOT" "$gen/hook_names.h" \
	|| die "generating hook_names.h failed"

# The kernel tree's selftests, for the guest programs: a copy of
# tools/testing/selftests/lsm and of the harness (kselftest_harness.h,
# kselftest.h) in $tree/$sel with the patches to tools/testing/selftests/
# (linux/patches, which teach them stacker's ids) applied, and the tree's
# user-space headers in $st/usr/include (headers_install: linux/lsm.h with
# LSM_ID_STACKER, the LSM syscalls' numbers). The sources are copied out of
# the tree and the patches applied to the copy, so that what is built does
# not depend on which patches the (shared) tree has applied right now.
ksrc=${KSRC:-$STACKER_CACHE/linux}
st="$out/selftests"
tree="$st/tree"
sel=tools/testing/selftests
prepare_selftests() {
	local p
	[ -d "$ksrc/$sel/lsm" ] || die "no $sel/lsm in '$ksrc': run scripts/setup.sh or set KSRC"
	make -s -C "$ksrc" O="$st/hdr-build" INSTALL_HDR_PATH="$st/usr" headers_install >&2 \
		|| die "headers_install from $ksrc failed"
	grep -q LSM_ID_STACKER "$st/usr/include/linux/lsm.h" \
		|| die "$ksrc has no LSM_ID_STACKER: run scripts/build-kernel.sh first"
	rm -rf "$tree"
	mkdir -p "$tree/$sel/lsm"
	cp "$ksrc/$sel/lsm/"*.[ch] "$tree/$sel/lsm/"
	cp "$ksrc/$sel/kselftest_harness.h" "$ksrc/$sel/kselftest.h" "$tree/$sel/"
	# Only the patches to the selftests (stacker_patches: not the cover
	# letter); one the tree has already applied (the copy came from it)
	# applies backwards.
	while IFS= read -r p; do
		grep -qvE "^b/$sel/" <<<"$(patch_paths "$p")" && continue
		patch -d "$tree" -p1 -R --dry-run -s -f <"$p" >/dev/null 2>&1 && continue
		patch -d "$tree" -p1 -s -f <"$p" >/dev/null \
			|| die "$(basename "$p") applies neither forwards nor backwards to $ksrc/$sel"
	done < <(stacker_patches)
}
prepare_selftests

# The guest programs (tests/guest/*.c), on kselftest_harness.h. Built in
# their directory, so that the harness's messages name "FILE.c:LINE".
for src in "$STACKER_ROOT"/tests/guest/*.c; do
	name=$(basename "$src" .c)
	(cd "$STACKER_ROOT/tests/guest" && gcc -static -O2 -Wall -Wextra -Werror \
		-isystem "$st/usr/include" -I "$gen" -I "$tree/$sel" -o "$root/tests/$name" "$name.c") \
		|| die "building guest test $name failed"
done

# The kernel's LSM selftests (tools/testing/selftests/lsm), as guest
# programs /tests/lsm_*.
for t in lsm_get_self_attr_test lsm_list_modules_test lsm_set_self_attr_test; do
	gcc -static -O2 -Wall -Werror -isystem "$st/usr/include" -I "$tree/$sel" \
		-o "$root/tests/$t" "$tree/$sel/lsm/$t.c" "$tree/$sel/lsm/common.c" \
		|| die "building selftest $t failed"
done

# compile_mlte SRC OUT: an mlte policy, compiled by the repository's own
# policy tool (which checks it with the kernel's checker).
compile_mlte() {
	(cd "$STACKER_ROOT" && cargo run --quiet --bin mlte-policy -- compile "$1" "$2") >&2 \
		|| die "compiling mlte policy $1 failed"
}

# The compiled mlte policies of the boot tests (tests/guest/mlte/*.policy).
mkdir -p "$root/etc/mlte"
for src in "$STACKER_ROOT"/tests/guest/mlte/*.policy; do
	compile_mlte "$src" "$root/etc/mlte/$(basename "$src" .policy).bin"
done
# The test policy as a reload may change it: public_t renamed shared_t,
# init_t declared last of the types (every type id moves).
sed -e 's/public_t/shared_t/g' -e '/^type init_t;/d' -e '/^type user_tmp_t;/a type init_t;' \
	"$STACKER_ROOT/tests/guest/mlte/test.policy" >"$root/etc/mlte/renamed.policy"
compile_mlte "$root/etc/mlte/renamed.policy" "$root/etc/mlte/renamed.bin"
# The test policy with nonet_t a permissive domain and user_t's reads of
# public_t audited when granted.
{ cat "$STACKER_ROOT/tests/guest/mlte/test.policy"
  printf 'permissive nonet_t;\nauditallow user_t public_t : file read;\n'; } >"$root/etc/mlte/audited.policy"
compile_mlte "$root/etc/mlte/audited.policy" "$root/etc/mlte/audited.bin"
# The test policy with a boolean that lets user_t read secret_t.
{ cat "$STACKER_ROOT/tests/guest/mlte/test.policy"
  printf 'bool user_reads_secret false;\nif (user_reads_secret) { allow user_t secret_t : file { read open getattr }; }\n'; } \
	>"$root/etc/mlte/boolean.policy"
compile_mlte "$root/etc/mlte/boolean.policy" "$root/etc/mlte/boolean.bin"
# The test policy with 5,000 more types and 100,000 rules among them
# (tests/guest/mlte/scale-policy.py, a fixed seed).
python3 "$STACKER_ROOT/tests/guest/mlte/scale-policy.py" "$STACKER_ROOT/tests/guest/mlte/test.policy" \
	>"$out/scale.policy" || die "generating the mlte scale policy failed"
compile_mlte "$out/scale.policy" "$root/etc/mlte/scale.bin"

# The integrity test's policy, the keys its fixture disk was made with and
# the spare certificates of fault_injection_test (scripts/integrity-fixtures.py,
# cached in OUTDIR/integrity; test.sh attaches OUTDIR/integrity/integrity.img
# with boottest.py --disk).
python3 -B "$STACKER_ROOT/scripts/integrity-fixtures.py" "$out/integrity" >/dev/null \
	|| die "making the integrity fixtures failed"
mkdir -p "$root/etc/integrity"
install -m 0644 "$out/integrity/"cert[1-8].der "$out/integrity/evm.key" \
	"$STACKER_ROOT/tests/guest/integrity/test.policy" "$root/etc/integrity/"

# The coexistence boots' policies (tests/guest/coexist_test.c): SELinux's
# (the bench's MLS policy, compiled for this kernel's classes), and the
# AppArmor profile with Debian's apparmor_parser and the libraries it
# loads, which loads it in the guest against the kernel's own features.
policy=$("$STACKER_ROOT/scripts/selinux-policy.sh" "$out") || die "compiling the SELinux policy failed"
mkdir -p "$root/etc/selinux" "$root/etc/apparmor" "$root/sbin"
install -m 0644 "$policy" "$root/etc/selinux/policy"
install -m 0644 "$STACKER_ROOT/tests/guest/coexist/apparmor.profile" "$root/etc/apparmor/stacker_coexist"

# The equivalence test's policies (tests/guest/mlte_equivalence_test.c):
# random policy.conf files in the subset (tests/mlte/equivalence.py, after
# this kernel's class declarations), each compiled by checkpolicy for
# SELinux and by mlte-policy for mlte. The seeds are 1 to 6, or the six of
# EQUIVALENCE_SEEDS (scripts/equivalence-fuzz.sh, make fuzz); policy N of
# the guest is the Nth seed's, and the guest's seeds file names them.
eq="$root/etc/mlte/equivalence"
mkdir -p "$eq"
read -r -a seeds <<<"${EQUIVALENCE_SEEDS:-1 2 3 4 5 6}"
# Six: mlte_equivalence_test.c has one test for each.
[ "${#seeds[@]}" -eq 6 ] || die "EQUIVALENCE_SEEDS must name six seeds, not '${seeds[*]}'"
: >"$eq/seeds"
for n in 1 2 3 4 5 6; do
	seed=${seeds[n - 1]}
	[[ $seed =~ ^[0-9]+$ ]] || die "equivalence seed '$seed' is not a number"
	python3 "$STACKER_ROOT/tests/mlte/equivalence.py" "$out/selinux/declarations.conf" "$seed" "$out/equivalence" \
		|| die "generating equivalence policy $seed failed"
	checkpolicy -M -c 33 -o "$eq/$n.selinux" "$out/equivalence/$seed.conf" >"$out/equivalence/$seed.log" 2>&1 \
		|| { cat "$out/equivalence/$seed.log" >&2; die "checkpolicy refused equivalence policy $seed"; }
	compile_mlte "$out/equivalence/$seed.conf" "$eq/$n.mlte"
	install -m 0644 "$out/equivalence/$seed.contexts" "$eq/$n.contexts"
	install -m 0644 "$out/equivalence/$seed.booleans" "$eq/$n.booleans"
	install -m 0644 "$out/equivalence/$seed.names" "$eq/$n.names"
	echo "$n $seed" >>"$eq/seeds"
done
install -m 0644 "$out/equivalence/classes" "$eq/classes"
# The scale policy in the subset both compile: the SELinux policy's source
# (this kernel's declarations and tests/bench/policy.conf) with 5,000 more
# types and 100,000 allow rules, by checkpolicy for SELinux and by
# mlte-policy for mlte, and the type pairs of its first 100 generated rules
# (mlte_equivalence_test.c's scale test loads both and compares).
python3 "$STACKER_ROOT/tests/guest/mlte/scale-policy.py" --pairs "$eq/scale.pairs" \
	"$out/selinux/policy.conf" >"$out/equivalence/scale.conf" \
	|| die "generating the scale policy for SELinux and mlte failed"
checkpolicy -M -c 33 -o "$eq/scale.selinux" "$out/equivalence/scale.conf" >"$out/equivalence/scale.log" 2>&1 \
	|| { cat "$out/equivalence/scale.log" >&2; die "checkpolicy refused the scale policy"; }
compile_mlte "$out/equivalence/scale.conf" "$eq/scale.mlte"
parser=$(command -v apparmor_parser || true)
[ -n "$parser" ] || parser=/sbin/apparmor_parser
[ -x "$parser" ] || die "apparmor_parser missing (Debian package apparmor; scripts/setup.sh installs it)"
cp -L "$parser" "$root/sbin/apparmor_parser"
copy_libraries "$parser"
# Debian's auditctl, which adds labels_test's audit rules on mlte's types.
auditctl=$(command -v auditctl || true)
[ -n "$auditctl" ] || auditctl=/sbin/auditctl
[ -x "$auditctl" ] || die "auditctl missing (Debian package auditd; scripts/setup.sh installs it)"
cp -L "$auditctl" "$root/sbin/auditctl"
copy_libraries "$auditctl"

# Helpers that tests run; not tests themselves.
for src in "$STACKER_ROOT"/tests/guest/helpers/*.c; do
	name=$(basename "$src" .c)
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/helpers/$name" "$src" \
		|| die "building guest helper $name failed"
done
# 32-bit (i386) helpers, for the compat system calls of the test kernel
# (CONFIG_IA32_EMULATION): gcc -m32 needs gcc-multilib.
for src in "$STACKER_ROOT"/tests/guest/helpers32/*.c; do
	name=$(basename "$src" .c)
	gcc -m32 -static -O2 -Wall -Wextra -Werror -o "$root/helpers/$name" "$src" \
		|| die "building 32-bit guest helper $name failed (gcc -m32: package gcc-multilib)"
done

if [ "$bench" = --bench ]; then
	mkdir -p "$root/bench"
	for src in "$STACKER_ROOT"/tests/bench/*.c; do
		name=$(basename "$src" .c)
		gcc -static -O2 -Wall -Wextra -Werror -o "$root/bench/$name" "$src" \
			|| die "building benchmark program $name failed"
	done
	install -m 0755 "$STACKER_ROOT/tests/bench/run.sh" "$root/bench/run.sh"
	# The variants' guest setup scripts (bench.sh's VARIANTS, 5th field),
	# and what they load: the bench policy (tests/bench/policy.conf with
	# this kernel's declarations, as selinux-policy.sh put it together),
	# compiled by checkpolicy for SELinux and by mlte-policy for mlte.
	mkdir -p "$root/bench/setup" "$root/bench/selinux" "$root/bench/mlte"
	install -m 0644 "$STACKER_ROOT"/tests/bench/setup/*.sh "$root/bench/setup/"
	install -m 0644 "$policy" "$root/bench/selinux/policy"
	bench_conf="$(dirname "$policy")/policy.conf"
	compile_mlte "$bench_conf" "$root/bench/mlte/policy"
	# The same policy with categories c0 to c1023, for "mlte-cat1024".
	awk '/^category c3;$/ { for (c = 3; c < 1024; c++) print "category c" c ";"; next }
		{ gsub(/c0\.c3/, "c0.c1023"); print }' "$bench_conf" \
		>"$out/bench-cat1024.policy"
	compile_mlte "$out/bench-cat1024.policy" "$root/bench/mlte/policy-cat1024"
	if [ -x /usr/bin/dbench ] && [ -x /usr/bin/tbench ] && [ -x /usr/bin/tbench_srv ]; then
		cp /usr/bin/dbench /usr/bin/tbench /usr/bin/tbench_srv "$root/bench/"
		copy_libraries /usr/bin/dbench /usr/bin/tbench_srv
		# A slice of the NetBench load, cut where no file is open, so that
		# dbench can replay it in a loop.
		python3 - /usr/share/dbench/client.txt "$root/bench/client.txt" <<'PY'
import sys
opened, out = set(), []
for line in open(sys.argv[1]):
    out.append(line)
    w = line.split()
    if len(w) > 1 and w[0] == "NTCreateX" and w[-1] == "NT_STATUS_OK":
        opened.add(w[-2])
    elif len(w) > 1 and w[0] == "Close":
        opened.discard(w[1])
    if len(out) >= 5000 and not opened:
        break
open(sys.argv[2], "w").writelines(out)
PY
	fi
fi

(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) | gzip -9 >"$out/initramfs${bench:+-bench}.cpio.gz"
printf '%s\n' "$out/initramfs${bench:+-bench}.cpio.gz"
