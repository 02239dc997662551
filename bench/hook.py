#!/usr/bin/env python3
"""bench/hook.py: what one hook call costs, as a ratio against the floor, at every policy size.

Builds warden, the floor (bench/floor: read stdin, parse the JSON, print) and
the runner (bench/measure) in release mode; writes user policies of 0, 100,
1,000 and 10,000 rules, and plugin files of 1,000 and 10,000 regexes; then
runs every case and its floor interleaved, round after round, and prints a
markdown table: case, floor median, warden median, ratio, instructions
(callgrind), minor page faults and peak RSS.
It also times a cache rebuild and `warden check --batch` on a mixed corpus.

Usage: bench/hook.py [--rounds N] [--no-callgrind] [--no-batch] [--write]
                     [--warden PATH] [--baseline PATH]
                     [--batch-rounds N] [--batch-commands FILE] [--batch-by-file]
  --rounds N       runs of each case (default 300), one per round
  --no-callgrind   skip the instruction counts (valgrind takes a while)
  --no-batch       skip the `check --batch` throughput
  --write          also put the table into docs/performance.md, between its markers
  --warden PATH    measure this binary instead of building one with `install.sh --build-only`
  --baseline PATH  also run another warden build (one from before a change) on
                   every case and every batch stream, interleaved with the
                   others, with a cache of its own
  --batch-rounds N runs of each batch stream (default 5), in shuffled rounds
  --batch-commands FILE
                   one more batch stream: the commands in FILE, one a line
                   (material of your own, such as the tldr pages' commands:
                   bench/tldr.py writes them from a checkout of the pages)
  --batch-by-file  one more batch stream for each file of tests/corpus (its
                   ordinary commands, repeated to 20,000 payloads), reported in
                   a table of its own: which kinds of command cost the most

The table goes to target/bench/hook/table.md; the payloads and policies stay
in target/bench/hook/ for profiling by hand.
"""
import argparse
import json
import os
import pathlib
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import soak  # noqa: E402  (the corpus commands, read as bench/soak.py reads them)
OUT = ROOT / "target" / "bench" / "hook"
BUILD = ROOT / "target" / "bench-crates"

SIMPLE = {
    "git status": "git status",
    "ls -la": "ls -la",
    "cargo build": "cargo build --release",
    "rm -rf /": "rm -rf /",
    "git reset --hard": "git reset --hard HEAD~1",
}

# Interpreter one-liners, which agents run often: their inline code is read
# for what it runs, writes and sends. Built-ins only.
ONE_LINERS = {
    "python3 -c": "python3 -c \"import json,sys; print(json.load(sys.stdin)['name'])\"",
    "node -e": "node -e \"console.log(process.version)\"",
    "python3 -c, network": ("python3 -c \"import requests; "
                            "print(requests.get('https://api.example.com').status_code)\""),
}


def pipeline(size):
    """A realistic shell pipeline of about `size` bytes."""
    stages = [
        "git log --format='%H %an %s' --since='2 weeks ago'",
        "grep -v 'Merge branch'",
        "awk '{print $2}'",
        "sort",
        "uniq -c",
        "sort -rn",
        "head -n 20",
        "sed -e 's/^ *//' -e 's/ /\\t/'",
        "tee /tmp/authors.txt",
        "cut -f2",
        "tr 'a-z' 'A-Z'",
        "xargs -n1 echo author:",
    ]
    parts, n = [], 0
    while len(" | ".join(parts)) < size:
        parts.append(stages[n % len(stages)])
        n += 1
    return " | ".join(parts)[:size].rsplit(" | ", 1)[0]


def rules(count):
    """`count` user rules: prefixes, globs, regexes and path globs over
    realistic literals, many sharing a prefix (one tool, many subcommands)."""
    deny, ask, allow = [], [], []
    for i in range(count):
        kind = i % 5
        if kind == 0:
            deny.append(f"terminal(kubectl delete namespace prod-{i}:*)")
        elif kind == 1:
            ask.append(f"terminal(deployctl release service-{i} *)")
        elif kind == 2:
            deny.append({"tool": "terminal", "regex": rf"\bterraform\s+destroy\s+-target=module\.m{i}\b"})
        elif kind == 3:
            allow.append(f"terminal(make target-{i}:*)")
        else:
            ask.append(f"write_file(deploy/env-{i}/**)")
    return {"mode": "autonomous", "rules": {"deny": deny, "ask": ask, "allow": allow}}


def matching(count):
    """A command the last prefix deny rule of a `count`-rule policy matches."""
    last = max(i for i in range(count) if i % 5 == 0)
    return f"kubectl delete namespace prod-{last} --wait=false"


def payload(command, cwd):
    return json.dumps({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": command},
        "session_id": "bench",
        "cwd": cwd,
    })


def regexes(count):
    """The custom-patterns plugin's file with `count` distinct regexes, one
    tool each, as a team that lists every destructive subcommand writes it."""
    lines = ["deny_patterns:"]
    for i in range(count):
        lines.append(f"  - pattern: '\\btool{i}\\s+(delete|destroy|purge|wipe)\\b'")
        lines.append(f"    description: tool{i} destructive")
    return "\n".join(lines) + "\n"


def world(count, suffix="", plugin=False):
    """A HOME with a `count`-rule policy (warden's own file, or the plugin's
    regexes), and the variables warden needs to see only it."""
    root = OUT / f"world-{count}{suffix}"
    shutil.rmtree(root, ignore_errors=True)
    (root / "project").mkdir(parents=True)
    if count and plugin:
        patterns = root / "home" / ".hermes" / "custom-dangerous-patterns.yaml"
        patterns.parent.mkdir(parents=True)
        patterns.write_text(regexes(count))
    elif count:
        config = root / "home" / ".config" / "warden" / "config.yaml"
        config.parent.mkdir(parents=True)
        # JSON is YAML, and much faster to write for 10,000 rules.
        config.write_text(json.dumps(rules(count), indent=1) + "\n")
    else:
        (root / "home").mkdir()
    env = {
        "HOME": str(root / "home"),
        "XDG_CACHE_HOME": str(root / "cache"),
        "XDG_STATE_HOME": str(root / "state"),
        "WARDEN_MANAGED_DIR": str(root / "etc-warden"),
        "WARDEN_PROJECT_CEILING": str(root),
    }
    return root, env


def build(args):
    if args.warden:
        warden = pathlib.Path(args.warden).resolve()
    else:
        # Built as install.sh builds it: what users run is what is measured.
        built = subprocess.run([str(ROOT / "install.sh"), "--build-only"], cwd=ROOT, check=True,
                               capture_output=True, text=True).stdout.strip().splitlines()[-1]
        warden = ROOT / built
    for crate in ["floor", "measure"]:
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "--target-dir", str(BUILD)],
            cwd=ROOT / "bench" / crate, check=True)
    return (installed(warden, "warden"), installed(BUILD / "release" / "warden-floor", "floor"),
            BUILD / "release" / "warden-measure")


def installed(program, name):
    """A copy of `program`, as install.sh installs one. A binary fresh from
    the linker (lld writes it through a memory map) was measured to take 15
    more page faults and 0.2 ms more per start than a copy of it."""
    (OUT / "bin").mkdir(parents=True, exist_ok=True)
    copy = OUT / "bin" / name
    shutil.copyfile(program, copy)
    copy.chmod(0o755)
    return copy


def verdict(warden, stdin, env):
    out = subprocess.run([str(warden)], stdin=open(stdin), capture_output=True, text=True, env=env)
    text = out.stdout.strip()
    if text in ("{}", ""):
        return "allow"
    try:
        doc = json.loads(text)
        return doc.get("action") or doc.get("decision") or "?"
    except json.JSONDecodeError:
        return "?"


def instructions(program, stdin, env):
    """Instructions the program executes, counted by callgrind. Under
    valgrind a long line takes far longer than the hook's 2 s deadline,
    which would answer for it and count a decision cut short: the count
    is taken with the deadline off (0)."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(program)],
        stdin=open(stdin), capture_output=True, text=True,
        env={**env, "WARDEN_DEADLINE_MS": "0"})
    found = re.search(r"Collected : (\d+)", out.stderr)
    return int(found.group(1)) if found else None


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--no-batch", action="store_true")
    parser.add_argument("--warden")
    parser.add_argument("--baseline")
    parser.add_argument("--batch-rounds", type=int, default=5)
    parser.add_argument("--batch-commands")
    parser.add_argument("--batch-by-file", action="store_true")
    parser.add_argument("-h", "--help", action="store_true")
    args = parser.parse_args()
    if args.help:
        print(__doc__.strip())
        return
    OUT.mkdir(parents=True, exist_ok=True)
    warden, floor, measure = build(args)

    cases = []  # (name, stdin, env, remove)
    worlds = {n: world(n) for n in [0, 100, 1000, 10000]}
    # The rebuild cases delete their cache entry every run, so they have
    # worlds of their own: an entry just rebuilt is checked whole by the
    # calls of the next two seconds (its fingerprint cannot vouch for it
    # yet), which would turn the other cases' hits into those calls.
    rebuilt = {n: world(n, "-rebuild") for n in [1000, 10000]}
    plugins = {n: world(n, "-regexes", plugin=True) for n in [1000, 10000]}

    def case(name, command, count, remove=False, plugin=False):
        root, env = (rebuilt if remove else plugins if plugin else worlds)[count]
        stdin = OUT / f"{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}.json"
        stdin.write_text(payload(command, str(root / "project")) + "\n")
        cases.append((name, stdin, env, remove, len(command)))

    for label, command in SIMPLE.items():
        case(f"{label} (built-ins)", command, 0)
        case(f"{label} (100 rules)", command, 100)
    for label, command in ONE_LINERS.items():
        case(f"{label} (built-ins)", command, 0)
    for size in [512, 2048, 8192]:
        case(f"{size // 1024 or 0.5} KiB pipeline", pipeline(size), 100)
    for count in [1000, 10000]:
        case(f"git status ({count:,} rules)", "git status", count)
        case(f"matching ({count:,} rules)", matching(count), count)
        case(f"git status ({count:,} regexes)", "git status", count, plugin=True)
    for count in [1000, 10000]:
        case(f"cache rebuild ({count:,} rules)", "git status", count, remove=True)
    # The analysis limits' worst cases: a command at the 1 MiB length limit,
    # and nesting far past the depth limit.
    case("1 MiB command (length limit)", "echo " + "a" * ((1 << 20) - 9) + "; ls", 0)
    case("10,000 nested `$(`", "$(" * 10000, 0)

    # A first call writes each world's cache; a rebuild case deletes it every run.
    programs = [("floor", floor), ("warden", warden)]
    if args.baseline:
        programs.append(("baseline", installed(pathlib.Path(args.baseline).resolve(), "baseline")))
    plan = []
    for name, stdin, env, remove, _ in cases:
        for who, program in programs:
            env_ = dict(env)
            if who == "baseline":
                # Another build may write another cache or ledger format: each
                # build keeps its own.
                env_["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"] + "-baseline"
                env_["XDG_STATE_HOME"] = env["XDG_STATE_HOME"] + "-baseline"
            if who != "floor":
                # The deadline off: a first call that builds a large policy's
                # cache may take longer than a hook call is given.
                subprocess.run([str(program)], stdin=open(stdin), capture_output=True,
                               env={**env_, "WARDEN_DEADLINE_MS": "0"})
            lines = [f"case {name} / {who}", f"stdin {stdin}"]
            lines += [f"env {k}={v}" for k, v in env_.items()]
            if remove and who != "floor":
                cache = pathlib.Path(env_["XDG_CACHE_HOME"]) / "warden"
                lines += [f"remove {p}" for p in cache.glob("policy-*.bin")]
            lines.append(f"run {program}")
            plan.append("\n".join(lines))
    plan_file = OUT / "plan.txt"
    plan_file.write_text("\n\n".join(plan) + "\n")
    print(f"bench/hook.py: {len(cases)} cases × {len(programs)} programs × {args.rounds} rounds",
          file=sys.stderr)
    measured = subprocess.run([str(measure), str(plan_file), str(args.rounds)],
                              capture_output=True, text=True, check=True).stdout
    results = {}
    for line in measured.splitlines():
        name, runs, median, p10, p90, rss, minflt, majflt = line.split("\t")
        results[name] = dict(median=float(median), p10=float(p10), p90=float(p90),
                             rss=int(rss), minflt=int(minflt))

    rows = []
    for name, stdin, env, remove, length in cases:
        f, w = results[f"{name} / floor"], results[f"{name} / warden"]
        if args.no_callgrind or remove:
            ir_f = ir_w = None
        else:
            ir_f, ir_w = instructions(floor, stdin, env), instructions(warden, stdin, env)
        base = results.get(f"{name} / baseline")
        rows.append(dict(name=name, verdict=verdict(warden, stdin, env), floor=f, warden=w,
                         ratio=w["median"] / f["median"], ir_floor=ir_f, ir_warden=ir_w,
                         length=length, remove=remove, baseline=base))

    batch = None
    if not args.no_batch:
        others = {"baseline": programs[2][1]} if args.baseline else {}
        batch = batch_rate({"warden": warden, **others}, worlds[100], args.batch_rounds,
                           args.batch_commands, args.batch_by_file)
    table = render(rows, batch, args.rounds)
    (OUT / "table.md").write_text(table)
    print(table)
    if args.write:
        write_benchmarks(table)


def ordinary(command):
    """Not one of the four 10–50 KB lines that test the analysis limits."""
    return len(command) <= 4096


def corpus_files():
    """Each corpus file's ordinary commands, read as bench/soak.py reads them."""
    found = {}
    for corpus in sorted((ROOT / "tests" / "corpus").glob("*.jsonl")):
        chosen = [c for c in soak.commands([corpus]) if ordinary(c)]
        if chosen:
            found[corpus.stem] = chosen
    return found


def batch_rate(programs, world_, rounds, extra=None, by_file=False):
    """`warden check --batch` on one core over every corpus command, over the
    ordinary ones, over the commands in `extra` if given, and over each corpus
    file's if `by_file`: commands per second, each program's median over
    shuffled, interleaved rounds. A file's stream is labelled `file:NAME`."""
    root, env = world_
    commands = soak.commands()
    streams = [("all", commands, 100_000),
               ("ordinary", [c for c in commands if ordinary(c)], 100_000)]
    if extra:
        lines = pathlib.Path(extra).read_text().splitlines()
        streams.append((pathlib.Path(extra).name, [c for c in lines if c.strip()], 100_000))
    if by_file:
        # A fifth of the main streams' length: twelve files would otherwise
        # take most of the run; 20,000 payloads still take some 0.1 s each.
        streams += [(f"file:{name}", chosen, 20_000) for name, chosen in corpus_files().items()]
    taskset = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    files = {}
    for label, chosen, size in streams:
        stream = OUT / f"batch-{re.sub(r'[^A-Za-z0-9]+', '-', label)}.jsonl"
        lines = [payload(c, str(root / "project")) for c in chosen]
        total = 0
        with open(stream, "w") as f:
            while total < size:
                f.write("\n".join(lines) + "\n")
                total += len(lines)
        files[label] = (stream, total, len(chosen))
    envs = {}
    for who in programs:
        env_ = dict(env)
        if who == "baseline":
            env_["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"] + "-baseline"
            env_["XDG_STATE_HOME"] = env["XDG_STATE_HOME"] + "-baseline"
        envs[who] = env_
    times = {(who, label): [] for who in programs for label in files}
    for _ in range(rounds):
        plan = list(times)
        random.shuffle(plan)
        for who, label in plan:
            started = time.perf_counter()
            subprocess.run(taskset + [str(programs[who]), "check", "--batch"],
                           stdin=open(files[label][0]), stdout=subprocess.DEVNULL,
                           env=envs[who], check=True)
            times[(who, label)].append(time.perf_counter() - started)
    rates = {}
    for label, (_, total, distinct) in files.items():
        rates[label] = dict(commands=total, distinct=distinct, rounds=rounds)
        for who in programs:
            seconds = statistics.median(times[(who, label)])
            rates[label][who] = dict(seconds=seconds, rate=total / seconds)
    return rates


def ms(us):
    return f"{us / 1000:.2f} ms"


def render(rows, batch, rounds):
    baseline = any(r["baseline"] for r in rows)
    head = "| case | verdict | floor median | warden median | ratio |"
    rule = "|---|---|---:|---:|---:|"
    if baseline:
        head += " baseline median | warden / baseline |"
        rule += "---:|---:|"
    out = [head + " instructions (floor / warden) | page faults (floor / warden) | peak RSS (floor / warden) |",
           rule + "---:|---:|---:|"]
    for r in rows:
        ir = "–" if r["ir_warden"] is None else f"{r['ir_floor']:,} / {r['ir_warden']:,}"
        line = (f"| {r['name']} | {r['verdict']} | {ms(r['floor']['median'])} | "
                f"{ms(r['warden']['median'])} | {r['ratio']:.2f}× |")
        if baseline:
            b = r["baseline"]
            line += f" {ms(b['median'])} | {r['warden']['median'] / b['median']:.2f}× |"
        out.append(line + f" {ir} | {r['floor']['minflt']} / {r['warden']['minflt']} | "
                   f"{r['floor']['rss'] / 1024:.1f} / {r['warden']['rss'] / 1024:.1f} MiB |")
    out.append("")
    out.append(f"Medians of {rounds} runs per program, interleaved in shuffled rounds.")
    if batch:
        parts = []
        for label, b in batch.items():
            if label.startswith("file:"):
                continue
            what = {"all": "all {n:,} corpus commands",
                    "ordinary": "the {n:,} ordinary ones (without the four 10–50 KB limit cases)"
                    }.get(label, "the {n:,} commands of " + label).format(n=b["distinct"])
            w = b["warden"]
            text = (f"{b['commands']:,} payloads of {what} in {w['seconds']:.2f} s, "
                    f"**{w['rate']:,.0f} commands/s**")
            if "baseline" in b:
                text += (f" (baseline {b['baseline']['rate']:,.0f}/s, "
                         f"{w['rate'] / b['baseline']['rate']:.2f}×)")
            parts.append(text)
        rounds_ = next(iter(batch.values()))["rounds"]
        out.append(f"`check --batch`, one core, median of {rounds_} interleaved rounds: "
                   + "; ".join(parts) + ".")
        by_file = [(label[5:], b) for label, b in batch.items() if label.startswith("file:")]
        if by_file:
            out.append("")
            head = "| corpus file | commands | payloads | commands/s |"
            rule = "|---|---:|---:|---:|"
            if baseline:
                head += " baseline | warden / baseline |"
                rule += "---:|---:|"
            out += [head, rule]
            for name, b in sorted(by_file, key=lambda item: item[1]["warden"]["rate"]):
                line = (f"| {name} | {b['distinct']:,} | {b['commands']:,} | "
                        f"{b['warden']['rate']:,.0f} |")
                if baseline and "baseline" in b:
                    line += (f" {b['baseline']['rate']:,.0f} | "
                             f"{b['warden']['rate'] / b['baseline']['rate']:.2f}× |")
                out.append(line)
    out.append("")
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    out.append(f"Machine: {cpu}, {os.cpu_count()} cores, Linux {platform.release()}; "
               f"{subprocess.run(['rustc', '--version'], capture_output=True, text=True).stdout.strip()}.")
    return "\n".join(out) + "\n"


def write_benchmarks(table):
    path = ROOT / "docs" / "performance.md"
    text = path.read_text()
    start, end = "<!-- bench:start -->", "<!-- bench:end -->"
    if start not in text or end not in text:
        sys.exit(f"bench/hook.py: {path} has no {start} … {end} markers")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{start}\n{table}{end}{tail}")


if __name__ == "__main__":
    main()
