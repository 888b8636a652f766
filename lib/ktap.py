# SPDX-License-Identifier: GPL-2.0
"""ktap.py OUT [PART]: the KTAP results a guest wrote to OUT, one line each.

Every guest part (guest/lib/lib.sh, and ftracetest -K) writes a line
"=== PART NAME" and then a KTAP (or TAP 13) document: "ok N what" and
"not ok N what" results at the start of a line, with an optional
directive after the last " # " (SKIP, XFAIL, UNRESOLVED, error), "# text"
diagnostics, a plan "1..N" at the start or the end, and "# Totals: ..." last.
Printed, tab-separated, for the host's checks:

  PART  RESULT  what    RESULT: PASS FAIL SKIP XFAIL UNRESOLVED ERROR
  PART  #       text    a diagnostic line
  PART  END     N       the part finished (its totals line, or a plan after
                        its results); N: its plan, "?" without one

A part whose header comes twice gets an ERROR result.

With PART, only that part's lines. A result line of a document without a
part header belongs to part "?". Run with --self-test to check the parser.
"""
import re
import sys

RESULT = re.compile(r"^(not ok|ok) +(\d+)\s*(.*?)\s*$")
DIRECTIVE = re.compile(r"\s+#\s*(SKIP|XFAIL|UNRESOLVED|error)\b[^#]*$", re.I)
PLAN = re.compile(r"^\s*1\.\.(\d+)\s*$")
CSI = re.compile(r"\x1b\[[0-9;]*m")


def parse(lines):
    part, rows, seen = "?", [], set()
    plan, nres, ended = None, 0, False
    for raw in lines:
        line = CSI.sub("", raw.rstrip("\r\n"))
        if line.startswith("=== PART "):
            part = line[len("=== PART "):].strip()
            plan, nres, ended = None, 0, False
            if part in seen:
                rows.append((part, "ERROR", "the part %s started twice" % part))
            seen.add(part)
            continue
        m = RESULT.match(line)
        if m:
            ok, what = m.group(1) == "ok", m.group(3)
            d = DIRECTIVE.search(what)
            kind = d.group(1).upper() if d else ""
            what = " ".join(DIRECTIVE.sub("", what).split())
            if kind in ("SKIP", "XFAIL") and ok:
                res = kind
            elif kind == "UNRESOLVED":
                res = "UNRESOLVED"
            elif kind == "ERROR":
                res = "ERROR"
            else:
                res = "PASS" if ok else "FAIL"
            rows.append((part, res, what))
            nres += 1
            continue
        m = PLAN.match(line)
        if m:
            plan = m.group(1)
            if nres and not ended:
                rows.append((part, "END", plan))
                ended = True
            continue
        if line.startswith("# Totals:"):
            if not ended:
                rows.append((part, "END", plan or "?"))
                ended = True
        elif line.startswith("# "):
            rows.append((part, "#", line[2:]))
    return rows


def self_test():
    doc = """noise
ok 9 not a part's
=== PART a
KTAP version 1
ok 1 first # SKIP not here
not ok 2 second
# why it failed
ok 3 third  with   spaces
not ok 4 fourth # UNRESOLVED
ok 5 fifth # XFAIL
  ok 6 indented, not a result
ok 6 a # in the name # SKIP
1..6
# Totals: pass:1 fail:1
=== PART b
TAP version 13
1..2
\x1b[32mok 1 colour\x1b[0m
=== PART c
1..3
ok 1 stopped half way
=== PART b
# Totals: pass:0
""".splitlines()
    want = [("?", "PASS", "not a part's"),
            ("a", "SKIP", "first"), ("a", "FAIL", "second"), ("a", "#", "why it failed"),
            ("a", "PASS", "third with spaces"), ("a", "UNRESOLVED", "fourth"),
            ("a", "XFAIL", "fifth"), ("a", "SKIP", "a # in the name"), ("a", "END", "6"),
            ("b", "PASS", "colour"), ("c", "PASS", "stopped half way"),
            ("b", "ERROR", "the part b started twice"), ("b", "END", "?")]
    got = parse(doc)
    if got != want:
        print("ktap.py self-test: FAIL\n got  %r\n want %r" % (got, want))
        return 1
    print("ktap.py self-test: PASS (%d lines)" % len(want))
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    with open(argv[1], errors="replace") as f:
        rows = parse(f)
    for part, res, what in rows:
        if len(argv) == 2 or part == argv[2]:
            print("%s\t%s\t%s" % (part, res, what))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
