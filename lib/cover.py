# SPDX-License-Identifier: GPL-2.0
# cover.py OLD NEW: keep the subject and the written text of the cover letter
# OLD in the freshly generated NEW; the shortlog and diffstat stay NEW's.
import re
import sys

old, new = open(sys.argv[1]).read(), open(sys.argv[2]).read()
oh, _, ob = old.partition("\n\n")
nh, _, nb = new.partition("\n\n")
# Keep our subject text; format-patch's prefix carries the patch count.
subj = re.search(r"^Subject: \[[^]]*\] ?((?:.*)(?:\n .*)*)", oh, re.M).group(1)
nh = re.sub(r"^(Subject: \[[^]]*\] ?).*(?:\n .*)*", lambda m: m.group(1) + subj, nh, flags=re.M)
# The recipients of the submission (To:, Cc: header lines) stay too.
rcpt = "".join(m.group(0) for m in re.finditer(r"^(?:To|Cc): .*\n(?:[ \t].*\n)*", oh + "\n", re.M))
nh = re.sub(r"^(?:To|Cc): .*\n(?:[ \t].*\n)*", "", nh + "\n", flags=re.M).rstrip("\n")
nh = re.sub(r"^(Subject: .*(?:\n .*)*)", lambda m: rcpt + m.group(1), nh, count=1, flags=re.M)
# The written text ends where the generated shortlog ("Name (N):") starts.
shortlog = re.compile(r"\n(?=[^\n]+ \(\d+\):\n)")
text = shortlog.split(ob, maxsplit=1)[0].rstrip("\n")
gen = shortlog.split(nb, maxsplit=1)
open(sys.argv[2], "w").write(nh + "\n\n" + text + "\n\n" + (gen[1] if len(gen) > 1 else ""))
