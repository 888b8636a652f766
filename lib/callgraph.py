# SPDX-License-Identifier: GPL-2.0
"""callgraph.py [--check FILE | --write FILE]: the harness's call graph.

Reads the harness's shell files in the order of LAYERS, top to bottom,
finds every function each defines and every call of one in another file,
and every upper-case variable that one file sets and another reads. Calls
may only go down the list (or stay in their file); a variable may only
cross a file if it is the configuration a command parses at its start
(CONFIG). With --write, writes the graph as markdown (docs/callgraph.md);
with --check, fails if FILE is not what --write would write, or if an
arrow goes up or a variable crosses. Without either, prints the graph.
"""
import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent

# The layers, top to bottom; a file may call its own functions and those
# of any file below it.
LAYERS = [
    ("harness", ["harness"]),
    ("commands", ["lib/commands.sh"]),
    ("plan", ["lib/fresh.sh", "lib/plan.sh", "bench/bench.sh", "bench/peers.sh", "bench/ustack.sh"]),
    ("steps", ["lib/gates.sh", "lib/gates-build.sh", "lib/litmus.sh", "lib/boot.sh", "lib/build.sh", "lib/tool.sh",
               "lib/workspace.sh", "lib/fetch.sh"]),
    ("checks", ["lib/parsertest.sh", "lib/checks.sh"]),
    ("common", ["lib/common.sh"]),
]

# The configuration: what a command parses at its start (the user's
# options, the bases and targets and the paths of the one in use), which
# every layer may read.
CONFIG = set("""
TOP BUILD JOBS SCHEMA BASES MAINLINE TARGETS ARCH_ARG TARGET TSUF BASE BDIR KT OBJ RUN
PATCHROOT BASELINE FULL_RECORD TIER
ONLY_BASE GATES NO_GATES NO_FRESH FTRACETEST NO_DEBUG STRESS_SECS TOOLFUZZ_SECS
QEMU_TIMEOUT QEMU_TIMEOUT_DEBUG ROUNDS DEEP_ROUNDS CLOCK SANITIZER KCSAN_PLANT KARGS
""".split())
CONFIG_PREFIXES = ("TARGET_", "BASE_")

# Bash's own and the environment's.
BUILTIN = set("""
PATH HOME SECONDS BASH_SOURCE BASH_LINENO FUNCNAME BASH_SUBSHELL BASH_COMMAND OPTARG OPTIND
PIPESTATUS IFS LC_ALL DEBIAN_FRONTEND CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR
PYTHONDONTWRITEBYTECODE ARCH
""".split())

# Calls made through a variable: which functions each may reach.
DYNAMIC = {
    "main": re.compile(r"^cmd_"),
    "run_tier": re.compile(r"^plan_(test|full|quick|target)$"),
    "run_gates": re.compile(r"^gate_"),
    "test_boot": re.compile(r"^check_(ftracetest|stackmap_only)$"),
    "parser_case": re.compile(r"^(guest_checks|check_(console|kunit|stackmap_only|ftracetest|kcsan|ftrace_dump|finished|tool))$"),
}

FUNC = re.compile(r"^([a-z_][a-z0-9_]*)\(\)\s*\{(.*)$")
CMDPOS = re.compile(
    r"(?:^|[;|&({!`]|\$\(|<\(|\bthen\b|\bdo\b|\belse\b|\belif\b|\bif\b|\bwhile\b|\buntil\b|\btime\b|\|\||&&)"
    r"\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*"
    r"(?!(?:do|done|then|else|elif|fi|if|while|until|for|in|case|esac|time|local|return)\b)"
    r"([a-z_][a-z0-9_]*)(?=[\s;)&|\"]|$)", re.M)
HEREDOC = re.compile(r"<<-?\s*'?\"?([A-Za-z0-9_]+)")
# No file of the harness grows past this many lines.
MAX_LINES = 300
# A case label ("a | b)") before the commands of its branch.
CASELABEL = re.compile(r"^\s*(?:[\w|*'\"\[\]!:. -]+)\)\s")
SETS = re.compile(r"(?:^|[\s;(]|declare -g[aA]?\s+|read -r[a ]*\s*)([A-Z][A-Z0-9_]+)\+?=")
READSET = re.compile(r"\bread\s+(?:-[a-z]+\s+)*((?:[A-Z][A-Z0-9_]*\s*)+)")
USES = re.compile(r"\$\{?#?!?([A-Z][A-Z0-9_]+)")
# Names read without a $: in arithmetic, and by [ -v NAME ].
ARITH = re.compile(r"\$\(\((.*?)\)\)")
VTEST = re.compile(r"-v\s+\"?([A-Z][A-Z0-9_]+)")


def files():
    return [(layer, f) for layer, fs in LAYERS for f in fs]


def strip(line):
    """A line without its comment (a # after a blank, not in a word)."""
    if line.lstrip().startswith("#"):
        return ""
    return CASELABEL.sub("", re.sub(r"\s#\s.*$", "", line))


def substitutions(line):
    """The $(...) of a line of text, each as its own line of commands."""
    out, i = [], line.find("$(")
    while i >= 0:
        depth, j = 0, i + 1
        while j < len(line):
            depth += {"(": 1, ")": -1}.get(line[j], 0)
            if depth == 0:
                break
            j += 1
        out.append(line[i + 2:j])
        i = line.find("$(", j)
    return out


def parse():
    defs, bodies = {}, {}
    for _, f in files():
        cur = "<top of %s>" % f
        depth = 0
        heredoc = None
        for raw in (TOP / f).read_text().splitlines():
            # A here-document is text, not commands, but for what it
            # substitutes: $(...) runs.
            if heredoc:
                if raw.strip() == heredoc:
                    heredoc = None
                else:
                    bodies.setdefault((f, cur), []).extend(substitutions(raw))
                continue
            m = HEREDOC.search(raw)
            if m:
                heredoc = m.group(1)
            line = strip(raw)
            m = FUNC.match(line)
            if m and depth == 0:
                cur = m.group(1)
                defs[cur] = f
                rest = m.group(2)
                bodies.setdefault((f, cur), []).append(rest)
                if not re.search(r"\}\s*$", rest):
                    depth = 1
                else:
                    cur = "<top of %s>" % f
                continue
            if depth and re.match(r"^\}", line):
                depth = 0
                cur = "<top of %s>" % f
                continue
            bodies.setdefault((f, cur), []).append(line)
    return defs, bodies


def graph():
    defs, bodies = parse()
    order = {f: i for i, (_, f) in enumerate(files())}
    edges, up = set(), []
    for (f, fn), lines in bodies.items():
        text = "\n".join(lines)
        called = {m.group(1) for m in CMDPOS.finditer(text)} & set(defs)
        if fn in DYNAMIC:
            called |= {d for d in defs if DYNAMIC[fn].match(d)}
        for c in sorted(called):
            g = defs[c]
            if g == f:
                continue
            edges.add((f, fn, g, c))
            if order[g] < order[f]:
                up.append("%s: %s calls %s of %s, a layer above" % (f, fn, c, g))
    sets, uses = {}, {}
    for _, f in files():
        for raw in (TOP / f).read_text().splitlines():
            line = strip(raw)
            names = {m.group(1) for m in SETS.finditer(line)}
            for m in READSET.finditer(line):
                names |= set(m.group(1).split())
            for n in names:
                sets.setdefault(n, set()).add(f)
            names = {m.group(1) for m in USES.finditer(line)} | {m.group(1) for m in VTEST.finditer(line)}
            for m in ARITH.finditer(line):
                names |= set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", m.group(1)))
            for n in names:
                uses.setdefault(n, set()).add(f)
    crossing = []
    for _, f in files():
        n = len((TOP / f).read_text().splitlines())
        if n > MAX_LINES:
            crossing.append("%s has %d lines (at most %d)" % (f, n, MAX_LINES))
    for n in sorted(set(sets) | set(uses)):
        if n in CONFIG or n in BUILTIN or n.startswith(CONFIG_PREFIXES):
            continue
        s, u = sets.get(n, set()), uses.get(n, set())
        if not s or not u:
            continue
        if u - s or len(s) > 1:
            crossing.append("%s: set in %s, read in %s" % (n, ", ".join(sorted(s)), ", ".join(sorted(u))))
    return edges, up, crossing


def markdown(edges):
    out = ["# The harness's call graph", "",
           "Generated by `python3 lib/callgraph.py --write docs/callgraph.md`; `./harness test`",
           "checks it (part \"layers\"). The layers, top to bottom: a file calls its own",
           "functions and those of the files below it, never above; no variable crosses",
           "a file but the configuration a command parses at its start (lib/callgraph.py,",
           "CONFIG), and no file has more than %d lines." % MAX_LINES, ""]
    for layer, fs in LAYERS:
        out.append("- **%s**: %s" % (layer, ", ".join("`%s`" % f for f in fs)))
    out += ["", "Calls from one file into another (caller file: function -> callee file: function):", ""]
    by = {}
    for f, fn, g, c in sorted(edges):
        by.setdefault((f, g), []).append("%s -> %s" % (fn, c))
    for (f, g), calls in sorted(by.items(), key=lambda k: ([x for _, x in files()].index(k[0][0]),
                                                         [x for _, x in files()].index(k[0][1]))):
        out.append("- `%s` -> `%s`: %s" % (f, g, ", ".join(sorted(set(calls)))))
    return "\n".join(out) + "\n"


def main(argv):
    edges, up, crossing = graph()
    bad = up + crossing
    text = markdown(edges)
    if len(argv) == 3 and argv[1] == "--write":
        Path(argv[2]).write_text(text)
    elif len(argv) == 3 and argv[1] == "--check":
        p = Path(argv[2])
        if not p.exists() or p.read_text() != text:
            bad.append("%s is not the graph of the files: python3 lib/callgraph.py --write %s" % (argv[2], argv[2]))
    elif len(argv) != 1:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    else:
        sys.stdout.write(text)
    for b in bad:
        print("callgraph: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
