// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/simgrid_counter.cpp - the contended-counter benchmark in SimGrid.
 *
 * The peer of memcgsim's atomic_counter workload for `make bench-peers`:
 * N CPUs (one S4U actor each, on one host of a full zone), K shared
 * counters (one s4u::Mutex each: the serialised locked RMW); every actor
 * loops { sleep an exponential time of mean THINK_NS; pick a counter
 * uniformly; lock it, sleep HOLD_NS, unlock it } until SIM_MS of
 * simulated time. Prints one line:
 *
 *	simgrid N K ATOMICS 0 WALL_S
 *
 * (SimGrid does not count its events: the 0) where WALL_S is the wall
 * time of Engine::run() alone.
 *
 * usage: simgrid_counter N K THINK_NS HOLD_NS SIM_MS SEED
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

static std::vector<sg4::MutexPtr> counters;
static double think_s, hold_s, end_s;
static unsigned long long atomics;

static void cpu(unsigned long seed)
{
	std::mt19937_64 rng(seed);
	std::exponential_distribution<double> think(1.0 / think_s);
	std::uniform_int_distribution<size_t> pick(0, counters.size() - 1);

	for (;;) {
		sg4::this_actor::sleep_for(think(rng));
		if (sg4::Engine::get_clock() >= end_s)
			break;
		sg4::MutexPtr m = counters[counters.size() > 1 ? pick(rng) : 0];
		m->lock();
		sg4::this_actor::sleep_for(hold_s);
		m->unlock();
		atomics++;
	}
}

int main(int argc, char **argv)
{
	sg4::Engine e(&argc, argv);

	if (argc != 7) {
		std::fprintf(stderr, "usage: simgrid_counter N K THINK_NS "
				     "HOLD_NS SIM_MS SEED\n");
		return 2;
	}
	unsigned n = std::strtoul(argv[1], nullptr, 10);
	unsigned k = std::strtoul(argv[2], nullptr, 10);
	think_s = std::strtod(argv[3], nullptr) * 1e-9;
	hold_s = std::strtod(argv[4], nullptr) * 1e-9;
	end_s = std::strtod(argv[5], nullptr) * 1e-3;
	unsigned long seed = std::strtoul(argv[6], nullptr, 10);

	auto *zone = sg4::create_full_zone("zone");
	sg4::Host *host = zone->create_host("host", 1e9);
	zone->seal();
	for (unsigned i = 0; i < k; i++)
		counters.push_back(sg4::Mutex::create());
	for (unsigned i = 0; i < n; i++)
		sg4::Actor::create("cpu" + std::to_string(i), host, cpu,
				   seed * 1000003ul + i);
	auto t0 = std::chrono::steady_clock::now();
	e.run();
	std::chrono::duration<double> wall =
		std::chrono::steady_clock::now() - t0;
	counters.clear();
	std::printf("simgrid %u %u %llu 0 %.6f\n", n, k, atomics,
		    wall.count());
	return 0;
}
