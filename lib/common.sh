# SPDX-License-Identifier: GPL-2.0
# Shared by every part of the harness: messages, the base kernels and the
# paths of each, the Debian packages the harness installs.

say() { printf '>>> %s\n' "$*"; }
die() { printf 'harness: error: %s\n' "$*" >&2; exit 1; }

BUILD=${BUILD:-$TOP/build}
JOBS=${JOBS:-$(nproc)}

# The bases, mainline first: the series for mainline is the product, the
# 6.12 LTS series a backport tested just as hard.
BASES=(7.3 6.12)
MAINLINE=7.3

# use_base B: point KT (the workspace), OBJ (its build), RUN (console logs
# and results), PATCHES and BASELINE at base B. Every base keeps its trees
# side by side under build/B/ so that an object directory always finds its
# source at ../linux: ccache then hits across the workspace, the base tree
# and the bisect tree.
use_base() {
	case "$1" in
	7.3 | 6.12) BASE=$1 ;;
	*) die "BASE must be one of: ${BASES[*]} (got '$1')" ;;
	esac
	BDIR=$BUILD/$BASE
	KT=$BDIR/linux
	OBJ=$BDIR/obj
	RUN=$BDIR/run
	PATCHROOT=${PATCHROOT:-$TOP/patches}
	PATCHES=$PATCHROOT/$BASE
	BASELINE=$TOP/tests/ftracetest-baseline-$BASE.txt
}

# Debian packages the harness needs, and a command that proves each is there.
# The 6.12 source comes from the machine's own archive (bookworm-security);
# the 7.3 source is fetched apart (lib/fetch.sh) and needs no package here.
DEPS=(
	"linux-source-6.12:test -f /usr/src/linux-source-6.12.tar.xz"
	"gcc:command -v gcc" "libc6-dev:test -f /usr/include/stdio.h"
	"make:command -v make" "bc:command -v bc"
	"flex:command -v flex" "bison:command -v bison"
	"libelf-dev:test -f /usr/include/libelf.h" "libssl-dev:test -f /usr/include/openssl/ssl.h"
	"cpio:command -v cpio" "xz-utils:command -v xz" "git:command -v git"
	"python3:command -v python3" "perl:command -v perl" "rsync:command -v rsync"
	"busybox-static:test -x /bin/busybox"
	"qemu-system-x86:command -v qemu-system-x86_64"
	"qemu-system-data:test -f /usr/share/qemu/qboot.rom"
	"ccache:command -v ccache"
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

deps() {
	local missing=() d pkg check
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
