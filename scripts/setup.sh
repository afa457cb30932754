#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what building and booting a stacker kernel needs; safe to run twice.
#
# Everything comes from Debian's packages and crates.io. Nothing is
# upgraded: the two extra suites are added with low priority and only the
# named packages are taken from them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

APT_SOURCES=/etc/apt/sources.list.d/stacker.sources
APT_PREFS=/etc/apt/preferences.d/stacker.pref
BINDGEN_MIN=0.71.1

# Packages from the default suites (bookworm, bookworm-security).
DEB_PACKAGES=(
	build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils rsync
	python3 busybox-static libclang-19-dev
	# the debug kernel's clang build (KASAN with Rust needs CC_IS_CLANG):
	# clang, ld.lld and llvm-ar/nm/objcopy/... of the same LLVM as the
	# libclang that bindgen uses (scripts/build-kernel.sh, LLVM=)
	clang-19 lld-19 llvm-19
	# the static i386 guest helpers that make compat syscalls
	# (tests/guest/helpers32/, gcc -m32)
	gcc-multilib
	dbench python3-matplotlib valgrind shellcheck
	# compiles the SELinux policy of the bench variant "selinux" and of
	# the coexistence boots
	checkpolicy
	# audit2allow's library, which must read mlte's denial lines
	# (tests/mlte/test_sepolgen.py, run by scripts/lint.sh)
	python3-sepolgen
	# apparmor_parser, which loads coexist_test's AppArmor profile in the
	# guest (copied into the initramfs with its libraries)
	apparmor
	# auditctl, which adds the audit rules of labels_test in the guest
	# (copied into the initramfs with its libraries)
	auditd
	# the integrity boot test's fixtures (scripts/integrity-fixtures.py):
	# keys, IMA hashes and signatures, the ext4 image
	openssl ima-evm-utils e2fsprogs
	rustc-web rust-web-src rust-web-clippy rustfmt-web
)
# qemu-system-x86 must match the qemu-utils that bookworm-backports ships.
BACKPORT_PACKAGES=(qemu-system-x86)

need_root() {
	[ "$(id -u)" -eq 0 ] || die "setup must run as root (it installs Debian packages)"
}

# The mirror the machine already uses, read from its own apt sources.
debian_mirror() {
	local uri
	uri=$(grep -hE '^URIs:.*/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | awk '{print $2}')
	if [ -z "$uri" ]; then
		uri=$(grep -hE '^deb .*/debian/? bookworm ' /etc/apt/sources.list 2>/dev/null | head -n1 | awk '{print $2}')
	fi
	[ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list*; looked for a 'URIs: .../debian' line"
	printf '%s\n' "$uri"
}

add_suites() {
	local mirror want
	mirror=$(debian_mirror)
	want="Types: deb
URIs: $mirror
Suites: bookworm-backports $KERNEL_SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
	if [ ! -f "$APT_SOURCES" ] || [ "$(cat "$APT_SOURCES")" != "$want" ]; then
		log "adding apt suites bookworm-backports and $KERNEL_SUITE ($mirror)"
		printf '%s\n' "$want" >"$APT_SOURCES"
		APT_UPDATED=0
	fi
	# Never let the newer suite upgrade anything: only explicit downloads.
	cat >"$APT_PREFS" <<PREF
Package: *
Pin: release n=$KERNEL_SUITE
Pin-Priority: 50
PREF
}

APT_UPDATED=0
apt_update_once() {
	if [ "$APT_UPDATED" -eq 0 ]; then
		log "apt-get update"
		apt-get update -qq || die "apt-get update failed"
		APT_UPDATED=1
	fi
}

missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || printf '%s ' "$p"
	done
}

install_packages() {
	local missing
	missing=$(missing_packages "${DEB_PACKAGES[@]}")
	if [ -n "$missing" ]; then
		apt_update_once
		log "installing: $missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing \
			>"$STACKER_CACHE/apt.log" 2>&1 || { tail -n 20 "$STACKER_CACHE/apt.log" >&2; die "apt-get install failed for: $missing"; }
	fi
	missing=$(missing_packages "${BACKPORT_PACKAGES[@]}")
	if [ -n "$missing" ]; then
		apt_update_once
		log "installing from bookworm-backports: $missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			-t bookworm-backports $missing >"$STACKER_CACHE/apt.log" 2>&1 \
			|| { tail -n 20 "$STACKER_CACHE/apt.log" >&2; false; } || die "apt-get install -t bookworm-backports failed for: $missing"
	fi
	[ -x /usr/bin/rustc ] || die "/usr/bin/rustc missing after installing rustc-web"
	[ -d /usr/lib/rustlib/src/rust/library ] || die "rust library sources missing (looked in /usr/lib/rustlib/src/rust/library, package rust-web-src)"
	[ -d /usr/lib/llvm-19/lib ] || die "libclang 19 missing (looked in /usr/lib/llvm-19/lib, package libclang-19-dev)"
	local tool
	for tool in clang ld.lld llvm-ar llvm-nm llvm-objcopy llvm-objdump llvm-readelf llvm-strip; do
		[ -x "/usr/lib/llvm-19/bin/$tool" ] || die "/usr/lib/llvm-19/bin/$tool missing (packages clang-19, lld-19, llvm-19)"
	done
}

version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

install_bindgen() {
	local have=""
	export PATH="$HOME/.cargo/bin:$PATH"
	if command -v bindgen >/dev/null; then
		have=$(bindgen --version | awk '{print $2}')
	fi
	if [ -n "$have" ] && version_ge "$have" "$BINDGEN_MIN"; then
		return
	fi
	log "installing bindgen-cli (have '${have:-none}', need >= $BINDGEN_MIN) with cargo"
	cargo install --locked bindgen-cli || die "cargo install bindgen-cli failed"
}

# Fetch Debian's kernel source package into the cache, keyed by version.
fetch_kernel_source() {
	local version dir deb tarball
	if [ -n "${KSRC:-}" ]; then
		[ -f "$KSRC/Makefile" ] && [ -d "$KSRC/security" ] || die "KSRC=$KSRC is not a kernel source tree"
		log "using the kernel tree from KSRC=$KSRC"
		return
	fi
	version=$(apt-cache policy "$KERNEL_PKG" 2>/dev/null | awk '/Candidate:/ {print $2}')
	if [ -z "$version" ] || [ "$version" = "(none)" ]; then
		apt_update_once
		version=$(apt-cache madison "$KERNEL_PKG" 2>/dev/null | awk -v s="$KERNEL_SUITE" '$0 ~ s {print $3; exit}')
	fi
	[ -n "$version" ] || die "package $KERNEL_PKG not found in suite $KERNEL_SUITE (apt-cache madison $KERNEL_PKG found nothing)"
	dir="$STACKER_CACHE/src/$KERNEL_PKG-$version"
	if [ -f "$dir/.stacker-extracted" ]; then
		log "kernel source $KERNEL_PKG $version: cached in $dir"
	else
		log "kernel source: looked for $KERNEL_PKG in $KERNEL_SUITE, found version $version"
		mkdir -p "$STACKER_CACHE/deb"
		deb=
		for f in "$STACKER_CACHE/deb/${KERNEL_PKG}_"*.deb; do
			case "$f" in *"${version//:/%3a}"*) deb=$f; break ;; esac
		done
		if [ -z "$deb" ]; then
			(cd "$STACKER_CACHE/deb" && apt-get -o APT::Sandbox::User=root download "$KERNEL_PKG=$version") \
				|| die "apt-get download $KERNEL_PKG=$version failed"
			deb=$(ls "$STACKER_CACHE/deb/${KERNEL_PKG}_"*.deb | head -n1)
		fi
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/deb"
		dpkg-deb -x "$deb" "$dir.tmp/deb"
		tarball=$(ls "$dir.tmp/deb/usr/src/"linux-source-*.tar.* | head -n1)
		[ -f "$tarball" ] || die "no linux-source tarball inside $deb"
		log "extracting $(basename "$tarball")"
		tar -C "$dir.tmp" -xf "$tarball"
		rm -rf "$dir" && mv "$dir.tmp/$(basename "$tarball" | sed 's/\.tar\..*//')" "$dir"
		rm -rf "$dir.tmp"
		touch "$dir/.stacker-extracted"
	fi
	ln -sfn "$dir" "$STACKER_CACHE/linux"
}

need_root
mkdir -p "$STACKER_CACHE"
add_suites
install_packages
install_bindgen
fetch_kernel_source
log "setup complete (cache: $STACKER_CACHE)"
