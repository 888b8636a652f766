# SPDX-License-Identifier: GPL-2.0
"""ktap.py OUT [PART]: the KTAP results a guest wrote to OUT, one line each.

Every guest part (guest/lib.sh, and ftracetest -K) writes a line
"=== PART NAME" and then a KTAP (or TAP 13) document: "ok N what" and
"not ok N what" results, with an optional directive (# SKIP, # XFAIL,
# UNRESOLVED, # error), "# text" diagnostics, and a plan "1..N" at the
start or the end. Printed, tab-separated, for the host's checks:

  PART  RESULT  what    RESULT: PASS FAIL SKIP XFAIL UNRESOLVED ERROR
  PART  #       text    a diagnostic line
  PART  END     N       the plan: the part finished; N results expected

With PART, only that part's lines. A result line of a document without a
part header belongs to part "?". Run with --self-test to check the parser.
"""
import re
import sys

RESULT = re.compile(r"^\s*(not ok|ok)\s+(\d+)\s*(.*?)\s*$")
DIRECTIVE = re.compile(r"\s+#\s*(SKIP|XFAIL|UNRESOLVED|error)\b.*$", re.I)
PLAN = re.compile(r"^\s*1\.\.(\d+)\s*$")
CSI = re.compile(r"\x1b\[[0-9;]*m")


def parse(lines):
    part, rows = "?", []
    for raw in lines:
        line = CSI.sub("", raw.rstrip("\r\n"))
        if line.startswith("=== PART "):
            part = line[len("=== PART "):].strip()
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
            continue
        m = PLAN.match(line)
        if m:
            rows.append((part, "END", m.group(1)))
            continue
        if line.startswith("# ") and not line.startswith("# Totals:"):
            rows.append((part, "#", line[2:]))
    return rows


def self_test():
    doc = """noise
=== PART a
KTAP version 1
ok 1 first # SKIP not here
not ok 2 second
# why it failed
ok 3 third  with   spaces
not ok 4 fourth # UNRESOLVED
ok 5 fifth # XFAIL
1..5
# Totals: pass:1 fail:1
=== PART b
TAP version 13
1..2
\x1b[32mok 1 colour\x1b[0m
""".splitlines()
    want = [("a", "SKIP", "first"), ("a", "FAIL", "second"), ("a", "#", "why it failed"),
            ("a", "PASS", "third with spaces"), ("a", "UNRESOLVED", "fourth"),
            ("a", "XFAIL", "fifth"), ("a", "END", "5"), ("b", "END", "2"),
            ("b", "PASS", "colour")]
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
