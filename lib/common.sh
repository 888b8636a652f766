# SPDX-License-Identifier: GPL-2.0
# Shared by every part of the harness: messages, the base kernels and the
# paths of each, the Debian packages the harness installs.

say() { printf '>>> %s\n' "$*"; }
die() { printf 'harness: error: %s\n' "$*" >&2; exit 1; }

BUILD=${BUILD:-$TOP/build}
# The series folders (gate_series exports into a copy of its own).
PATCHROOT=$TOP/patches
JOBS=${JOBS:-$(nproc)}

# The options of the harness (environment variables): lib/options.txt.
OPTIONS=$TOP/lib/options.txt

# options_help: the options, as ./harness help lists them.
options_help() {
	awk -F'\t' '!/^#/ && NF { printf "  %s=%s\n      %s: %s\n", $1, toupper($3), $2, $4 }' "$OPTIONS"
}

# options_markdown: the options as the README's table.
options_markdown() {
	echo "| option | read by | values | what it does |"
	echo "| --- | --- | --- | --- |"
	awk -F'\t' '!/^#/ && NF { printf "| `%s` | %s | %s | %s |\n", $1, $2, $3, $4 }' "$OPTIONS"
}

# check_options: every option set has a value of its kind; dies naming it.
check_options() {
	local name cmds kind what v g
	while IFS=$'\t' read -r name cmds kind what; do
		case "$name" in '' | '#'*) continue ;; esac
		[ -n "${!name:-}" ] || continue
		v=${!name}
		case "$kind" in
		base) [ -f "$TOP/bases/$v.sh" ] || die "$name must be one of: $(cd "$TOP/bases" && ls | sed 's/\.sh$//' | tr '\n' ' ')(got '$v')" ;;
		target) [ -f "$TOP/targets/$v.sh" ] || die "$name must be one of: $(cd "$TOP/targets" && ls | sed 's/\.sh$//' | tr '\n' ' ')(got '$v'; targets/ has one file per architecture)" ;;
		number) case "$v" in *[!0-9]*) die "$name must be a whole number (got '$v')" ;; esac ;;
		1) [ "$v" = 1 ] || die "$name takes 1 or nothing (got '$v')" ;;
		*'|'*) case "|$kind|" in *"|$v|"*) ;; *) die "$name must be one of ${kind//|/, } (got '$v')" ;; esac ;;
		gates) for g in ${v//,/ }; do [[ "$g" =~ ^[a-z0-9]+$ ]] || die "$name: '$g' is not a gate name"; done ;;
		esac
	done <"$OPTIONS"
}

# The fields of targets/T.sh (TARGET_*) and bases/B.sh (BASE_*), whether
# each is required, and what it means: lib/schema.txt.
SCHEMA=$TOP/lib/schema.txt

# fields PREFIX [required]: the fields of lib/schema.txt named PREFIX*
# (only the required ones with "required").
fields() { awk -F'\t' -v p="$1" -v r="${2:-}" '!/^#/ && index($1, p) == 1 && (r == "" || $2 == r) { print $1 }' "$SCHEMA"; }

# field_problems FILE PREFIX: what is wrong with the data file FILE, a line
# each: a field it sets that the schema does not name, a required one it
# does not set.
field_problems() {
	local file=$1 prefix=$2 f set
	# The variables the file sets: sourced alone, in a clean shell.
	set=$(env -i bash --norc --noprofile -c \
		'before=$(compgen -v); source "$1" >/dev/null; comm -13 <(sort <<<"$before") <(compgen -v | sort)' _ "$file" |
		grep -vxE 'before|PIPESTATUS|BASH_[A-Z_]*|_')
	for f in $set; do
		fields "$prefix" | grep -qxF "$f" || echo "${file#"$TOP"/}: unknown field $f (lib/schema.txt names the fields of $prefix*)"
	done
	for f in $(fields "$prefix" required); do
		grep -qxF "$f" <<<"$set" ||
			echo "${file#"$TOP"/}: missing field $f: $(awk -F'\t' -v f="$f" '$1 == f { print $3 }' "$SCHEMA")"
	done
}

# check_fields FILE PREFIX: refuse a data file with a problem.
check_fields() {
	local p
	p=$(field_problems "$1" "$2")
	[ -z "$p" ] || die "$p"
}

# The bases: one data file each, bases/B.sh, sorted by their BASE_ORDER
# (a file without one last: use_base refuses it, naming the field); the
# first is mainline, whose series is the product.
BASES=()
while read -r _ b; do BASES+=("$b"); done < <(
	for f in "$TOP"/bases/*.sh; do
		echo "$(sed -n 's/^BASE_ORDER=//p' "$f" | grep . || echo 999) $(basename "$f" .sh)"
	done | sort -n)
MAINLINE=${BASES[0]}

# The target architectures: one data file each, targets/T.sh, sorted by
# their TARGET_ORDER; the first is the default. ARCH=T on the command line
# picks one (and "test" and "full" run that one only): ARCH_ARG holds it,
# TARGET the target in use (a kernel build of another architecture, the
# i386 gate's, says so to build_kernel). The environment's ARCH goes, so
# that no make of the harness reads it.
TARGETS=()
while read -r _ t; do TARGETS+=("$t"); done < <(
	for f in "$TOP"/targets/*.sh; do
		echo "$(sed -n 's/^TARGET_ORDER=//p' "$f" | grep . || echo 999) $(basename "$f" .sh)"
	done | sort -n)
check_options
ARCH_ARG=${ARCH:-}
unset ARCH
TARGET=${ARCH_ARG:-${TARGETS[0]}}

# use_target T: read targets/T.sh; the object, run and tool folders of a
# base (use_base) carry the suffix -T but for the default target.
use_target() {
	TARGET=$1
	check_fields "$TOP/targets/$TARGET.sh" TARGET_
	# shellcheck disable=SC2046
	unset $(fields TARGET_)
	# shellcheck source=/dev/null
	source "$TOP/targets/$TARGET.sh"
	local f
	for f in $(fields TARGET_ optional); do [ -v "$f" ] || declare -g "$f="; done
	TSUF=
	[ "$TARGET" = "${TARGETS[0]}" ] || TSUF=-$TARGET
	[ -z "${BASE:-}" ] || use_base "$BASE"
}

# use_base B: read bases/B.sh and point KT (the workspace), OBJ (its build
# for the target), RUN (console logs and results) and BASELINE at
# base B. Every
# base keeps its trees side by side under build/B/ so that an object
# directory always finds its source at ../linux: ccache then hits across
# the workspace, the base tree and the bisect tree.
use_base() {
	[ -f "$TOP/bases/$1.sh" ] || die "BASE must be one of: ${BASES[*]} (got '$1'; bases/ has one file per base)"
	BASE=$1
	check_fields "$TOP/bases/$BASE.sh" BASE_
	# shellcheck disable=SC2046
	unset $(fields BASE_)
	# shellcheck source=/dev/null
	source "$TOP/bases/$BASE.sh"
	BDIR=$BUILD/$BASE
	KT=$BDIR/linux
	OBJ=$BDIR/obj$TSUF
	RUN=$BDIR/run$TSUF
	BASELINE=$TOP/tests/ftracetest-baseline-$BASE$TSUF.txt
}

# Debian packages the harness needs, by what uses them, each as
# "package:a command that proves it is there". A command installs only what
# it uses (deps LEVEL):
#   boot   building one kernel for one target and booting it: demo, build,
#          shell, kunit, stress, baseline, reapply
#   test   the CI tier: the tool's clang and ASAN builds, checkpatch's SPDX
#          check (scripts/spdxcheck.py: ply, git), on every base and target
#          it runs
#   full   the long tier and the gates command: sparse, Sphinx (the docs of
#          7.3 read YAML), debootstrap for the fresh-root run, liburcu for
#          the TSan run of the map's own source (bench/ustack.sh)
#   bench  the benchmark's ext4 disk; liburcu for "bench ustack"
#   peers  the benchmark beside the peers: BPF (clang, libbpf) and perf
#   all    every one of them (./harness deps)
# A base whose source comes from the machine's own archive
# (BASE_ARCHIVE=installed) adds its package, the targets their TARGET_DEPS,
# for the bases and targets the command runs on.
DEPS_boot=(
	"gcc:command -v gcc" "libc6-dev:test -f /usr/include/stdio.h"
	"make:command -v make" "bc:command -v bc"
	"flex:command -v flex" "bison:command -v bison"
	"libelf-dev:test -f /usr/include/libelf.h" "libssl-dev:test -f /usr/include/openssl/ssl.h"
	"cpio:command -v cpio" "xz-utils:command -v xz" "git:command -v git"
	"python3:command -v python3" "perl:command -v perl" "rsync:command -v rsync"
	"busybox-static:test -x /bin/busybox"
	"ccache:command -v ccache"
	"trace-cmd:command -v trace-cmd"
	"debian-archive-keyring:test -f /usr/share/keyrings/debian-archive-keyring.gpg"
	"gpgv:command -v gpgv"
)
DEPS_test=(
	"clang:command -v clang" "lld:command -v ld.lld" "llvm:command -v llvm-ar"
	"python3-ply:/usr/bin/python3 -c 'import ply'"
	"python3-git:/usr/bin/python3 -c 'import git'"
)
DEPS_full=(
	"sparse:command -v sparse"
	"python3-sphinx:test -x /usr/bin/sphinx-build"
	"python3-yaml:/usr/bin/python3 -c 'import yaml'"
	"debootstrap:test -x /usr/sbin/debootstrap"
	"liburcu-dev:ls /usr/include/*/urcu/urcu-memb.h"
)
DEPS_bench=(
	"e2fsprogs:test -x /usr/sbin/mkfs.ext4"
	"liburcu-dev:ls /usr/include/*/urcu/urcu-memb.h"
)
DEPS_peers=(
	"clang:command -v clang"
	"libbpf-dev:test -f /usr/include/bpf/libbpf.h"
	"zlib1g-dev:test -f /usr/include/zlib.h"
	"libzstd-dev:test -f /usr/include/zstd.h"
	"linux-perf:command -v perf"
)

# deps_list LEVEL: the "package:check" lines LEVEL needs. boot and bench
# cover the current BASE and TARGET; test and full every base of the run
# (ONLY_BASE) and every target (ARCH).
deps_list() {
	local level=$1 b t pkg bases targets
	case "$level" in
	boot) printf '%s\n' "${DEPS_boot[@]}" ;;
	bench) printf '%s\n' "${DEPS_boot[@]}" "${DEPS_bench[@]}" ;;
	peers) printf '%s\n' "${DEPS_boot[@]}" "${DEPS_bench[@]}" "${DEPS_peers[@]}" ;;
	all) printf '%s\n' "${DEPS_boot[@]}" "${DEPS_test[@]}" "${DEPS_full[@]}" "${DEPS_bench[@]}" "${DEPS_peers[@]}" ;;
	test) printf '%s\n' "${DEPS_boot[@]}" "${DEPS_test[@]}" ;;
	full) printf '%s\n' "${DEPS_boot[@]}" "${DEPS_test[@]}" "${DEPS_full[@]}" ;;
	*) die "deps: unknown level '$level' (boot, test, full, bench, peers or all)" ;;
	esac
	case "$level" in
	test | full | all) bases=${ONLY_BASE:-${BASES[*]}} targets=${ARCH_ARG:-${TARGETS[*]}} ;;
	*) bases=$BASE targets=$TARGET ;;
	esac
	for b in $bases; do
		# shellcheck source=/dev/null
		pkg=$(source "$TOP/bases/$b.sh"; [ "$BASE_ARCHIVE" != installed ] || echo "$BASE_PACKAGE")
		[ -z "$pkg" ] || echo "$pkg:test -f /usr/src/$pkg.tar.xz"
	done
	for t in $targets; do
		# shellcheck source=/dev/null
		(source "$TOP/targets/$t.sh"; printf '%s\n' "${TARGET_DEPS[@]}")
	done
}

# deps LEVEL [PACKAGE:CHECK...]: install what LEVEL needs (deps_list) and
# the extra packages given, when run as root; as another user, say what is
# missing and stop.
deps() {
	local level=$1 missing=() d pkg check list=()
	shift
	case "$level" in boot | test | full | bench | peers | all) ;; *) die "deps: unknown level '$level' (boot, test, full, bench, peers or all)" ;; esac
	while IFS= read -r d; do list+=("$d"); done < <(deps_list "$level")
	list+=("$@")
	for d in "${list[@]}"; do
		pkg=${d%%:*} check=${d#*:}
		eval "$check" >/dev/null 2>&1 || missing+=("$pkg")
	done
	[ ${#missing[@]} -ne 0 ] || return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "harness: missing Debian packages: ${missing[*]}" >&2
		echo "harness: as root, run: apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed"
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
	for d in "${list[@]}"; do
		pkg=${d%%:*} check=${d#*:}
		eval "$check" >/dev/null 2>&1 || die "package $pkg did not install ($check fails)"
	done
}

base_version() { make -s -C "$1" kernelversion 2>/dev/null; }
