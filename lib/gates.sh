# SPDX-License-Identifier: GPL-2.0
# The upstream gates: what the bots and reviewers check before a human reads
# the series. Each passes or fails with what is wrong; which gates a tier
# runs on a base is bases/BASE.sh's (BASE_TEST_GATES, BASE_FULL_GATES).

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

# checkpatch runs in the workspace, a git tree, so that its git-based checks
# (SPDX license ids through spdxcheck.py, Fixes: ids) run too. The workspace
# has no mainline history: lib/git-ids answers for the mainline commits the
# series names, from tests/mainline-commits.txt.
gate_checkpatch() {
	local p out bad=0
	for p in $(series); do
		out=$(cd "$KT" && mkdir -p "$RUN/git-ids" && ln -sf "$TOP/lib/git-ids" "$RUN/git-ids/git" &&
			MAINLINE_COMMITS=$TOP/tests/mainline-commits.txt PATH=$RUN/git-ids:/usr/bin:$PATH \
			scripts/checkpatch.pl --strict --show-types "$p" 2>&1 || true)
		if ! grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
			echo "$out" | grep -E -A4 '^(ERROR|WARNING|CHECK)' | head -40
			fail "checkpatch --strict: ${p##*/}: $(grep '^total:' <<<"$out")"
			bad=1
		fi
	done
	if [ $bad -eq 0 ]; then
		echo "gate: checkpatch --strict clean on every patch"
		pass
	fi
}

# The series is read on the list by people who do not have the project's
# specification: no clause id (S5, S12, ...) in a commit message, a comment
# or a selftest. Only the lines the series adds and the messages count.
gate_clauses() {
	local p hits bad=0
	for p in $(series); do
		hits=$(awk '/^diff --git/ { body = 1 } !body || /^\+/' "$p" | grep -nE '(^|[^A-Za-z0-9_])S[0-9]{1,2}([^0-9A-Za-z_]|$)' || true)
		if [ -n "$hits" ]; then
			echo "$hits" | head -5
			fail "clause ids in ${p##*/}"
			bad=1
		fi
	done
	[ $bad -eq 0 ] && { echo "gate: no clause id in the series"; pass; }
	return 0
}

# Non-static functions defined in a new .c file without a kernel-doc comment
# (kernel-doc itself only checks the comments that exist).
undocumented() { # file
	awk '/^\/\*\*/ { getline; if (match($0, /^ \* [a-z_0-9]+\(?\)? - /)) {
			n = $2; sub(/\(.*/, "", n); doc[n] = 1 } }
	     /^[a-z]/ && !/^static/ && !/;$/ && match($0, /[a-z_0-9]+\(/) {
			name = substr($0, RSTART, RLENGTH - 1); defs[name] = FNR }
	     END { for (f in defs) if (!(f in doc)) print FILENAME ":" defs[f] ": " f "() has no kernel-doc" }' "$1"
}

gate_kerneldoc() {
	local files out f
	files=$(git -C "$KT" diff --name-only --diff-filter=A base..HEAD -- '*.c' '*.h')
	# shellcheck disable=SC2086
	out=$(cd "$KT" && scripts/kernel-doc -none -Wall $files 2>&1 || true)
	for f in $files; do
		case "$f" in *_kunit.c) continue ;; *.c) out+=$(cd "$KT" && undocumented "$f") ;; esac
	done
	if [ -n "$out" ]; then
		echo "$out" | head -20
		fail "kernel-doc -Wall on the new files"
		return
	fi
	echo "gate: kernel-doc -none -Wall clean on $(echo $files | wc -w) new files"
	pass
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
	build_variant "$BDIR/obj-nostackmap$TSUF" "the series does not build with CONFIG_FTRACE_STACKMAP=n" STACKMAP=n &&
		{ echo "gate: builds with CONFIG_FTRACE_STACKMAP=n"; pass; }
	return 0
}

# build_variant OBJ FAILURE VAR=VALUE...: build the workspace into OBJ with
# those variables set; on failure show the errors and fail with FAILURE.
build_variant() {
	local obj=$1 what=$2 log=$RUN/${1##*/}.log
	shift 2
	if ! (export "$@"; build_kernel "$KT" "$obj") >"$log" 2>&1; then
		grep -hE 'error|Error|config lost' "$log" "$obj/build.log" 2>/dev/null | head -10 || true
		fail "$what"
		return 1
	fi
}

gate_i386() {
	build_variant "$BDIR/obj-i386" "i386 build with the stack map" BUILD_KARCH=i386 &&
		{ echo "gate: i386 (32-bit) builds with the stack map"; pass; }
	return 0
}

# folders_same A B: success if the series folders of the
# base are the same under A and B; the differences otherwise.
folders_same() {
	local a=$1 b=$2 d
	diff <(cd "$a" && ls -d "$BASE" "$BASE"-* 2>/dev/null) <(cd "$b" && ls -d "$BASE" "$BASE"-* 2>/dev/null) || return 1
	for d in $(cd "$a" && ls -d "$BASE" "$BASE"-* 2>/dev/null); do
		diff -r "$a/$d" "$b/$d" || return 1
	done
}

# Every series folder of the base applies with git am to the base, in
# order, and exports back unchanged.
gate_series() {
	local tmp
	tmp=$(mktemp -d)
	git clone -q --shared --no-checkout "$KT" "$tmp/linux"
	git -C "$tmp/linux" checkout -q -B stackmap base
	if ! (apply_series "$tmp/linux") >"$RUN/am.log" 2>&1; then
		cat "$RUN/am.log"
		fail "the series folders of $BASE do not apply with git am to the base"
		rm -rf "$tmp"
		return
	fi
	mkdir -p "$tmp/patches" "$tmp/b"
	cp -r "$PATCHROOT"/"$BASE" "$PATCHROOT"/"$BASE"-* "$tmp/patches/" 2>/dev/null || true
	if ! (KT=$tmp/linux BDIR=$tmp/b PATCHROOT=$tmp/patches export_series >"$RUN/export.log" 2>&1); then
		cat "$RUN/export.log"
		fail "export of the applied series failed"
	elif ! folders_same "$PATCHROOT" "$tmp/patches" >"$RUN/export.diff" 2>&1; then
		head -20 "$RUN/export.diff"
		fail "export is not deterministic: applying and exporting the $BASE folders changes them"
	else
		echo "gate: the $BASE series folders apply with git am and export back unchanged"; pass
	fi
	rm -rf "$tmp"
}

# The shape of the feature series (patches/BASE) as a maintainer reads it:
# at most 12 patches; code added in its final form (lines the patches add,
# summed, less the lines the series adds as a whole: under 2% of the sum);
# nothing in it that only this harness needs (benchmark, load, fault hook).
gate_shape() {
	local b from to sum=0 total c n churn
	while read -r b from to; do
		[ "$b" = series ] && break
	done <<<"$(folder_ranges)"
	[ "$b" = series ] || { fail "shape: no feature series in ${KT#"$TOP"/}"; return; }
	n=$(git -C "$KT" rev-list --count "$from..$to")
	for c in $(git -C "$KT" rev-list "$from..$to"); do
		sum=$((sum + $(git -C "$KT" show --numstat --format= "$c" | awk '{ s += $1 } END { print s + 0 }')))
	done
	total=$(git -C "$KT" diff --numstat "$from" "$to" | awk '{ s += $1 } END { print s + 0 }')
	churn=$((sum - total))
	echo "gate: shape: $n patches; $sum lines added by the patches, $total by the series, $churn rewritten ($(awk -v c=$churn -v s=$sum 'BEGIN { printf "%.2f", s ? 100 * c / s : 0 }')%)"
	if [ "$n" -gt 12 ]; then
		fail "shape: the feature series has $n patches (at most 12)"
	elif [ $((churn * 50)) -ge "$sum" ]; then
		fail "shape: $churn of the $sum added lines are rewritten inside the series (2% or more)"
	elif git -C "$KT" diff "$from" "$to" | grep -E '^\+.*(FTRACE_STACKMAP_BENCHMARK|FAIL_FTRACE_STACKMAP|ftrace_stackmap_live)' >/dev/null; then
		fail "shape: the series carries harness-only code (benchmark, load or fault attribute)"
	else
		pass
	fi
}

# all_gates: every gate there is, one gate_NAME function each.
all_gates() { declare -F | awk '$3 ~ /^gate_/ { printf "%s%s", sep, substr($3, 6); sep = " " }'; }

# check_gates_arg: GATES= names only gates there are (before any build).
check_gates_arg() {
	local g
	local gates=${GATES:-}
	for g in ${gates//,/ }; do
		declare -F "gate_$g" >/dev/null || die "unknown gate '$g' in GATES (expected some of: $(all_gates))"
	done
}

# run_gates GATE...: those gates (GATES=a,b of the caller overrides them).
run_gates() {
	has_stackmap "$KT" || return 0
	local t0=$SECONDS g gates=${GATES:-$*}
	gates=${gates//,/ }
	say "gates on $BASE: $gates"
	for g in $gates; do
		declare -F "gate_$g" >/dev/null || die "unknown gate '$g' (expected some of: $(all_gates))"
		"gate_$g"
	done
	say "gates took $((SECONDS - t0)) s"
}
