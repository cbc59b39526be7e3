#!/usr/bin/env python3
"""bench/peers' statistics and verdicts: the order-statistic interval of the per-round ratios (its
coverage against the binomial, counted by brute force), the three verdicts of each kind of goal, and
its usage errors. Nothing here runs a peer or times anything."""
import itertools
import os
import random
import subprocess
import sys
from importlib.machinery import SourceFileLoader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import check, finish

SRC = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PEERS = os.path.join(SRC, "bench", "peers")
peers = SourceFileLoader("peers", PEERS).load_module()


def coverage(n, k):
    """P(x(k) <= median < x(n+1-k)) for n draws of a continuous variable, counted over all 2^n
    above/below patterns: the interval misses when fewer than k draws fall on one side."""
    hits = 0
    for signs in itertools.product((0, 1), repeat=n):
        below = sum(signs)
        hits += k <= below <= n - k
    return hits / 2 ** n


for n in range(5, 16):
    v = [1 + 0.01 * i for i in range(n)]
    random.Random(n).shuffle(v)  # n distinct values, not in order
    med, low, high, cov = peers.median_ci(v)
    s = sorted(v)
    k = s.index(low) + 1
    check(s[n - k] == high, "n=%d: the interval is symmetric in rank: x(%d)..x(%d)" % (n, k, n + 1 - k))
    check(low <= med <= high, "n=%d: %.2f <= median %.2f <= %.2f" % (n, low, med, high))
    check(abs(cov - coverage(n, k)) < 1e-12, "n=%d: coverage %.4f equals the counted %.4f" % (n, cov, coverage(n, k)))
    if n >= 6:
        check(cov >= 0.95, "n=%d: coverage %.4f >= 95%%" % (n, cov))
    else:
        check(k == 1, "n=5: min..max, the widest there is (%.4f)" % cov)
    if k + 1 <= n // 2:
        check(coverage(n, k + 1) < 0.95, "n=%d: the next narrower interval x(%d)..x(%d) covers %.4f < 95%%"
              % (n, k + 1, n - k, coverage(n, k + 1)))
check(peers.median_ci([None, None]) is None, "no figures: no interval")
check(peers.median_ci([2.0, None, 1.0, 3.0, None, 5.0, 4.0])[:3] == (3.0, 1.0, 5.0),
      "missing rounds are left out: the median of five, min..max")

ci = lambda lo, hi: (1.0, lo, hi, 0.96)
cases = [
    ("ratio >= 1", 1.02, ci(0.95, 1.1), "met"),
    ("ratio >= 1", 0.95, ci(0.91, 1.02), "within noise"),
    ("ratio >= 1", 0.95, ci(0.91, 0.98), "missed"),
    ("ratio >= 1", 0.95, None, "missed"),
    ("ratio >= 0.9", 0.92, ci(0.85, 0.95), "met"),
    ("ratio >= 0.9", 0.85, ci(0.80, 0.91), "within noise"),
    ("ratio >= 0.9", 0.85, ci(0.80, 0.89), "missed"),
    ("within 10%", 1.08, ci(1.0, 1.2), "met"),
    ("within 10%", 0.93, ci(0.9, 0.95), "met"),
    ("within 10%", 1.15, ci(1.05, 1.3), "within noise"),
    ("within 10%", 0.8, ci(0.7, 0.95), "within noise"),
    ("within 10%", 1.15, ci(1.12, 1.3), "missed"),
    ("within 10%", 0.8, ci(0.7, 0.85), "missed"),
    ("ratio >= 1", None, None, "n/a"),
    ("ratio >= 0.95", 0.96, ci(0.9, 1.0), "met"),
    ("ratio >= 0.95", 0.93, ci(0.88, 0.97), "within noise"),
    ("ratio >= 0.95", 0.93, ci(0.88, 0.94), "missed"),
]
for goal, ratio, c, want in cases:
    got = peers.goal_met(goal, ratio, c)
    check(got == want, "goal %r, ratio %s, rounds' interval %s: %s (got %s)"
          % (goal, ratio, c and "%.2f-%.2f" % c[1:3], want, got))

# the uncached pairs hand fio wtg's own region (the row's bytes from offset 0) and the CPU its
# reads were kept on, both read from wtg's JSON
rows = {"uncached": [{"mode": "sequential", "bufsize": 1 << 20, "gbps": 2.5, "median_us": 420.0, "bytes": 16 << 20},
                     {"mode": "random", "bufsize": 16384, "gbps": 0.3, "median_us": 60.0, "bytes": 1 << 30}],
        "uncached:notes": ["the reading thread was kept on CPU 3 for the rounds, which took 64 of the 64 "
                           "device interrupts of 64 untimed reads (its affinity restored after)"]}
check(peers.uncached_seq(rows, 1 << 20) == (2.5, (16 << 20, 3)), "seq-1m: wtg's figure, its region and CPU 3")
check(peers.uncached_seq(rows, 1 << 20, "median_us") == (420.0, (16 << 20, 3)), "seq-1m-lat: the row's median_us")
rows["uncached:notes"] = ["no one CPU took 90% of the device interrupts"]
check(peers.uncached_seq(rows, 1 << 20) == (2.5, (16 << 20, None)), "not kept on a CPU: fio runs unpinned too")
check(peers.uncached_seq(rows, 16 << 20) == (None, None), "no 16 MiB row: n/a")


def cli(*args):
    p = subprocess.run([sys.executable, PEERS] + list(args), capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


status, out, err = cli("--runs=3")
check(status == 2 and err == "peers: --runs must be at least 5\n", "--runs=3: exit 2, %r" % err)
status, out, err = cli("--only=sum,bogus")
check(status == 2 and err.startswith("peers: unknown pair 'bogus' (pairs: sum-l1 "), "--only=bogus: exit 2, %r" % err)
status, out, err = cli("--frobnicate")
check(status == 2 and err == "peers: unknown option '--frobnicate' (try --help)\n", "--frobnicate: exit 2, %r" % err)
status, out, err = cli("--help")
check(status == 0 and "within noise" in out and "order statistics" in out,
      "--help: exit 0 and says what the verdicts mean")
finish()
