# SPDX-License-Identifier: GPL-2.0
# The upstream gates: what the bots and reviewers check before a human reads
# the series. Each passes or fails with what is wrong; which gates a tier
# runs on a base is bases/BASE.sh's (BASE_TEST_GATES, BASE_FULL_GATES).

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
	git_identity "$tmp/linux"
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
