# SPDX-License-Identifier: GPL-2.0
# The plan: one write a line, "KIND ARG PAYLOAD". PAYLOAD is the bytes as
# printf octal escapes, or "-" for the list entry ARG. Every payload is one
# the kernel must refuse: the validity rules below are those of the doc
# (stack_map), kstrtoul() (options/stackmap) and trace_set_options()
# (trace_options: the name up to a NUL, without leading and trailing
# isspace(), without "no"); a list entry that breaks them is left out.
# Run by guest/parts/fuzz.sh: awk -v n=N -v seed=SEED -v names="OPTIONS" -v excl=FILE
# -f fuzz-plan.awk LISTS > PLAN.
# Bytes are numbers: busybox awk compares the strings of split() as strings.
function rnd(k) { return int(rand() * k) }
function oct(m,   s, j) { s = ""; for (j = 1; j <= m; j++) s = s sprintf("\\%03o", B[j]); return s }
function tob(h,   t, k, j) { k = split(h, t, " "); for (j = 1; j <= k; j++) B[j] = HEX[t[j]]; return k }
function vmap(m,   s, j, x) {
	if (m >= 8)
		return 0
	s = ""
	for (j = 1; j <= m; j++) { x = B[j]; s = s (x == 10 ? "\n" : (x > 32 && x < 127) ? CH[x] : "\001") }
	return s == "0" || s == "0\n" || s == "free" || s == "free\n" || s == "freeze" || s == "freeze\n"
}
function vopt(m,   s, j, x) {
	if (m > 66)
		return 1
	s = ""
	for (j = 1; j <= m && B[j] != 0; j++) { x = B[j]; s = s ((x == 43 || (x >= 48 && x <= 57)) ? CH[x] : x == 10 ? "n" : "x") }
	return s ~ /^[+]?0*[01]n?$/
}
function vtopt(m,   s, j, x) {
	if (m >= 64)
		return 0
	s = ""
	for (j = 1; j <= m && B[j] != 0; j++) { x = B[j]; s = s ((x > 32 && x < 127) ? CH[x] : ((x >= 9 && x <= 13) || x == 32 || x == 160) ? " " : "\001") }
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	if (substr(s, 1, 2) == "no")
		s = substr(s, 3)
	return s in NAME
}
function valid(t, m) { return t == "opt" ? vopt(m) : t == "topt" ? vtopt(m) : t == "ro" ? 0 : vmap(m) }
function randw(t, maxlen,   m, j) {
	do {
		m = 1 + rnd(maxlen)
		for (j = 1; j <= m; j++)
			B[j] = rnd(256)
	} while (valid(t, m))
	return m
}
function ibyte() { return rand() < 0.5 ? rnd(256) : INT[rnd(nint)] }
# One or two edits of a valid word: replace, insert, delete, upper-case,
# append or double a byte.
function mutate(   m, k, op, p, j) {
	m = tob(BASE[rnd(6)])
	for (k = 1 + rnd(2); k > 0; k--) {
		op = rnd(6)
		p = 1 + rnd(m)
		if (op == 0)
			B[p] = ibyte()
		else if (op == 1) {
			p = 1 + rnd(m + 1)
			for (j = m; j >= p; j--)
				B[j + 1] = B[j]
			B[p] = ibyte()
			m++
		} else if (op == 2 && m > 1) {
			for (j = p; j < m; j++)
				B[j] = B[j + 1]
			m--
		} else if (op == 3 && B[p] >= 97 && B[p] <= 122)
			B[p] -= 32
		else if (op == 4)
			B[++m] = ibyte()
		else {
			for (j = m; j >= p; j--)
				B[j + 1] = B[j]
			m++
		}
	}
	return m
}
function mutw(   m) {
	do
		m = mutate()
	while (vmap(m))
	return m
}
function entry(l,   k) { k = RR[l]++; return USE[l, (k + RO[l]) % NU[l]] }
BEGIN {
	for (j = 0; j < 256; j++) {
		HEX[sprintf("%02x", j)] = j
		if (j > 32 && j < 127)
			CH[j] = sprintf("%c", j)
	}
	nint = split("0 10 13 32 9 48 49 102 114 101 122 255 128 160", t, " ")
	for (j = 1; j <= nint; j++)
		INT[j - 1] = t[j] + 0
	k = split(names, t, " ")
	for (j = 1; j <= k; j++)
		NAME[t[j]] = 1
	split("30|30 0a|66 72 65 65|66 72 65 65 0a|66 72 65 65 7a 65|66 72 65 65 7a 65 0a", t, "|")
	for (j = 1; j <= 6; j++)
		BASE[j - 1] = t[j]
	split("30|30 0a|66 72 65 65 0a|66 72 65 65 7a 65 0a|67 61 72 62 61 67 65 0a", t, "|")
	for (j = 1; j <= 5; j++)
		ROW[j - 1] = t[j]
	srand(seed)
}
{
	l = $1
	m = 0
	for (j = 4; j <= NF; j++)
		B[++m] = HEX[$j]
	bad = ($3 + 0 > 64) ? (l == "opt") : valid(l, m)
	if (l == "part") {
		p = substr($2, 1, length($2) - 1)
		if (!(p in PB))
			PORD[np++] = p
		PB[p] += bad
	} else if (bad)
		print l, $2 > excl
	else
		USE[l, NU[l]++] = $2
}
END {
	for (j = 0; j < np; j++)
		if (PB[PORD[j]])
			print "part", PORD[j] > excl
		else
			USE["part", NU["part"]++] = PORD[j]
	RO["near"] = rnd(NU["near"] + 1)
	RO["part"] = rnd(NU["part"] + 1)
	RO["opt"] = rnd(NU["opt"] + 1)
	RO["topt"] = rnd(NU["topt"] + 1)
	# The kinds of write, each with the upper end of its share of [0, 1).
	split("0.15 rand 0.25 mut 0.40 near 0.47 part 0.55 off 0.70 opt 0.85 topt 0.93 ro 1 rand", KW, " ")
	for (it = 1; it <= n; it++) {
		r = rand()
		for (i = 1; r >= KW[i] + 0; i += 2)
			;
		k = KW[i + 1]
		if ((k == "near" || k == "part") && !NU[k])
			k = "rand"
		if (k == "rand") {
			m = rand() < 0.5 ? randw("map", 8) : randw("map", 64)
			print k, "-", oct(m)
		} else if (k == "mut")
			print k, "-", oct(mutw())
		else if (k == "near" || k == "part")
			print k, entry(k), "-"
		else if (k == "off") {
			q = rand()
			if (q < 0.3)
				m = tob("67 61 72 62 61 67 65")
			else if (q < 0.7)
				m = mutw()
			else
				m = randw("map", 7)
			print k, rnd(4) ":" (1 + rnd(4096)), oct(m)
		} else if (k == "opt" || k == "topt") {
			if (rand() < 0.4 || !NU[k])
				print k, "-", oct(randw(k, 64))
			else
				print k, entry(k), "-"
		} else {
			m = rand() < 0.5 ? tob(ROW[rnd(5)]) : randw("ro", 64)
			print k, rnd(2), oct(m)
		}
	}
}
