# SPDX-License-Identifier: GPL-2.0
# Building a kernel: tinyconfig plus the target's config and the fragments in
# config/, with ccache; cross-compiled for a target that says so.

has_stackmap() { grep -q '^config FTRACE_STACKMAP$' "$1/kernel/trace/Kconfig"; }

# build_step: the workspace of the base, its kernel for the target and the
# stackmap tool the guest runs (tool_bin): what every boot of the patched
# kernel needs.
build_step() {
	deps boot
	workspace
	build_kernel "$KT" "$OBJ"
	build_tool "$KT"
}

# kernel_opts OPTION...: the options of configure_kernel and build_kernel,
# into the caller's locals arch, variant and stackmap; sets SHIFT to the
# number of words they took.
#   -a KARCH    build for KARCH, not the target's (the i386 gate)
#   -v VARIANT  add config/VARIANT.config (bench/config/ for the
#               benchmark's) and, if there is one, VARIANT-BASE.config: the
#               sanitizer and benchmark kernels (debug_obj); repeatable
#   -n          leave the feature out (CONFIG_FTRACE_STACKMAP=n)
kernel_opts() {
	local opt OPTIND=1
	arch=$TARGET_KARCH variant= stackmap=y
	while getopts a:v:n opt; do
		case $opt in
		a) arch=$OPTARG ;;
		v) variant+="${variant:+ }$OPTARG" ;;
		n) stackmap=n ;;
		*) die "build_kernel: unknown option" ;;
		esac
	done
	SHIFT=$((OPTIND - 1))
}

# configure_kernel [OPTIONS] SRC OBJ: the .config of SRC in OBJ, as
# build_kernel makes it: tinyconfig, config/common.config, the target's
# TARGET_KCONFIG, the base's fragments, the feature's, the variant's.
# build_kernel [OPTIONS] SRC OBJ [DIR/...]: configure and build SRC into
# OBJ, or (with DIRs) only the objects of those directories. OPTIONS:
# kernel_opts.
configure_kernel() {
	local arch variant stackmap c SHIFT
	kernel_opts "$@"
	shift "$SHIFT"
	local src=$1 obj=$2
	mkdir -p "$obj"
	# One cache for the machine: clean clones (CI) reuse it. Objects are
	# keyed on paths relative to build/ (every objdir sees ../linux).
	export CCACHE_DIR=${CCACHE_DIR:-/var/cache/stackmap-harness/ccache} CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
	mkdir -p "$CCACHE_DIR" 2>/dev/null || export CCACHE_DIR=$BUILD/ccache
	ccache -M 10G >/dev/null 2>&1 || true
	# The config of every target, the target's own (targets/T.sh) and the
	# base's fragments (bases/BASE.sh); the i386 gate's kernel:
	# config/i386.config.
	local frags=("$TOP/config/$arch.config")
	if [ "$arch" = "$TARGET_KARCH" ]; then
		# The sanitizer kernels run the stress, with the target's NMIs.
		printf '%s\n' "$TARGET_KCONFIG" ${variant:+"$TARGET_NMI_KCONFIG"} >"$obj/target.config"
		frags=("$TOP/config/common.config" "$obj/target.config")
		for c in $BASE_CONFIGS; do frags+=("$TOP/config/$c.config"); done
	fi
	if has_stackmap "$src"; then
		if [ "$stackmap" = n ]; then
			frags+=("$TOP/config/nostackmap.config")
		else
			frags+=("$TOP/config/stackmap.config")
			# Its KUnit suite comes a patch later (the bisect gate).
			! grep -q '^config FTRACE_STACKMAP_KUNIT_TEST$' "$src/kernel/trace/Kconfig" ||
				frags+=("$TOP/config/stackmap-kunit.config")
		fi
	fi
	# What a base needs on top of a variant (VARIANT-BASE.config), in
	# config/ or, for the benchmark's kernels, bench/config/.
	for c in $variant; do
		local d=$TOP/config
		[ -f "$d/$c.config" ] || d=$TOP/bench/config
		frags+=("$d/$c.config")
		[ ! -f "$d/$c-$BASE.config" ] || frags+=("$d/$c-$BASE.config")
	done
	local cfg_sum
	cfg_sum=$(cat "${frags[@]}" "$src/Makefile" | md5sum | cut -d' ' -f1)
	if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.frag-sum" 2>/dev/null)" != "$cfg_sum" ]; then
		say "configuring: $arch tinyconfig + ${frags[*]##*/}"
		# shellcheck disable=SC2046 # kcross: no word, or one
		make -s -C "$src" O="$obj" ARCH="$arch" $(kcross "$arch") tinyconfig >/dev/null
		ARCH=$arch "$src"/scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
		# shellcheck disable=SC2046
		make -s -C "$src" O="$obj" ARCH="$arch" $(kcross "$arch") olddefconfig >/dev/null
		check_config "$obj/.config" "${frags[@]}"
		echo "$cfg_sum" >"$obj/.frag-sum"
	fi
}

# kcross ARCH: the make arguments of a cross build of ARCH, if the target's.
kcross() { [ "$1" != "$TARGET_KARCH" ] || [ -z "$TARGET_CROSS" ] || echo "CROSS_COMPILE=$TARGET_CROSS"; }

# kcc ARCH: the compiler of a kernel build of ARCH, through ccache.
kcc() {
	local cc=gcc
	[ -z "$(kcross "$1")" ] || cc=${TARGET_CROSS}gcc
	if command -v ccache >/dev/null; then echo "ccache $cc"; else echo "$cc"; fi
}

build_kernel() {
	local arch variant stackmap SHIFT opts=("$@")
	kernel_opts "$@"
	opts=("${opts[@]:0:SHIFT}")
	shift "$SHIFT"
	local src=$1 obj=$2 image
	shift 2
	configure_kernel "${opts[@]}" "$src" "$obj"
	image=${TARGET_IMAGE##*/}
	[ "$arch" = "$TARGET_KARCH" ] || image=bzImage
	local t0=$SECONDS targets="${*:-$image}"
	# The KCSAN kernel instruments the map, which kernel/trace/Makefile
	# leaves out with the rest of the tracer (KCSAN_SANITIZE := n, against
	# recursion through the function tracer): the instrumentation only
	# calls into the KCSAN runtime, which is not traced.
	local kvars=()
	case " $variant " in *" kcsan "*) kvars=(KCSAN_SANITIZE_trace_stackmap.o=y) ;; esac
	say "building $(base_version "$src") for $arch in ${obj#"$TOP"/} (make -j$JOBS${*:+ $*})"
	# With modules, Module.symvers too, for the harness's modules (build_modules).
	[ $# -eq 0 ] && grep -q '^CONFIG_MODULES=y' "$obj/.config" && targets="$image modules"
	# shellcheck disable=SC2046,SC2086
	if ! make -s -C "$src" O="$obj" ARCH="$arch" $(kcross "$arch") CC="$(kcc "$arch")" \
		"${kvars[@]}" -j"$JOBS" $targets >"$obj/build.log" 2>&1; then
		grep -E 'error|Error' "$obj/build.log" | head -30 >&2 || true
		die "kernel build failed (full log: ${obj#"$TOP"/}/build.log)"
	fi
	say "built in $((SECONDS - t0)) s"
}

# build_modules OBJ: the harness's own out-of-tree modules (modules/*/),
# which the series does not carry, built with kbuild M= against the kernel
# in OBJ into OBJ/harness-modules/; nothing for a kernel without modules.
build_modules() {
	local obj=$1 m out arch=$TARGET_KARCH
	rm -rf "$obj/harness-modules"
	grep -q '^CONFIG_MODULES=y' "$obj/.config" || return 0
	for m in "$TOP"/modules/*/ "$TOP"/bench/modules/*/; do
		out=$obj/harness-modules/$(basename "$m")
		mkdir -p "$out"
		cp "$m"* "$out/"
		# shellcheck disable=SC2046
		if ! make -s -C "$obj" ARCH="$arch" $(kcross "$arch") CC="$(kcc "$arch")" M="$out" \
			modules >"$out/build.log" 2>&1; then
			cat "$out/build.log" >&2
			die "the harness module ${m#"$TOP"/} does not build against ${obj#"$TOP"/}"
		fi
	done
	say "built the harness modules: $(cd "$obj/harness-modules" && echo */*.ko)"
}

# check_config CONFIG FRAGMENT...: every setting of the fragments survived;
# a later fragment overrides an earlier one, as merge_config.sh does.
check_config() {
	local cfg=$1 line bad=0
	shift
	while IFS= read -r line; do
		case "$line" in
		'# CONFIG_'*' is not set')
			# Not set, or not there at all (its dependencies are not).
			line=${line#\# } line=${line% is not set}
			! grep -q "^$line=" "$cfg" || { echo "harness: config lost: # $line is not set" >&2; bad=1; } ;;
		*) grep -qxF "$line" "$cfg" || { echo "harness: config lost: $line" >&2; bad=1; } ;;
		esac
	done < <(awk '
		/^# CONFIG_[A-Za-z0-9_]* is not set$/ { sym = $2 }
		/^CONFIG_[A-Za-z0-9_]*=/ { sym = substr($0, 1, index($0, "=") - 1) }
		/^(# )?CONFIG_/ && sym != "" { if (!(sym in last)) order[n++] = sym; last[sym] = $0 }
		{ sym = "" }
		END { for (i = 0; i < n; i++) print last[order[i]] }' "$@")
	[ $bad -eq 0 ] || die "the config fragment did not survive olddefconfig"
}

# debug_obj VARIANT: the object folder of a sanitizer or benchmark kernel
# of the base.
debug_obj() { echo "$BDIR/obj-$1$TSUF"; }
