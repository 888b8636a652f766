# SPDX-License-Identifier: GPL-2.0
# Tests of the harness's own result parsers (lib/ktap.py and the checks of
# lib/checks.sh) over recorded guest outputs and consoles, tests/parsers/:
#
#   cases.txt    one case a line: NAME, the check and its arguments (@F:
#                the file F of tests/parsers/logs/; @KT: the kernel tree),
#                the passes and failures it must count, and a text its
#                output must hold ("-": none)
#   mutants.txt  one mutant a line: a file of lib/, a sed expression that
#                breaks its parser, and what it breaks; some case must
#                fail on each
#   logs/        the recorded outputs (README there: where each is from)
#
# "test" and "full" run them first, with the mutants, as kunit_tool_test.py
# runs kunit.py's parser over recorded logs. The KUnit case needs the
# kernel's kunit.py and runs once a workspace has it (parsertest_kunit).

PARSERS=$TOP/tests/parsers

# parser_case LIB NAME CHECK ARGS PASSED FAILED TEXT: one case, with the
# lib/ of LIB, in a shell of its own; prints "NAME: what is wrong" unless
# the check counted PASSED passes and FAILED failures and printed TEXT.
parser_case() {
	local lib=$1 name=$2 check=$3 args=$4 want_p=$5 want_f=$6 text=$7 out got a argv=()
	for a in $args; do
		case "$a" in
		@KT) argv+=("${PARSER_KT:-/nonexistent}") ;;
		@*) argv+=("$PARSERS/logs/${a#@}") ;;
		*) argv+=("$a") ;;
		esac
	done
	out=$(
		# shellcheck source=/dev/null
		TOP=$(cd "$lib/.." && pwd) && unset BASE &&
			source "$lib/common.sh" && source "$lib/checks.sh" &&
			BASE=parsertest RUN=$(mktemp -d) KT=${PARSER_KT:-/nonexistent} FTRACETEST= TSUF= &&
			{ "$check" "${argv[@]}" || true; } && echo "=== COUNTS $(counts | cut -d' ' -f1,2)" && rm -rf "$RUN"
	) 2>&1 || true
	got=$(sed -n 's/^=== COUNTS //p' <<<"$out")
	if [ "$got" != "$want_p $want_f" ]; then
		echo "$name: $check counted ${got:-nothing} (passed failed), expected $want_p $want_f"
		sed 's/^/    /' <<<"$out" | head -8
	elif [ "$text" != - ] && ! grep -qF -- "$text" <<<"$out"; then
		echo "$name: $check did not say \"$text\""
		sed 's/^/    /' <<<"$out" | head -8
	fi
}

# parser_cases LIB [kunit]: every case of cases.txt with the lib/ of LIB
# (the KUnit ones only with "kunit", the others without); what failed.
parser_cases() {
	local lib=$1 kind=${2:-} name cmd check args p f text
	if [ -z "$kind" ]; then
		python3 "$lib/ktap.py" --self-test >/dev/null || echo "ktap.py --self-test fails"
	fi
	while IFS=$'\t' read -r name cmd p f text; do
		case "$name" in '' | '#'*) continue ;; esac
		read -r check args <<<"$cmd"
		[ "$check" = check_kunit ] && [ "$kind" != kunit ] && continue
		[ "$check" != check_kunit ] && [ "$kind" = kunit ] && continue
		parser_case "$lib" "$name" "$check" "$args" "$p" "$f" "$text"
	done <"$PARSERS/cases.txt"
}

# parser_mutants [kunit]: each mutant of mutants.txt in a copy of lib/;
# fails for a mutant that no case catches, or that changes nothing.
parser_mutants() {
	local kind=${1:-} file expr what tmp n=0 caught=0
	while IFS=$'\t' read -r file expr what; do
		case "$file" in '' | '#'*) continue ;; esac
		[ "$file" = kunit ] || [ -z "$kind" ] || continue
		[ "$file" != kunit ] || [ "$kind" = kunit ] || continue
		[ "$file" != kunit ] || file=checks.sh
		n=$((n + 1))
		tmp=$(mktemp -d)
		cp -a "$TOP/lib" "$TOP/bases" "$TOP/targets" "$tmp/"
		sed -i -E "$expr" "$tmp/lib/$file"
		if cmp -s "$TOP/lib/$file" "$tmp/lib/$file"; then
			fail "parser tests: mutant $n ($what) does not change lib/$file: tests/parsers/mutants.txt is out of date"
		elif [ -z "$(parser_cases "$tmp/lib" "$kind")" ]; then
			fail "parser tests: no case fails on mutant $n of lib/$file: $what"
		else
			caught=$((caught + 1))
			pass
		fi
		rm -rf "$tmp"
	done <"$PARSERS/mutants.txt"
	echo "parser tests${kind:+ ($kind)}: $caught of $n mutants caught"
}

# plan_parsertest: the cases, then the mutants, without a kernel tree.
plan_parsertest() {
	local bad
	bad=$(parser_cases "$TOP/lib")
	if [ -n "$bad" ]; then
		fail "parser tests: the parsers fail over recorded logs:"
		echo "$bad"
		return 0
	fi
	pass
	echo "parser tests: $(grep -v '^#' "$PARSERS/cases.txt" | grep -cv 'check_kunit\|^$') cases over tests/parsers/logs pass"
	parser_mutants
}

# parsertest_kunit SRC: the KUnit cases, through SRC's kunit.py.
parsertest_kunit() {
	local bad
	bad=$(PARSER_KT=$1 parser_cases "$TOP/lib" kunit)
	if [ -n "$bad" ]; then
		fail "parser tests: the KUnit check fails over recorded consoles:"
		echo "$bad"
		return 0
	fi
	pass
	PARSER_KT=$1 parser_mutants kunit
}
