# SPDX-License-Identifier: GPL-2.0
# The gates that build the series (lib/gates.sh runs them): kernel/trace/
# without a warning and W=1 (w1), sparse, each patch building (bisect, and
# the feature off), i386. And the lines the series adds, which the gates
# hold the warnings to.

# Lines the series adds, as path:line of the patched tree.
added_lines() {
	git -C "$KT" diff -U0 base..HEAD -- "$@" | awk '
		/^\+\+\+ b\// { f = substr($0, 7) }
		/^@@/ { split($3, a, ","); s = substr(a[1], 2); n = (a[2] == "" ? 1 : a[2])
			for (i = 0; i < n; i++) print f ":" (s + i) }'
}

# Warnings (path:line:...) that point at lines the series adds.
new_warnings() { # file with compiler/sparse output
	local added
	added=$(added_lines)
	sed -E "s|^$KT/||; s|^\.\./linux/||" "$1" | grep -E '^[^: ]+:[0-9]+:' |
		awk -F: 'NR == FNR { a[$0] = 1; next } ($1 ":" $2) in a' <(echo "$added") - || true
}

touched_objs() {
	git -C "$KT" diff --name-only base..HEAD -- 'kernel/trace/*.c' |
		grep -v 'trace_selftest.c' | sed 's/\.c$/.o/'
}

# make_target ARGS...: make in the workspace's test build for the target.
make_target() {
	# shellcheck disable=SC2046
	make -s -C "$KT" O="$OBJ" ARCH="$TARGET_KARCH" $(kcross "$TARGET_KARCH") CC="$(kcc "$TARGET_KARCH")" "$@"
}

# kernel/trace/ as the series leaves it builds without a warning at the
# default level: its objects are removed and built again (ccache replays a
# cached object's warnings), so that the files the series does not change
# count too. Then W=1: no new warning on a line the series adds.
gate_w1() {
	local objs log=$RUN/w1.log dlog=$RUN/trace-dir.log
	find "$OBJ/kernel/trace" -name '*.o' -delete 2>/dev/null || true
	if ! make_target -j"$JOBS" kernel/trace/ >"$dlog" 2>&1; then
		tail -20 "$dlog"
		fail "build of kernel/trace/"
	elif grep -q 'warning:' "$dlog"; then
		grep -A3 'warning:' "$dlog" | head -20
		fail "kernel/trace/ builds with $(grep -c 'warning:' "$dlog") warnings"
	else
		echo "gate: kernel/trace/ builds without a warning ($(find "$OBJ/kernel/trace" -name '*.o' | wc -l) objects)"; pass
	fi
	objs=$(touched_objs)
	# shellcheck disable=SC2086
	if ! make_target W=1 $objs >"$log" 2>&1; then
		tail -20 "$log"
		fail "W=1 build of the touched kernel/trace objects"
	elif [ -n "$(new_warnings "$log")" ]; then
		new_warnings "$log"
		fail "W=1: new warnings on lines the series adds"
	else
		echo "gate: W=1 adds no warning ($(echo $objs | wc -w) objects)"; pass
	fi
}

gate_sparse() {
	local objs log=$RUN/sparse.log
	objs=$(touched_objs)
	# shellcheck disable=SC2086
	make -s -C "$KT" O="$OBJ" ARCH="$TARGET_KARCH" $(kcross "$TARGET_KARCH") C=2 CHECK=sparse $objs >"$log" 2>&1 || true
	if grep -q 'sparse: not found\|No such file' "$log"; then
		fail "sparse did not run"
	elif [ -n "$(new_warnings "$log")" ]; then
		new_warnings "$log"
		fail "sparse: new warnings on lines the series adds"
	else
		echo "gate: sparse adds no warning ($(grep -c 'warning:\|error:' "$log") on untouched lines)"; pass
	fi
}

# Sphinx on Documentation/trace, read-only on the tree (make htmldocs would
# regenerate files in it). Warnings naming a file the series touches fail.
gate_docs() {
	local out=$BDIR/docs log=$RUN/sphinx.log files
	rm -rf "$out"
	# srctree: mainline's Sphinx extensions read it from the environment,
	# as "make htmldocs" sets it.
	srctree=$KT PATH=/usr/bin:$PATH sphinx-build -q -b html -c "$KT/Documentation" -d "$out/doctrees" \
		-D kerneldoc_srctree="$KT" -D kerneldoc_bin="$KT/scripts/kernel-doc" \
		-D version="$BASE" -D release="$(base_version "$KT")" \
		"$KT/Documentation/trace" "$out/html" >"$log" 2>&1 || true
	files=$(git -C "$KT" diff --name-only base..HEAD -- 'Documentation/trace/*' | sed 's|.*/||; s|\.rst$||')
	if [ ! -f "$out/html/ftrace-stackmap.html" ] && grep -q ftrace-stackmap <<<"$files"; then
		tail -20 "$log"
		fail "sphinx: ftrace-stackmap.html was not built"
		return
	fi
	if grep -E "($(echo $files | tr ' ' '|'))(\.rst)?:" "$log" | grep -i 'warning\|error'; then
		fail "sphinx: warnings in the documents the series touches"
		return
	fi
	echo "gate: Documentation/trace builds without new warnings ($(grep -ci warning "$log") elsewhere)"
	pass
}

# Each patch builds with the feature on: its config, and the objects of
# every kernel directory whose C files or local headers it touches (the
# whole kernel builds at the end of the series: the test build); the last
# patch also with the feature off.
gate_bisect() {
	local wt=$BDIR/bisect/linux obj=$BDIR/bisect/obj$TSUF c n=0 total dirs
	[ -d "$wt" ] || { mkdir -p "$BDIR/bisect"; git -C "$KT" worktree add -q --detach "$wt" base; }
	total=$(git -C "$KT" rev-list --count base..HEAD)
	for c in $(git -C "$KT" rev-list --reverse base..HEAD); do
		n=$((n + 1))
		git -C "$wt" checkout -q --detach "$c"
		# A patch that changes a Kconfig file: its config made anew.
		! git -C "$wt" diff-tree --no-commit-id --name-only -r "$c" | grep '/Kconfig' >/dev/null ||
			rm -f "$obj/.frag-sum"
		# Directories of the C files and local headers it touches; with
		# none (documentation, selftests, tools), its config only.
		dirs=$(git -C "$wt" diff-tree --no-commit-id --name-only -r "$c" -- '*.c' '*.h' \
			':!tools' ':!samples' ':!include' ':!Documentation' | sed 's|/[^/]*$|/|' | sort -u | tr '\n' ' ')
		if ! (if [ -n "$dirs" ]; then build_kernel "$wt" "$obj" $dirs; else configure_kernel "$wt" "$obj"; fi) \
			>"$RUN/bisect.log" 2>&1; then
			grep -hE 'error|Error|config lost' "$RUN/bisect.log" "$obj/build.log" 2>/dev/null | head -10 || true
			fail "patch $n/$total ($(git -C "$KT" log -1 --format=%s "$c")) does not build"
			return
		fi
	done
	echo "gate: every patch builds ($total steps, feature on: its config and the directories it touches)"; pass
	build_variant "$BDIR/obj-nostackmap$TSUF" "the series does not build with CONFIG_FTRACE_STACKMAP=n" -n &&
		{ echo "gate: builds with CONFIG_FTRACE_STACKMAP=n"; pass; }
	return 0
}

# build_variant OBJ FAILURE OPTION...: build the workspace into OBJ with
# those options of build_kernel; on failure show the errors and fail with
# FAILURE.
build_variant() {
	local obj=$1 what=$2 log=$RUN/${1##*/}.log
	shift 2
	if ! (build_kernel "$@" "$KT" "$obj") >"$log" 2>&1; then
		grep -hE 'error|Error|config lost' "$log" "$obj/build.log" 2>/dev/null | head -10 || true
		fail "$what"
		return 1
	fi
}

gate_i386() {
	build_variant "$BDIR/obj-i386" "i386 build with the stack map" -a i386 &&
		{ echo "gate: i386 (32-bit) builds with the stack map"; pass; }
	return 0
}

