# SPDX-License-Identifier: GPL-2.0
# What the write fuzzer (guest/parts/fuzz.sh) writes besides random bytes and
# edits: a list of bad writes for each file it fuzzes, made into files by
# mklist (guest/lib/fuzz-lib.sh).

# Near misses of stack_map's three words.
mklist near <<'EOF'
00
0\040
\0400
1
-0
0x0
fre
freez
frees
FREE
free\n\n
0\n0
0\000
free\000
\n
@empty
@zeros 4096
@zeros 65536
+0
0\r
0\r\n
0\n\n
\t0
\0000
\000
Free
frees\n
freezee
freeze\040
free\040\n
freeze\000
0\n\000
0\000\000\000\000\000\000
00000000
0000000
freeze\n\n
reset
1\n
EOF
# Words cut in two, written on one descriptor: none is taken, so the file
# must not add them up.
mklist part <<'EOF'
fr|ee
fre|e
fre|e\n
f|ree
fre|eze
freez|e
freez|e\n
fr|eeze
fr|ee\n
EOF
# options/stackmap takes 0 and 1 as kstrtoul() reads them.
mklist opt <<'EOF'
2
-1
01x
yes
no
true
on
\0401
1\040
1\n\n
0x1
-0
11
10
1.0
4294967297
18446744073709551616
\n
\0001
1\r
one
+
+-1
EOF
# trace_options takes the names of the options, with or without "no".
mklist topt <<'EOF'
stackmapx
no\040stackmap
stack\040map
STACKMAP
stackmap-resolvex
nostackmapx
nonostackmap
stackmap,stacktrace
no
stackmap\040stacktrace
stackma
tackmap
no-stackmap
stack_map
\000stackmap
EOF
printf 'free' > $W/free
printf 'free\n' > $W/free_nl

