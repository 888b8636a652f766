# SPDX-License-Identifier: GPL-2.0
# tools/tracing/stackmap on the host: the build the guest runs (GCC, as
# upstream builds it), a clang build, an ASAN/UBSAN build that runs the
# tool's own tests ("make check", tests/run.sh) in "test", and the fuzz run
# of "full" (lib/toolfuzz.py) beside the boots. Warnings are errors in every
# build.

has_tool() { [ -f "$1/tools/tracing/stackmap/Makefile" ]; }

TOOL_SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all"

# tool_make SRC OUT [MAKE ARGS]: one build of the tool into OUT. Fails, with
# the log on stderr, on an error or a warning.
tool_make() {
	local src=$1 out=$2
	shift 2
	mkdir -p "$out"
	if ! make -s -C "$src/tools/tracing/stackmap" O="$out/" "$@" >"$out/build.log" 2>&1 ||
		grep -q 'warning:' "$out/build.log"; then
		cat "$out/build.log" >&2
		return 1
	fi
}

# build_tool SRC: the binary the guest runs, for the target, into
# $BDIR/tool (tool-T for target T), for a series with the tool; tool_bin
# prints its path, or nothing without it.
build_tool() {
	rm -f "$BDIR/tool$TSUF/stackmap"
	has_tool "$1" || return 0
	tool_make "$1" "$BDIR/tool$TSUF" CFLAGS="-O2 -g -Werror" ${TARGET_CROSS:+CROSS_COMPILE=$TARGET_CROSS} ||
		die "tools/tracing/stackmap does not build without warnings"
}
tool_bin() { [ ! -x "$BDIR/tool$TSUF/stackmap" ] || echo "$BDIR/tool$TSUF/stackmap"; }

# build_tool_asan SRC: the ASAN/UBSAN build, into $BDIR/tool-asan.
build_tool_asan() {
	tool_make "$1" "$BDIR/tool-asan" CFLAGS="-O1 -g -Werror $TOOL_SANITIZE" \
		LDFLAGS="$TOOL_SANITIZE"
}

# plan_tool: the tool's host checks on the current base: the clang build,
# and its tests run by the ASAN/UBSAN build (part "toolcheck").
plan_tool() {
	has_tool "$KT" || return 0
	if tool_make "$KT" "$BDIR/tool-clang" LLVM=1 CFLAGS="-O2 -g -Werror"; then
		pass
	else
		fail "tools/tracing/stackmap: the clang build (LLVM=1) fails or warns"
	fi
	if ! build_tool_asan "$KT"; then
		fail "tools/tracing/stackmap: the ASAN/UBSAN build fails or warns"
		return 0
	fi
	{
		echo "=== PART toolcheck"
		make -s -C "$KT/tools/tracing/stackmap" O="$BDIR/tool-asan/" \
			CFLAGS="-O1 -g -Werror $TOOL_SANITIZE" LDFLAGS="$TOOL_SANITIZE" check || true
	} >"$RUN/toolcheck.out" 2>&1
	guest_checks toolcheck "$RUN/toolcheck.out"
}

# toolfuzz_start: "full" fuzzes the ASAN/UBSAN build for TOOLFUZZ_SECS
# (1800) in the background, at the lowest priority, while the base's boots
# and gates run; toolfuzz_wait reads its result (part "toolfuzz").
toolfuzz_start() {
	TOOLFUZZ_PID=
	has_tool "$KT" || return 0
	build_tool_asan "$KT" || { fail "tools/tracing/stackmap: the ASAN/UBSAN build fails or warns"; return 0; }
	rm -rf "$RUN/toolfuzz"
	nice -n 19 python3 "$TOP/lib/toolfuzz.py" --binary "$BDIR/tool-asan/stackmap" \
		--seconds "${TOOLFUZZ_SECS:-1800}" --workdir "$RUN/toolfuzz" >"$RUN/toolfuzz.out" 2>&1 &
	TOOLFUZZ_PID=$!
	say "fuzzing tools/tracing/stackmap for ${TOOLFUZZ_SECS:-1800} s in the background (pid $TOOLFUZZ_PID)"
}

toolfuzz_wait() {
	[ -n "${TOOLFUZZ_PID:-}" ] || return 0
	say "waiting for the tool's fuzz run"
	wait "$TOOLFUZZ_PID" || true
	guest_checks toolfuzz "$RUN/toolfuzz.out"
	grep -a '^# toolfuzz:' "$RUN/toolfuzz.out" || true
}
