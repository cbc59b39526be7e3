"""A cross build's --list, --dry-run and headless run (tests/cross/arm64.sh runs it with WTG_TEST_WTG, a wrapper that runs
the aarch64 wtg under qemu-user): syscall and valley in --quick mode with -o json, valid against the
shipped schema; the machine block names the arm64 byte sum; the kernels experiment runs the hand SIMD
level the machine block names, WTG_SIMD=asimd the UADALP loop, and every sample's sum matches the
scalar loop's (the experiment's sum checks). Invariants only, never a timing."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from wtgtest import TOP_SRCDIR, check, datadir_is_empty, experiment, finish, rows, run, run_json, skip_check  # noqa: E402

SCHEMA = os.path.join(TOP_SRCDIR, "data", "wtg-report.schema.json")
ARM_LEVELS = ("portable", "asimd", "asimddp")
SMALL_BUFFER = {"WTG_TEST_MAX_BUFFER": "16M"}

try:
    import jsonschema
except ImportError:
    jsonschema = None


def check_schema(doc, what):
    if jsonschema is None:
        skip_check(what, "the Python module jsonschema is not installed")
        return
    schema = json.load(open(SCHEMA))
    errors = sorted(jsonschema.validators.validator_for(schema)(schema).iter_errors(doc), key=str)
    check(not errors, "%s%s" % (what, ": %s at %s" % (errors[0].message, list(errors[0].absolute_path))
                                if errors else ""))


def all_checks_ok(e, what):
    bad = [c for c in e["checks"] if not c["ok"]]
    check(e["checks"] and not bad, "%s: every check ok (%d): %r" % (what, len(e["checks"]), bad[:3]))


# --list and --dry-run: what the aarch64 build offers and plans, nothing measured
status, out, err = run("--list")
names = [ln.split()[0] for ln in out.splitlines() if ln.strip()]
check(status == 0 and "syscall" in names and "valley" in names and "kernels" in names,
      "--list exits 0 and names syscall, valley, kernels (%d lines; %s)" % (len(names), err.strip()))
status, out, err = run("--dry-run", "--run=syscall,valley,kernels", "--format=json")
try:
    plan = json.loads(out)
except ValueError:
    plan = None
check(status == 0 and plan is not None, "--dry-run --format=json exits 0 with JSON (%d: %s)" % (status, err.strip()))
if plan:
    check([p["experiment"] for p in plan["plan"]] == ["syscall", "valley", "kernels"],
          "--dry-run plans syscall, valley, kernels: %r" % [p["experiment"] for p in plan["plan"]])

# the runs measure in a worker thread: where the emulator cannot start one (arm64.sh's probe says
# why), they are skipped, said so
THREADS = os.environ.get("WTG_TEST_EMULATOR_THREADS", "yes")
RUNS = ["syscall,valley --quick -o json: exit 0, JSON valid against the schema, machine block",
        "kernels --quick: the simd rows run machine.kernels.simd, every sum checked",
        "kernels under WTG_SIMD=asimd: the UADALP loop, every sum checked"]


def measured_runs():
    status, doc, err = run_json("syscall,valley")
    check(status == 0, "syscall,valley --quick -o json exit 0 (got %d: %s)" % (status, err.strip()[-300:]))
    if check(doc is not None, "syscall,valley: the JSON parses"):
        check_schema(doc, "syscall,valley: the JSON validates against data/wtg-report.schema.json")
        m = doc["machine"]
        check(m["kernel"].endswith("aarch64"), "the machine block's kernel line says aarch64: %r" % m["kernel"])
        simd = m.get("kernels", {}).get("simd")
        check(simd in ARM_LEVELS, "machine.kernels.simd is an arm64 level: %r" % simd)
        check(m.get("kernels", {}).get("native") == "armv8-a (NEON)",
              "machine.kernels.native is the armv8-a baseline: %r" % m.get("kernels"))
        for name in ("syscall", "valley"):
            e = experiment(doc, name)
            if check(e is not None and len(e["rows"]) > 0, "%s: rows" % name):
                all_checks_ok(e, name)
    check(datadir_is_empty(), "syscall,valley: the data file is removed")

    # the kernels experiment: the simd rows run the level the machine block names, and their sums match
    status, doc, err = run_json("kernels", env=SMALL_BUFFER)
    check(status == 0, "kernels --quick exit 0 (got %d: %s)" % (status, err.strip()[-300:]))
    if check(doc is not None, "kernels: the JSON parses"):
        simd = doc["machine"].get("kernels", {}).get("simd")
        e = experiment(doc, "kernels")
        impls = {r["impl"] for r in rows(e) if r["kernel"] == "simd"}
        check(impls == {simd}, "kernels: the simd rows ran %r, the machine block's level %r" % (impls, simd))
        sums = [c for c in e["checks"] if "sum" in c["name"]]
        check(len(sums) >= len(rows(e)), "kernels: a sum check for each row (%d checks, %d rows)"
              % (len(sums), len(rows(e))))
        all_checks_ok(e, "kernels")

    status, doc, err = run_json("kernels", env=dict(SMALL_BUFFER, WTG_SIMD="asimd"))
    check(status == 0, "kernels with WTG_SIMD=asimd exit 0 (got %d: %s)" % (status, err.strip()[-300:]))
    if check(doc is not None, "kernels with WTG_SIMD=asimd: the JSON parses"):
        e = experiment(doc, "kernels")
        impls = {r["impl"] for r in rows(e) if r["kernel"] == "simd"}
        check(impls == {"asimd"}, "kernels: WTG_SIMD=asimd runs the UADALP loop: %r" % impls)
        check(doc["machine"]["kernels"]["simd"] == "asimd", "machine.kernels.simd says asimd under WTG_SIMD=asimd")
        all_checks_ok(e, "kernels (asimd)")


if THREADS == "yes":
    measured_runs()
else:
    for what in RUNS:
        skip_check(what, "no threads under the emulator (%s)" % THREADS)
finish()
