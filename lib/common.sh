# SPDX-License-Identifier: GPL-2.0
# Shared by every part of the harness: messages, the base kernels and the
# paths of each, the Debian packages the harness installs.

say() { printf '>>> %s\n' "$*"; }
die() { printf 'harness: error: %s\n' "$*" >&2; exit 1; }

BUILD=${BUILD:-$TOP/build}
JOBS=${JOBS:-$(nproc)}

# The bases: one data file each, bases/B.sh, sorted by their BASE_ORDER;
# the first is mainline, whose series is the product.
BASES=()
while read -r _ b; do BASES+=("$b"); done < <(
	for f in "$TOP"/bases/*.sh; do
		echo "$(sed -n 's/^BASE_ORDER=//p' "$f") $(basename "$f" .sh)"
	done | sort -n)
MAINLINE=${BASES[0]}

# The target architectures: one data file each, targets/T.sh, sorted by
# their TARGET_ORDER; the first is the default. ARCH=T on the command line
# picks one (and "test" and "full" run that one only); inside the harness
# ARCH only overrides a kernel build's architecture (the i386 gate).
TARGETS=()
while read -r _ t; do TARGETS+=("$t"); done < <(
	for f in "$TOP"/targets/*.sh; do
		echo "$(sed -n 's/^TARGET_ORDER=//p' "$f") $(basename "$f" .sh)"
	done | sort -n)
ARCH_ARG=${ARCH:-}
unset ARCH
[ -z "$ARCH_ARG" ] || [ -f "$TOP/targets/$ARCH_ARG.sh" ] ||
	die "ARCH must be one of: ${TARGETS[*]} (got '$ARCH_ARG'; targets/ has one file per architecture)"
TARGET=${ARCH_ARG:-${TARGETS[0]}}

# use_target T: read targets/T.sh; the object, run and tool folders of a
# base (use_base) carry the suffix -T but for the default target.
use_target() {
	TARGET=$1
	unset TARGET_KARCH TARGET_CROSS TARGET_IMAGE TARGET_QEMU TARGET_CONSOLE TARGET_OUT \
		TARGET_OUT_QEMU TARGET_USERLAND TARGET_DEPS TARGET_TEST_BASES TARGET_TEST TARGET_KCONFIG \
		TARGET_NMI TARGET_NMI_ARGS TARGET_NMI_KCONFIG TARGET_FULL TARGET_GATES TARGET_BLK
	# shellcheck source=/dev/null
	source "$TOP/targets/$TARGET.sh"
	TSUF=
	[ "$TARGET" = "${TARGETS[0]}" ] || TSUF=-$TARGET
	[ -z "${BASE:-}" ] || use_base "$BASE"
}

# use_base B: read bases/B.sh and point KT (the workspace), OBJ (its build
# for the target), RUN (console logs and results), PATCHES and BASELINE at
# base B. Every
# base keeps its trees side by side under build/B/ so that an object
# directory always finds its source at ../linux: ccache then hits across
# the workspace, the base tree and the bisect tree.
use_base() {
	[ -f "$TOP/bases/$1.sh" ] || die "BASE must be one of: ${BASES[*]} (got '$1'; bases/ has one file per base)"
	BASE=$1
	unset BASE_PACKAGE BASE_ARCHIVE BASE_TESTED BASE_CONFIGS BASE_TEST_GATES BASE_FULL_GATES
	# shellcheck source=/dev/null
	source "$TOP/bases/$BASE.sh"
	BDIR=$BUILD/$BASE
	KT=$BDIR/linux
	OBJ=$BDIR/obj$TSUF
	RUN=$BDIR/run$TSUF
	PATCHROOT=${PATCHROOT:-$TOP/patches}
	PATCHES=$PATCHROOT/$BASE
	BASELINE=$TOP/tests/ftracetest-baseline-$BASE$TSUF.txt
}

# Debian packages the harness needs, and a command that proves each is there.
# A base whose source comes from the machine's own archive
# (BASE_ARCHIVE=installed) adds its package (base_deps); the others are
# fetched apart (lib/fetch.sh).
DEPS=(
	"gcc:command -v gcc" "libc6-dev:test -f /usr/include/stdio.h"
	"make:command -v make" "bc:command -v bc"
	"flex:command -v flex" "bison:command -v bison"
	"libelf-dev:test -f /usr/include/libelf.h" "libssl-dev:test -f /usr/include/openssl/ssl.h"
	"cpio:command -v cpio" "xz-utils:command -v xz" "git:command -v git"
	"python3:command -v python3" "perl:command -v perl" "rsync:command -v rsync"
	"busybox-static:test -x /bin/busybox"
	"ccache:command -v ccache"
	"clang:command -v clang" "lld:command -v ld.lld" "llvm:command -v llvm-ar"
	"trace-cmd:command -v trace-cmd"
	"sparse:command -v sparse"
	"python3-sphinx:test -x /usr/bin/sphinx-build"
	"python3-ply:/usr/bin/python3 -c 'import ply'"
	"python3-yaml:/usr/bin/python3 -c 'import yaml'"
	"python3-git:/usr/bin/python3 -c 'import git'"
	"debian-archive-keyring:test -f /usr/share/keyrings/debian-archive-keyring.gpg"
	"gpgv:command -v gpgv"
	"e2fsprogs:test -x /usr/sbin/mkfs.ext4"
)

base_deps() {
	local b pkg
	for b in "${BASES[@]}"; do
		# shellcheck source=/dev/null
		pkg=$(source "$TOP/bases/$b.sh"; [ "$BASE_ARCHIVE" != installed ] || echo "$BASE_PACKAGE")
		[ -z "$pkg" ] || DEPS+=("$pkg:test -f /usr/src/$pkg.tar.xz")
	done
}

# target_deps: what the targets the command runs need (targets/T.sh).
target_deps() {
	local t d
	for t in ${ARCH_ARG:-${TARGETS[*]}}; do
		while IFS= read -r d; do DEPS+=("$d"); done < <(
			# shellcheck source=/dev/null
			source "$TOP/targets/$t.sh"
			printf '%s\n' "${TARGET_DEPS[@]}")
	done
}

deps() {
	local missing=() d pkg check
	[ -n "${DEPS_BASES:-}" ] || { base_deps; target_deps; DEPS_BASES=1; }
	for d in "${DEPS[@]}"; do
		pkg=${d%%:*} check=${d#*:}
		eval "$check" >/dev/null 2>&1 || missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "harness: missing Debian packages: ${missing[*]}" >&2
		echo "harness: as root, run: apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	for d in "${DEPS[@]}"; do
		pkg=${d%%:*} check=${d#*:}
		eval "$check" >/dev/null 2>&1 || die "package $pkg did not install"
	done
}

base_version() { make -s -C "$1" kernelversion 2>/dev/null; }
