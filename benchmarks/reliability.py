"""The reliability run: the hostile-table tests with far more trials than the default suite can afford.

    python benchmarks/reliability.py [--kills 120] [--mails 3000] [--yaml 20000] [--quick]

- `pbem tick` killed (SIGKILL) at a random moment over a games root that owes reminders, timeout and late
  notices, the reports of moves the referee played and daily digests, then run again: every mail owed sent exactly
  once and every game as an uninterrupted run leaves it (tests/clock/test_clock_kill.py, PBEM_KILL_TRIALS), each
  trial once with one worker and once with two (the run and its workers killed together); the run says how many
  kills left a change whose mail was still owed;
- every header of every mail the referee writes, whatever the incoming mail's headers held, parses back as meant
  (tests/mail/test_mail_hostile.py, PBEM_FUZZ_EXAMPLES);
- pbem's YAML reader against libyaml's safe loader on fuzzed documents (tests/engine/test_engine_yaml_reader.py);
- every kind of wrong file at every game file, with every command, by the command line and by mail: the refusal
  names the file (tests/engine/test_engine_refusals.py, PBEM_REFUSALS_ALL).

Each part is a pytest run (two workers); the exit status is 1 if any fails. Nothing here is timed: the
performance figures are bench.py's.
"""
from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2"]


def run(name: str, tests: list[str], env: dict[str, str]) -> bool:
    print(f"== {name}", flush=True)
    started = time.monotonic()
    done = subprocess.run(PYTEST + tests, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True)
    summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"   {summary} ({time.monotonic() - started:.0f} s)", flush=True)
    if done.returncode != 0:
        print(done.stdout[-6000:], done.stderr[-2000:], sep="\n")
    return done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=120, help="pbem tick runs killed (at least 100 for a report)")
    parser.add_argument("--mails", type=int, default=3000, help="hostile mails (the header property)")
    parser.add_argument("--yaml", type=int, default=20000, help="fuzzed YAML documents")
    parser.add_argument("--quick", action="store_true", help="a tenth of each, to try the run itself")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "kills.txt"
        ok &= run(f"pbem tick killed {args.kills // scale} times with one worker and as many with two, then run again",
                  ["tests/clock/test_clock_kill.py"],
                  {"PBEM_KILL_TRIALS": str(args.kills // scale), "PBEM_KILL_REPORT": str(report)})
        kinds = collections.Counter(line.split()[1] for line in report.read_text().splitlines()) \
            if report.exists() else collections.Counter()
        print(f"   kills that left a change with its mail owed, or mail half sent: {kinds['owed']}; "
              f"before or after all of it: {kinds['clean']}")
    ok &= run(f"{args.mails // scale} hostile mails: every header as meant", [
        "tests/mail/test_mail_hostile.py", "-k", "every_header or every_address"],
        {"PBEM_FUZZ_EXAMPLES": str(args.mails // scale)})
    ok &= run(f"{args.yaml // scale} fuzzed YAML documents: pbem reads as libyaml or refuses",
              ["tests/engine/test_engine_yaml_reader.py"], {"PBEM_FUZZ_EXAMPLES": str(args.yaml // scale)})
    ok &= run("every wrong file, every command, by CLI and by mail: the refusal names the file",
              ["tests/engine/test_engine_refusals.py"], {"PBEM_REFUSALS_ALL": "1"})
    print("reliability: all held" if ok else "reliability: FAILED (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
