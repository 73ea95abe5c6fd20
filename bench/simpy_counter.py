#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench/simpy_counter.py - the contended-counter benchmark in SimPy.

The peer of memcgsim's atomic_counter workload for `make bench-peers`:
N CPUs, K shared counters; every CPU loops { think for an exponential
time of mean THINK_NS; pick a counter uniformly; take it (a FIFO
resource of capacity 1: the serialised locked RMW), hold it HOLD_NS,
release it }. Runs SIM_MS of simulated time (time unit: 1 ns) and
prints one line:

    simpy N K atomics EVENTS WALL_S

where EVENTS is the number of events SimPy scheduled (its internal
event id counter) and WALL_S the wall time of env.run() alone.

usage: simpy_counter.py N K THINK_NS HOLD_NS SIM_MS SEED
"""
import random
import sys
import time

import simpy


def cpu(env, rnd, counters, think_mean, hold, done):
    k = len(counters)
    while True:
        yield env.timeout(rnd.expovariate(1.0 / think_mean))
        res = counters[rnd.randrange(k) if k > 1 else 0]
        with res.request() as req:
            yield req
            yield env.timeout(hold)
        done[0] += 1


def main():
    if len(sys.argv) != 7:
        sys.stderr.write(__doc__.split("\n\n")[-1] + "\n")
        return 2
    n, k = int(sys.argv[1]), int(sys.argv[2])
    think, hold = float(sys.argv[3]), float(sys.argv[4])
    sim_ns = float(sys.argv[5]) * 1e6
    rnd = random.Random(int(sys.argv[6]))
    env = simpy.Environment()
    counters = [simpy.Resource(env, capacity=1) for _ in range(k)]
    done = [0]
    for _ in range(n):
        env.process(cpu(env, rnd, counters, think, hold, done))
    t0 = time.perf_counter()
    env.run(until=sim_ns)
    wall = time.perf_counter() - t0
    events = next(env._eid)  # SimPy 3: one id per scheduled event
    print("simpy %d %d %d %d %.6f" % (n, k, done[0], events, wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
