#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs: busybox-static, tests/guest/init and the
# static test programs built from tests/guest/*.c.
#
# Usage: mkinitramfs.sh OUTDIR   (prints the path of the .cpio.gz)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:?usage: mkinitramfs.sh OUTDIR}
root="$out/initramfs"
rm -rf "$root"
mkdir -p "$root"/{bin,proc,sys,dev,tmp,tests,helpers}

[ -x /bin/busybox ] || die "/bin/busybox missing (package busybox-static)"
file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' \
	|| ldd /bin/busybox 2>&1 | grep -q 'not a dynamic' \
	|| die "/bin/busybox is not static (package busybox-static)"
cp /bin/busybox "$root/bin/busybox"
install -m 0755 "$STACKER_ROOT/tests/guest/init" "$root/init"

for src in "$STACKER_ROOT"/tests/guest/*.c; do
	name=$(basename "$src" .c)
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/tests/$name" "$src" \
		|| die "building guest test $name failed"
done

# Helpers that tests run; not tests themselves.
for src in "$STACKER_ROOT"/tests/guest/helpers/*.c; do
	name=$(basename "$src" .c)
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/helpers/$name" "$src" \
		|| die "building guest helper $name failed"
done

(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) | gzip -9 >"$out/initramfs.cpio.gz"
printf '%s\n' "$out/initramfs.cpio.gz"
