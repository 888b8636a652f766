# SPDX-License-Identifier: GPL-2.0
# The end of the write fuzzer (guest/parts/fuzz.sh sources this file): concurrent
# writers, one result for each kind of bad write, the map checked again and
# everything off.

# writer ID: bad writes to stack_map until $W/stop exists: random bytes
# of 1..64 bytes from /dev/urandom, and every third a near miss.
writer() {
	local id=$1 n=0 k=0 f sz rc msg j
	: > $W/cw$id.bad
	while [ ! -e $W/stop ]; do
		k=$((k + 1))
		if [ $((k % 3)) = 0 ] && [ $nnear -gt 0 ]; then
			j=$(( (k / 3 + id * 5) % nnear ))
			f=$W/near/$j
			eval "sz=\$nearsz_$j"
			[ "$sz" -gt 0 ] || continue
			case $near_excluded in *" $j "*) continue ;; esac
		else
			sz=$(( (k * 13 + id * 7) % 64 + 1 ))
			f=$W/cw$id.pay
			head -c $sz /dev/urandom > $f
			[ $sz -le 7 ] && is_valid_map $f && continue
		fi
		n=$((n + 1))
		dd if=$f of=stack_map bs=$sz count=1 conv=notrunc 2>$W/cw$id.err
		rc=$?
		msg=
		IFS= read -r msg < $W/cw$id.err
		case $rc:$msg in
		0:*) echo "writer $id, write $n ($(hexof $f)): taken" ;;
		*"error writing"*": Invalid argument") ;;
		*) echo "writer $id, write $n ($(hexof $f)): $msg (exit $rc)" ;;
		esac >> $W/cw$id.bad
	done
	echo $n > $W/cw$id.n
}

near_excluded=" $(echo $(sed -n 's/^near //p' $W/excluded)) "
rm -f $W/stop
writer 1 &
p1=$!
writer 2 &
p2=$!
writer 3 &
p3=$!
writer 4 &
p4=$!
(sleep $CONC_SECS; : > $W/stop) &
tp=$!
rbad=0
while [ ! -e $W/stop ]; do
	reads=$((reads + 1))
	if ! cat stack_map | cmp -s - $W/ref.map; then
		rbad=$((rbad + 1))
		[ $rbad -le 3 ] && fail_note conc "read $reads of stack_map, during the writes, is not the snapshot's text"
	fi
done
wait $p1 $p2 $p3 $p4 $tp
for id in 1 2 3 4; do
	n=$(cat $W/cw$id.n 2>/dev/null)
	n=${n:-0}
	nw=$((nw + n))
	w_conc=$((w_conc + n))
	[ -s $W/cw$id.bad ] || continue
	f_conc=$((f_conc + $(wc -l < $W/cw$id.bad)))
	cat $W/cw$id.bad >> $W/fail.conc
done
[ $rbad -gt 3 ] && fail_note conc "... $((rbad - 3)) more reads not the snapshot's text"
unchanged conc "the concurrent writes"
w_text=$((w_text + 1))
if ! cat stack_map | cmp -s - $W/ref.map; then
	fail_note text "the text of stack_map changed with the concurrent writes:"
	changes >> $W/fail.text
	rebase
fi

# One line for each kind of bad write.
# report KIND WHAT ERROR: the writes of KIND (WHAT) failed with ERROR.
report() {
	local n f lines
	eval "n=\$w_$1 f=\$f_$1"
	[ "$n" -gt 0 ] || return 0
	if [ -s $W/fail.$1 ]; then
		fuzz_say "FAIL: $2: $f failures; each must fail with $3 and change nothing"
		head -n 40 $W/fail.$1 | ktap_detail
		lines=$(wc -l < $W/fail.$1)
		[ $lines -gt 40 ] && echo "fuzz:   ... and $((lines - 40)) more lines"
	else
		fuzz_say "PASS: $2 all failed with $3 and changed nothing"
	fi
}
report rand "random bytes to stack_map ($w_rand writes of 1..64 bytes, one write() each)" EINVAL
report mut "edits of \"0\", \"free\" and \"freeze\" to stack_map ($w_mut writes: bytes replaced, inserted, deleted, upper-cased, appended, doubled)" EINVAL
report near "near misses to stack_map ($w_near writes cycling through $nnear near misses: \"00\", \"fre\", \"free\\n\\n\", \"0\\0\", \"free\\0\", 4096 and 65536 \"0\"s...; the empty write, which busybox cannot make, as $nempty open and close without a write)" EINVAL
report part "words cut in two (\"fr\" then \"ee\"...), written in two write()s on one descriptor of stack_map ($((w_part / 2)) pairs): the halves" EINVAL
report off "writes to stack_map after reads and seeks on a read-write descriptor ($w_off writes, the descriptor then read on as before)" EINVAL
report opt "bad values to options/stackmap ($w_opt writes: \"2\", \"-1\", \"01x\", \"yes\", random bytes...)" "an error"
report topt "bad names to trace_options ($w_topt writes: \"stackmapx\", \"no stackmap\", \"stack map\", random bytes...)" "an error"
report ro "writes to the read-only stack_map_stat and stack_map_bin ($w_ro writes, \"0\", \"free\\n\" and \"freeze\\n\" among them; ${ro_msg:-no error seen})" "an error"
report conc "4 concurrent writers to stack_map for ${CONC_SECS} s ($w_conc writes; meanwhile $reads reads of it, each the snapshot's text)" EINVAL
if [ -s $W/fail.text ]; then
	fuzz_say "FAIL: the text of stack_map is the snapshot's at each of $w_text checks (every 20 writes)"
	head -n 40 $W/fail.text | ktap_detail
else
	fuzz_say "PASS: the text of stack_map is the snapshot's at each of $w_text checks (every 20 writes)"
fi

# The end: the same snapshot again, "free" still refused, the map still
# taking its valid writes; then everything off.
snap $W/end
since=
[ $rebases -gt 0 ] && since=" (taken again after each of the $rebases failures above that changed them)"
if cmp -s $W/ref.txt $W/end.txt && cmp -s $W/ref.bin $W/end.bin && cmp -s $W/ref.map $W/end.map &&
   grep -qx 'options/stackmap:1' $W/end.txt; then
	fuzz_say "PASS: after the fuzzing, stack_map, stack_map_bin, stack_map_stat and trace_options are the snapshot's$since, options/stackmap is still 1"
else
	fuzz_say "FAIL: after the fuzzing, stack_map, stack_map_bin, stack_map_stat and trace_options are the snapshot's$since, options/stackmap is still 1"
	changes | ktap_detail
fi
ebusy_check "after the fuzzing"
stat_now() { sed -n "s/^$1: //p" stack_map_stat; }
g1=$(stat_now generation)
e1=$(stat_now entries)
put freeze stack_map
r1=$?
fz1=$(stat_now frozen)
put 0 stack_map
r2=$?
g2=$(stat_now generation)
e2=$(stat_now entries)
fz2=$(stat_now frozen)
if [ $r1 = 0 ] && [ "$fz1" = 1 ] && [ $r2 = 0 ] && [ -n "$g2" ] && [ "$g2" != "$g1" ] &&
   [ "$e2" = 0 ] && [ "$fz2" = 0 ] && [ -z "$(cat stack_map)" ]; then
	fuzz_say "PASS: the map still takes its valid writes: freeze (frozen: 1), then 0 resets it (generation $g1 -> $g2, entries $e1 -> 0)"
else
	fuzz_say "FAIL: the map still takes its valid writes: freeze (frozen: 1), then 0 resets it"
	{
		echo "freeze: exit $r1, frozen: $fz1"
		echo "0: exit $r2, generation $g1 -> $g2, entries $e1 -> $e2, frozen: $fz2"
		echo "stack_map: $(cat stack_map | wc -l) lines"
	} | ktap_detail
fi
cleanup
if [ "$(cat options/stackmap)" = 0 ] && [ -z "$(cat stack_map_stat)" ] && [ -z "$(cat stack_map)" ]; then
	fuzz_say "PASS: cleanup: the option cleared, free releases the map (stack_map and stack_map_stat empty)"
else
	fuzz_say "FAIL: cleanup: the option cleared, free releases the map (stack_map and stack_map_stat empty)"
	{ echo "options/stackmap: $(cat options/stackmap)"; sed 's/^/stack_map_stat: /' stack_map_stat; } | ktap_detail
fi
finish
