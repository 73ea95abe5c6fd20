#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
tools/extract-insn-costs.py - count the instructions of the modelled kernel
paths in a real vmlinux with debug information (issue 13).

Usage: tools/extract-insn-costs.py [VMLINUX] > models/kernel/sim/insn-costs-6.1.tsv
       tools/extract-insn-costs.py --c models/kernel/sim/insn-costs-6.1.tsv
           rewrites the generated parts of models/kernel/sim/insn.h and insn.c
           (between "generated" markers) from the data file; no vmlinux
           needed

VMLINUX defaults to the one Debian 12's linux-image-amd64-dbg installs
(/usr/lib/debug/boot/vmlinux-6.1.*). Needs objdump (binutils) and nm; only
the Python standard library.

Theory of operation

For every row of ROWS below, the script disassembles a function of the
binary (objdump -d -l --inlines, so that every instruction carries the
chain of inlined functions it came from) and builds its control-flow graph
at instruction granularity:

  - a conditional jump has two successors, its target and the next
    instruction; an unconditional jump one; `ret`, `jmp
    __x86_return_thunk` and a jump out of the function (a tail call) end
    the function; `ud2`, `int3` and calls to noreturn functions (BUG(),
    WARN paths end in ud2) end the path without returning;
  - a `call` is one instruction: the callee is counted in its own row when
    it is modelled, and not at all when it is not (the rows say which
    callees the path calls, in the `calls` column).

The RULE of every row is then one of:

  path      the SHORTEST path, in instructions, from the entry to a return
            (breadth-first search; every instruction weighs 1), through the
            instructions listed in `via` in order, if any. The shortest
            path is the fast path of these functions: the stock hit, the
            counter below its threshold, the list node already queued;
            where the model takes a longer branch, `via` names it (an
            instruction by the callee it calls or by its source line).
  loop      one iteration of a loop: the shortest cycle from the loop's
            head (the target of a backward jump whose source line is
            `via`) back to it. Loops with several backward jumps count the
            shortest.
  inline    the instructions of a `path` (of the function named in `of`)
            that DWARF attributes to an inlined function (`fn`): an
            inlined function has no symbol, its cost is the part of its
            caller's path that came from it. The caller's own row excludes
            them (column `minus`).
  sum       a composite: the sum of other rows times their counts, for
            paths through generic code (seq_buf_printf -> vsnprintf).

`path` rows may subtract inline and loop rows (`minus`), so that a
function's per-call cost and its per-iteration cost are not counted twice.

Every number is thus an instruction count on one path of the machine code;
nothing is fitted to a result. Approximations are named in each row's
`note`: where the kernel's data decides (a string's length, a number's
digits), the count states what it assumed.

Output: a TSV with a provenance header (package, vmlinux, objdump), one row
per (fn, part): fn, part, insns, symbol, address, rule, calls, note.
"""
import collections
import glob
import os
import re
import subprocess
import sys

# ---- the rows -----------------------------------------------------------
# (fn, part, rule, symbol, via, minus, note)
#   fn/part: the model's name for the cost (models/kernel/sim/insn.c)
#   symbol: the function of the binary whose code is walked
#   via: for path, a list of "call:NAME" or "line:FILE:N" or "insn:MNEMONIC"
#        waypoints; for loop, "line:FILE:N" of the backward jump's line;
#        for inline, the inlined function's name
#   minus: rows (fn/part) subtracted from this one's count
ROWS = [
    # -- the charge: try_charge_memcg, stock hit (v6.1 inlines consume_stock)
    ("try_charge_memcg", "call", "path", "try_charge_memcg", [],
     ["consume_stock/call"],
     "stock hit: consume_stock() (inlined) serves the charge, return 0"),
    ("consume_stock", "call", "inline", "try_charge_memcg",
     "consume_stock", [],
     "the inlined consume_stock() on try_charge_memcg's stock-hit path"),
    ("try_charge_memcg", "miss", "path", "try_charge_memcg",
     ["call:page_counter_try_charge", "call:refill_stock",
      "line:mm/memcontrol.c:2810"],
     ["try_charge_memcg/call", "consume_stock/call",
      "try_charge_memcg/high_level"],
     "stock miss: page_counter_try_charge() succeeds, refill_stock(), the "
     "memory.high walk finding no level over high (through its loop test, "
     "so not the schedule_work() of an excess; its per-level loop is "
     "high_level); what the hit path does not run"),
    ("try_charge_memcg", "high_level", "loop", "try_charge_memcg",
     "line:mm/memcontrol.c:2783", [],
     "one level of the memory.high check walk: do { ... } while "
     "((memcg = parent_mem_cgroup(memcg)))"),
    ("refill_stock", "call", "path", "refill_stock", [], [],
     "the stock caches this memcg and stays under MEMCG_CHARGE_BATCH: no "
     "drain"),
    ("drain_stock", "call", "path", "drain_stock",
     ["call:page_counter_uncharge"], [],
     "a cached memcg with pages: page_counter_uncharge(), css_put()"),
    # -- page counters: per call and per level of the hierarchy
    ("page_counter_try_charge", "call", "path", "page_counter_try_charge",
     [], ["page_counter_try_charge/level"],
     "entry and return, success; its levels are the level row"),
    ("page_counter_try_charge", "level", "loop", "page_counter_try_charge",
     "line:mm/page_counter.c:131", [],
     "one level: atomic_long_add_return, the max check, "
     "propagate_protected_usage() call, the watermark"),
    ("page_counter_charge", "call", "path", "page_counter_charge", [],
     ["page_counter_charge/level"], "entry and return"),
    ("page_counter_charge", "level", "loop", "page_counter_charge",
     "line:mm/page_counter.c:74", [], "one level"),
    ("page_counter_uncharge", "call", "path", "page_counter_uncharge", [],
     ["page_counter_cancel/call"],
     "entry and return; each level is a page_counter_cancel row (inlined "
     "in v6.1)"),
    ("page_counter_cancel", "call", "loop", "page_counter_uncharge",
     "line:mm/page_counter.c:157", [],
     "one level of page_counter_uncharge(): page_counter_cancel() inlined, "
     "atomic_long_sub_return, no underflow warning, c = c->parent"),
    ("propagate_protected_usage", "call", "path",
     "propagate_protected_usage", ["line:mm/page_counter.c:36"], [],
     "a counter with a parent whose protected usage did not change (v6.1 "
     "checks before the xchg): both min and low compared, no xchg"),
    # -- statistics updates
    ("__mod_memcg_state", "call", "path", "__mod_memcg_state", [], [],
     "__this_cpu_add, memcg_rstat_updated() inlined, below the threshold"),
    ("__mod_lruvec_state", "call", "path", "__mod_lruvec_state", [], [],
     "__mod_node_page_state() and __mod_memcg_lruvec_state() are calls, "
     "counted in their rows"),
    ("__mod_memcg_lruvec_state", "call", "path",
     "__mod_memcg_lruvec_state", [], [],
     "the memcg and lruvec per-CPU adds, memcg_rstat_updated() inlined"),
    ("__mod_node_page_state", "call", "path", "__mod_node_page_state", [],
     [], "the node's per-CPU diff below its threshold"),
    ("mod_lruvec_state", "call", "sum", None,
     [("__mod_lruvec_state/call", 1), ("__mod_node_page_state/call", 1),
      ("__mod_memcg_lruvec_state/call", 1)], [],
     "__mod_lruvec_state() and its two callees; local_irq_save/restore "
     "is the profile's irq_save_restore"),
    ("count_memcg_events", "call", "path", "__count_memcg_events",
     ["line:mm/memcontrol.c:886"], [],
     "__this_cpu_add of the event, memcg_rstat_updated() inlined"),
    ("cgroup_rstat_updated", "call", "path", "__cgroup_rstat_updated", [],
     [], "the cgroup is already on this CPU's updated list: early return "
     "(v6.1.y's memcg_rstat_updated() calls __cgroup_rstat_updated())"),
    ("cgroup_rstat_updated", "link", "path", "__cgroup_rstat_updated",
     ["line:kernel/cgroup/rstat.c:69"],
     ["cgroup_rstat_updated/call"], "raw_spin_lock_irqsave of the per-CPU lock, link the cgroup (one "
     "level, the parent already linked)"),
    ("memcg_check_events", "call", "path", "memcg_check_events", [], [],
     "no event target crossed"),
    ("mem_cgroup_charge_statistics", "call", "inline", "charge_memcg",
     ("mem_cgroup_charge_statistics",
      ["call:try_charge_memcg", "call:memcg_check_events"]), [],
     "inlined in charge_memcg: PGPGIN and nr_page_events"),
    ("charge_memcg", "call", "path", "charge_memcg",
     ["call:try_charge_memcg", "call:memcg_check_events"],
     ["mem_cgroup_charge_statistics/call"],
     "try_charge_memcg() succeeds, commit_charge, statistics, "
     "memcg_check_events()"),
    ("uncharge_batch", "call", "path", "uncharge_batch",
     ["call:page_counter_uncharge"], [],
     "page_counter_uncharge() of memory, PGPGOUT, nr_page_events, "
     "memcg_check_events(), css_put"),
    # -- flushing
    ("mem_cgroup_flush_stats", "call", "path", "mem_cgroup_flush_stats", [],
     [], "below the threshold: no flush"),
    ("cgroup_rstat_flush", "call", "path", "cgroup_rstat_flush",
     ["call:cgroup_rstat_flush_locked"], [],
     "spin_lock_irq(&cgroup_rstat_lock), the locked flush, unlock"),
    ("cgroup_rstat_flush_locked", "call", "path",
     "cgroup_rstat_flush_locked", [],
     ["cgroup_rstat_flush_locked/cpu"],
     "entry and return; its CPUs are the cpu row"),
    ("cgroup_rstat_flush_locked", "cpu", "loop",
     "cgroup_rstat_flush_locked", "line:kernel/cgroup/rstat.c:194", [],
     "one possible CPU with nothing updated: lock the per-CPU lock, pop "
     "nothing, unlock, cond_resched check"),
    ("cgroup_rstat_flush_locked", "cgroup", "loop",
     "cgroup_rstat_flush_locked", "line:kernel/cgroup/rstat.c:364", [],
     "one updated cgroup popped on a CPU: cgroup_base_stat_flush() "
     "(inlined) and the css_rstat_flush call of each subsystem"),
    ("mem_cgroup_css_rstat_flush", "call", "path",
     "mem_cgroup_css_rstat_flush", [],
     ["mem_cgroup_css_rstat_flush/state_item",
      "mem_cgroup_css_rstat_flush/event_item",
      "mem_cgroup_css_rstat_flush/lruvec_item"],
     "one (memcg, CPU) callback, entry, the three loops' set-up and exits"),
    ("mem_cgroup_css_rstat_flush", "state_item", "loop",
     "mem_cgroup_css_rstat_flush", "line:mm/memcontrol.c:5519", [],
     "one MEMCG_NR_STAT item with no delta (the continue)"),
    ("mem_cgroup_css_rstat_flush", "event_item", "loop",
     "mem_cgroup_css_rstat_flush", "line:mm/memcontrol.c:5545", [],
     "one NR_VM_EVENT_ITEMS item with no delta"),
    ("mem_cgroup_css_rstat_flush", "lruvec_item", "loop",
     "mem_cgroup_css_rstat_flush", "line:mm/memcontrol.c:5576", [],
     "one NR_VM_NODE_STAT_ITEMS item of one node with no delta"),
    ("queued_spin_lock_slowpath", "call", "path",
     "native_queued_spin_lock_slowpath", [], [],
     "the pending-bit path with the lock free at once; the spinning "
     "itself is the wait the model charges as time, not instructions"),
    # -- kmem and objects
    ("__memcg_kmem_charge_page", "call", "path", "__memcg_kmem_charge_page",
     ["call:try_charge_memcg"], [],
     "get_obj_cgroup_from_current(), obj_cgroup_charge_pages() (inlined: "
     "try_charge_memcg() is a call, memcg_account_kmem), page->memcg_data"),
    ("__memcg_kmem_uncharge_page", "call", "path",
     "__memcg_kmem_uncharge_page", ["call:obj_cgroup_uncharge_pages"], [],
     "the page's objcg, obj_cgroup_uncharge_pages() (a call), "
     "obj_cgroup_put"),
    ("obj_cgroup_uncharge_pages", "call", "path", "obj_cgroup_uncharge_pages",
     ["call:refill_stock"], [],
     "memcg_account_kmem(-n), refill_stock(), css_put"),
    ("__get_obj_cgroup_from_memcg", "call", "path",
     "__get_obj_cgroup_from_memcg", [], [],
     "the memcg's objcg, obj_cgroup_tryget() succeeds at once"),
    ("get_obj_cgroup_from_current", "call", "path",
     "get_obj_cgroup_from_current", ["call:__get_obj_cgroup_from_memcg"],
     [],
     "current's memcg (not root), its objcg, obj_cgroup_tryget: the "
     "memcg lookup and percpu reference of a __GFP_ACCOUNT allocation"),
    ("obj_cgroup_charge", "call", "path", "obj_cgroup_charge", [],
     ["consume_obj_stock/call"],
     "consume_obj_stock() (inlined) serves the charge"),
    ("consume_obj_stock", "call", "inline", "obj_cgroup_charge",
     "consume_obj_stock", [], "inlined in obj_cgroup_charge: stock hit"),
    ("obj_cgroup_uncharge", "call", "path", "obj_cgroup_uncharge", [], [],
     "refill_obj_stock() is a call"),
    ("refill_obj_stock", "call", "path", "refill_obj_stock", [], [],
     "the stock caches this objcg, nr_bytes stays under PAGE_SIZE"),
    ("drain_obj_stock", "call", "path", "drain_obj_stock",
     ["call:__refill_stock"], [],
     "whole pages back: memcg_account_kmem(-n) and __refill_stock() (v6.1 "
     "inlines obj_cgroup_uncharge_pages here)"),
    ("memcg_kmem_get_cache", "call", "sum", None,
     [("get_obj_cgroup_from_current/call", 1),
      ("__get_obj_cgroup_from_memcg/call", 1)], [],
     "SIM: v4.8's memcg_kmem_get_cache()/memcg_kmem_put_cache() (the "
     "memcg of current, css_tryget, the per-memcg cache lookup, css_put) "
     "is gone; its nearest v6.1 equivalent, the objcg of current and its "
     "reference taken per __GFP_ACCOUNT slab allocation, is counted"),
    # -- sockets
    ("mem_cgroup_charge_skmem", "call", "path", "mem_cgroup_charge_skmem",
     ["call:try_charge_memcg"], [],
     "cgroup v2: try_charge() with GFP_NOWAIT succeeds, MEMCG_SOCK"),
    ("mem_cgroup_uncharge_skmem", "call", "path",
     "mem_cgroup_uncharge_skmem", [], [], "MEMCG_SOCK, refill_stock()"),
    ("mem_cgroup_under_socket_pressure", "level", "sum", None,
     [("try_charge_memcg/high_level", 1)], [],
     "SIM: inlined into the protocols' pressure checks, off the paths "
     "counted here; one level of its walk up the parents (a load, a "
     "test, css.parent) is taken as one level of try_charge_memcg's "
     "memory.high walk, the same three steps"),
    ("__sk_mem_raise_allocated", "call", "path", "__sk_mem_raise_allocated",
     ["call:mem_cgroup_charge_skmem"], [],
     "memcg charge succeeds, under the protocol's limits"),
    ("__sk_mem_raise_allocated", "nomemcg", "path",
     "__sk_mem_raise_allocated", [], [],
     "a socket without a memcg (the static key off): what a root-memcg "
     "baseline runs too"),
    ("__sk_mem_raise_allocated", "memcg", "sum", None,
     [("__sk_mem_raise_allocated/call", 1),
      ("__sk_mem_raise_allocated/nomemcg", -1)], [],
     "what a memcg socket adds to __sk_mem_raise_allocated(): the charge "
     "path minus the no-memcg path (the model charges only this; the rest "
     "is in work_ns, fitted on a baseline that runs it too)"),
    ("__sk_mem_schedule", "call", "path", "__sk_mem_schedule", [], [],
     "sk_forward_alloc += pages, __sk_mem_raise_allocated() a call (run "
     "with or without a memcg: part of work_ns, not charged by the model)"),
    ("__sk_mem_reduce_allocated", "call", "path", "__sk_mem_reduce_allocated",
     ["call:mem_cgroup_uncharge_skmem"], [],
     "mem_cgroup_uncharge_skmem() a call"),
    ("__sk_mem_reduce_allocated", "nomemcg", "path",
     "__sk_mem_reduce_allocated", [], [], "a socket without a memcg"),
    ("__sk_mem_reduce_allocated", "memcg", "sum", None,
     [("__sk_mem_reduce_allocated/call", 1),
      ("__sk_mem_reduce_allocated/nomemcg", -1)], [],
     "what a memcg socket adds: the uncharge path minus the no-memcg path"),
    # -- slab hooks (kmem_accounting: objects): 6.1's SLUB kmalloc() path
    ("memcg_slab_pre_alloc_hook", "call", "inline",
     "__kmem_cache_alloc_node",
     ("memcg_slab_pre_alloc_hook", ["call:get_obj_cgroup_from_current",
                                    "call:obj_cgroup_charge"]), [],
     "inlined in slab_alloc_node() (__kmem_cache_alloc_node, kmalloc()'s): "
     "obj_full_size(), the get_obj_cgroup_from_current() and "
     "obj_cgroup_charge() calls (their own rows), the charge succeeds"),
    ("memcg_slab_post_alloc_hook", "call", "path",
     "memcg_slab_post_alloc_hook", ["call:mod_objcg_state"], [],
     "one object, the slab's objcg vector there: obj_cgroup_get(), the "
     "vector's store, mod_objcg_state() a call, obj_cgroup_put(); SIM: "
     "v6.16's __memcg_slab_post_alloc_hook() (obj_cgroup_charge_account() "
     "a call) has no 6.1 code: this row stands for it"),
    ("memcg_slab_free_hook", "call", "inline", "__kmem_cache_free",
     ("memcg_slab_free_hook", ["call:obj_cgroup_uncharge",
                               "call:mod_objcg_state"]), [],
     "inlined in slab_free() (__kmem_cache_free, kfree()'s): the slab's "
     "objcg vector, obj_cgroup_uncharge() and mod_objcg_state() calls, "
     "obj_cgroup_put(); SIM: v6.16's __memcg_slab_free_hook() "
     "(refill_obj_stock() with the statistics) is taken as this path"),
    ("mod_objcg_state", "call", "path", "mod_objcg_state", [], [],
     "v6.0's (and 6.1's) stock path: the stock caches this objcg and "
     "node, the bytes stay under a page, no flush"),
    ("__account_obj_stock", "call", "sum", None,
     [("mod_objcg_state/call", 1), ("consume_obj_stock/call", -1)], [],
     "SIM: v6.16's __account_obj_stock() (the statistics batched in the "
     "stock, in the same pass as the charge or refill) is not in 6.1: "
     "6.1's mod_objcg_state() stock path less what it shares with the "
     "pass that calls it in v6.16 (the stock lock, the cached objcg test: "
     "a consume_obj_stock() hit's instructions)"),
    ("mod_objcg_mlstate", "call", "inline", "mod_objcg_state",
     ("mod_objcg_mlstate", ["call:mod_memcg_lruvec_state"]), [],
     "inlined in mod_objcg_state(): rcu_read_lock(), obj_cgroup_memcg(), "
     "mem_cgroup_lruvec(), the mod_memcg_lruvec_state() call; SIM: "
     "v5.13's mod_objcg_state() (mm/slab.h) is this, per object"),
    ("mod_memcg_lruvec_state", "call", "path", "mod_memcg_lruvec_state",
     [], [], "local_irq_save(), the __mod_memcg_lruvec_state() call, "
     "local_irq_restore() (the profile's irq_save_restore)"),
    # -- shmem: the page cache of a tmpfs file
    ("shmem_get_folio_gfp", "call", "path", "shmem_get_folio_gfp",
     ["call:shmem_alloc_and_acct_folio", "call:shmem_add_to_page_cache",
      "call:folio_add_lru"], [],
     "a hole (SGP_CACHE or SGP_FALLOC): __filemap_get_folio() finds "
     "nothing, shmem_alloc_and_acct_folio(), shmem_add_to_page_cache(), "
     "folio_add_lru(), all calls"),
    ("shmem_get_folio_gfp", "cached", "path", "shmem_get_folio_gfp",
     ["call:__filemap_get_folio"], [],
     "the page is in the cache: __filemap_get_folio() finds it"),
    ("shmem_add_to_page_cache", "call", "path", "shmem_add_to_page_cache",
     ["call:__mem_cgroup_charge", "call:__mod_lruvec_page_state#0",
      "call:__mod_lruvec_page_state#1"], [],
     "mem_cgroup_charge() a call, the xarray store under xa_lock_irq "
     "(xas_store() a call), NR_FILE_PAGES and NR_SHMEM "
     "(__mod_lruvec_page_state() calls)"),
    ("shmem_undo_range", "call", "path", "shmem_undo_range",
     ["call:find_lock_entries", "call:truncate_inode_folio#0",
      "call:__pagevec_release#0"], ["shmem_undo_range/folio"],
     "entry, one find_lock_entries() batch, its release, return; its "
     "folios are the folio row"),
    ("shmem_undo_range", "folio", "loop", "shmem_undo_range",
     "line:mm/shmem.c:951", [],
     "one folio of the batch: truncate_inode_folio() a call, "
     "folio_unlock()"),
    ("filemap_unaccount_folio", "call", "path", "filemap_unaccount_folio",
     ["call:__mod_lruvec_page_state#0", "call:__mod_lruvec_page_state#1"],
     [], "a shmem folio leaves the page cache: NR_FILE_PAGES and NR_SHMEM "
     "(calls), not mapped, no writeback accounting"),
    # -- the mm's locks
    ("down_read", "call", "path", "down_read", [], [],
     "the fast path: rwsem_read_trylock() succeeds, the reader owner"),
    ("up_read", "call", "path", "up_read", [], [],
     "the fast path: no waiter to wake"),
    ("down_write", "call", "path", "down_write", [], [],
     "the fast path: the cmpxchg succeeds, the owner"),
    ("up_write", "call", "path", "up_write", [], [],
     "the fast path: no waiter to wake"),
    ("down_read_trylock", "call", "path", "down_read_trylock", [], [],
     "success; SIM: v6.4's vma_start_read() (two mm_lock_seq reads around "
     "a down_read_trylock() of the VMA's lock) is not in 6.1: its "
     "down_read_trylock() is counted, the reads are the model's accesses"),
    # -- SCTP (a module in Debian's kernel: sctp.ko)
    ("sctp_set_owner_w", "call", "path", "sctp.ko:sctp_set_owner_w", [],
     [], "one chunk: association and key references, sk_wmem_queued, "
     "sk_mem_charge()"),
    ("sctp_wfree", "call", "path", "sctp.ko:sctp_wfree", [], [],
     "one chunk freed: sk_wmem_queued, sk_mem_uncharge(), "
     "sk_mem_reclaim()'s test (a reclaim is __sk_mem_reduce_allocated's "
     "rows), the shortest way through the write-space wake-up, "
     "sock_wfree() a tail call"),
    ("sctp_sock_rfree", "call", "path", "sctp.ko:sctp_sock_rfree", [], [],
     "one received skb freed: sk_rmem_alloc, sk_mem_uncharge(), "
     "sk_mem_reclaim()'s test (a reclaim is __sk_mem_reduce_allocated's "
     "rows)"),
    ("sctp_ulpevent_receive_data", "call", "path",
     "sctp.ko:sctp_ulpevent_receive_data", [], [],
     "sctp_ulpevent_set_owner() -> sctp_skb_set_owner_r() (inlined): "
     "the association's reference, sk_rmem_alloc, sk_mem_charge(), "
     "sctp_assoc_rwnd_decrease() a call"),
    # -- the fair class's wake-up placement (netperf sched: fair)
    ("select_task_rq_fair", "call", "path", "select_task_rq_fair",
     ["call:available_idle_cpu"], [],
     "a wake-up (SD_BALANCE_WAKE), the shortest path to "
     "select_idle_sibling()'s first available_idle_cpu() test, the "
     "target idle: no LLC scan (select_idle_cpu() not run)"),
    ("available_idle_cpu", "call", "path", "available_idle_cpu", [], [],
     "an idle CPU: idle_cpu() and vcpu_is_preempted()"),
    # -- memory.stat: v2 memory_stat_format(), v1 memcg_stat_show()
    ("memory_stat_format", "item", "loop", "memory_stat_format.constprop.0",
     "line:mm/memcontrol.c:1564", [],
     "one memory_stats[] line: memcg_page_state_output() and the "
     "seq_buf_printf() call"),
    ("memory_stat_format", "event", "loop", "memory_stat_format.constprop.0",
     "line:mm/memcontrol.c:1590", [],
     "one memcg_vm_event_stat[] line: memcg_events() and the "
     "seq_buf_printf() call"),
    ("memcg_page_state_local", "cpu", "loop", "memcg_page_state_local",
     "line:mm/memcontrol.c:754", [],
     "one possible CPU of the v1 local sum: x += per_cpu(...)"),
    ("seq_buf_printf", "call", "path", "seq_buf_printf", [], [],
     "va_start and the seq_buf_vprintf() call"),
    ("seq_buf_vprintf", "call", "path", "seq_buf_vprintf",
     ["call:vsnprintf"], [], "room left, vsnprintf() a call"),
    ("vsnprintf", "call", "path", "vsnprintf", [], [],
     "entry and exit of an empty format"),
    ("vsnprintf", "spec", "loop", "vsnprintf", "line:lib/vsprintf.c:2755",
     [], "one turn of the format loop"),
    ("format_decode", "call", "path", "format_decode", [], [],
     "the shortest decode (a literal run)"),
    ("string", "char", "loop", "string", "line:lib/vsprintf.c:646", [],
     "one character copied"),
    ("string", "call", "path", "string", [], ["string/char"],
     "entry and exit around the copy loop"),
    ("number", "call", "path", "number", ["call:put_dec"], [],
     "a decimal number: put_dec() a call, no padding"),
    ("put_dec", "call", "path", "put_dec", [], [],
     "a number below 10^8 (the shortest put_dec path)"),
    ("put_dec_trunc8", "call", "path", "put_dec_trunc8", [], [],
     "put_dec's tail call for the last 8 digits, the shortest path (a "
     "small number)"),
    ("memory_stat", "item", "sum", None,
     [("memory_stat_format/item", 1), ("seq_buf_printf/call", 1),
      ("seq_buf_vprintf/call", 1), ("vsnprintf/call", 1),
      ("vsnprintf/spec", 4), ("format_decode/call", 4),
      ("string/call", 1), ("string/char", 12), ("number/call", 1),
      ("put_dec/call", 1), ("put_dec_trunc8/call", 1)], [],
     "one printed line \"%s %llu\\n\": the item, seq_buf_printf -> "
     "seq_buf_vprintf -> vsnprintf with 4 format turns (%s, ' ', %llu, "
     "'\\n'), 4 format_decode, string() of a 12-character name (SIM: "
     "v6.1's 34 memory_stats[] names average 12.2 characters, with the 17 "
     "event names 11.7), number() with one put_dec and "
     "its put_dec_trunc8"),
]

# module name -> its debug object under /usr/lib/debug/lib/modules/RELEASE
MODULES = {"sctp.ko": "kernel/net/sctp/sctp.ko"}

RET_RE = re.compile(r"^(ret|retq)\b")
JMP_RE = re.compile(r"^jmp\b")
JCC_RE = re.compile(r"^j(?!mp)[a-z]+\b")
TARGET_RE = re.compile(r"\b([0-9a-f]+) <([^>+]+)(\+0x[0-9a-f]+)?>")
RELOC_RE = re.compile(r"^[0-9a-f]+:\s+R_X86_64_\w+\s+([^\s+-]+)")
NORETURN = ("__stack_chk_fail", "__ubsan", "panic", "BUG", "do_exit",
            "__warn_printk")


def sh(args):
    return subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout


class Insn:
    __slots__ = ("addr", "text", "mn", "target", "tname", "inl", "line")

    def __init__(self, addr, text, inl, line):
        self.addr = addr
        self.text = text
        self.mn = text.split()[0] if text else ""
        self.inl = inl  # names of the functions this came from, innermost 1st
        self.line = line  # "file:N" of the innermost location
        m = TARGET_RE.search(text)
        self.target = int(m.group(1), 16) if m else None
        self.tname = m.group(2) if m else None


def disassemble(vmlinux, start, size, cache={}):
    key = (vmlinux, start, size)
    if key in cache:
        return cache[key]
    module = vmlinux.endswith(".ko")
    out = sh(["objdump", "-d", "--no-show-raw-insn", "-l", "--inlines"] +
             (["-r"] if module else []) +
             ["--start-address=%#x" % start,
              "--stop-address=%#x" % (start + size), vmlinux])
    insns = []
    chain, line = [], ""
    fnhdr = None
    pending_chain = []
    for raw in out.splitlines():
        m = RELOC_RE.match(raw.strip()) if module else None
        if m:
            # a module's call or jump names its target in a relocation:
            # outside the function (a call, a tail call, the return
            # thunk); a relocation of data leaves the instruction as is
            if insns and insns[-1].mn in ("call", "jmp"):
                insns[-1].target, insns[-1].tname = -1, m.group(1)
            continue
        m = re.match(r"^([0-9a-f]{16}):\s+(.*)$" if not module else
                     r"^([0-9a-f]+):\s+(.*)$", raw.strip())
        if m:
            insns.append(Insn(int(m.group(1), 16), m.group(2).strip(),
                              list(pending_chain) or list(chain), line))
            chain, pending_chain = (list(pending_chain) or chain), []
            continue
        m = re.match(r"^([A-Za-z_][\w.]*)\(\):$", raw)
        if m:
            fnhdr = m.group(1)
            pending_chain = [fnhdr]
            continue
        m = re.match(r"^(?:inlined by )?\S*?(?:debian/build/build_amd64_none"
                     r"_amd64/)?(\S+):(\d+)(?: \(discriminator \d+\))?"
                     r"(?: \((\S+)\))?$", raw.strip())
        if m and ("/" in m.group(1) or m.group(1).endswith((".c", ".h"))):
            if not raw.strip().startswith("inlined by"):
                line = "%s:%s" % (m.group(1), m.group(2))
                if not pending_chain:
                    pending_chain = [fnhdr] if fnhdr else []
            elif m.group(3):
                if not pending_chain:
                    pending_chain = list(chain[:1])
                pending_chain.append(m.group(3))
    cache[key] = insns
    return insns


def cfg(insns, start, end):
    """successors of every instruction index; -1 is the exit"""
    idx = {i.addr: n for n, i in enumerate(insns)}
    succ = []
    for n, i in enumerate(insns):
        nxt = [n + 1] if n + 1 < len(insns) else []
        if RET_RE.match(i.mn) or i.mn in ("ud2", "int3"):
            succ.append([-1] if RET_RE.match(i.mn) else [])
        elif JMP_RE.match(i.mn):
            if i.target is None:  # indirect: a jump table or a tail call
                succ.append([-1])
            elif i.tname == "__x86_return_thunk" or \
                    not (start <= i.target < end):
                succ.append([-1])
            else:
                succ.append([idx[i.target]] if i.target in idx else [-1])
        elif JCC_RE.match(i.mn) and i.target is not None:
            t = [idx[i.target]] if i.target in idx else [-1]
            succ.append(nxt + t)
        elif i.mn == "call" and i.tname and i.tname.startswith(NORETURN):
            succ.append([])
        else:
            succ.append(nxt)
    return succ


def bfs(succ, src, dst_pred):
    """shortest path (list of indices) from src to a node satisfying
    dst_pred (an index or -1 for the exit)"""
    prev = {src: None}
    q = collections.deque([src])
    while q:
        n = q.popleft()
        if dst_pred(n):
            path = []
            while n is not None:
                path.append(n)
                n = prev[n]
            return path[::-1]
        if n == -1:
            continue
        for s in succ[n]:
            if s not in prev:
                prev[s] = n
                q.append(s)
    return None


def waypoint(insns, w):
    kind, _, arg = w.partition(":")
    if kind == "call":  # a call, or a tail call (jmp); NAME#K: the K-th
        arg, _, k = arg.partition("#")
        hits = [n for n, i in enumerate(insns)
                if i.mn in ("call", "jmp") and i.tname == arg]
        return set(hits[int(k):int(k) + 1] if k else hits)
    if kind == "line":
        return {n for n, i in enumerate(insns) if i.line == arg}
    raise SystemExit("bad waypoint " + w)


def shortest(insns, succ, via):
    path, cur = [], 0
    for w in via:
        targets = waypoint(insns, w)
        if not targets:
            raise SystemExit("waypoint %s not found in %s" % (w, insns[0].inl[:1]))
        p = bfs(succ, cur, lambda n: n in targets)
        if p is None:
            # Only a static key's patched jump leads there (a jump label
            # is a NOP in the file; its target is in __jump_table): the
            # path goes on from the waypoint, the jump itself is the NOP
            # already counted.
            p0 = bfs(succ, cur, lambda n: n == -1) or []
            nops = [k for k, n in enumerate(p0) if n >= 0 and
                    (insns[n].text.startswith("xchg   %ax,%ax") or
                     insns[n].mn.startswith("nop"))]
            if nops:
                p = p0[:nops[0] + 1] + [min(targets)]
            else:
                # a static_branch_likely() of a key off in the file is
                # a jmp around the code, patched to fall through when
                # the key is on (memcg_kmem_enabled()): the path goes on
                # from the instruction after the first such jmp that
                # leads there, the jmp counted as the patched NOP
                p = None
                for n in sorted(range(len(insns)),
                                key=lambda x: len(bfs(succ, cur,
                                                      lambda y: y == x)
                                                  or insns)):
                    if insns[n].mn != "jmp" or n + 1 >= len(insns):
                        continue
                    head = bfs(succ, cur, lambda y: y == n)
                    q = head and bfs(succ, n + 1, lambda x: x in targets)
                    if q:
                        p = head + q
                        break
                if p is None:
                    raise SystemExit("waypoint %s unreachable" % w)
        path += p[:-1]
        cur = p[-1]
    p = bfs(succ, cur, lambda n: n == -1)
    if p is None:
        raise SystemExit("no return")
    return path + p[:-1]


def loop_cycle(insns, succ, line):
    """the shortest cycle through an instruction of source line @line:
    its length and the set of its instructions"""
    best = None
    for n, i in enumerate(insns):
        if i.line != line:
            continue
        for s in succ[n]:
            if s < 0:
                continue
            p = bfs(succ, s, lambda x: x == n)
            if p and (best is None or len(p) < len(best)):
                best = p
    if best is None:
        raise SystemExit("no loop through " + line)
    return len(best), {insns[k].addr for k in best}


def c_tables(tsv):
    """rewrite insn.h's enum and insn.c's table from @tsv"""
    rows = [ln.rstrip("\n").split("\t") for ln in open(tsv)
            if not ln.startswith("#")]
    ids = ["INSN_" + r[0] + ("" if r[1] == "call" else "_" + r[1])
           for r in rows]
    enum = "".join("\t%s,\n" % i for i in ids)
    tab = "".join('\t[%s] = { "%s", "%s", %s },\n' % (i, r[0], r[1], r[2])
                  for i, r in zip(ids, rows))
    top = os.path.dirname(os.path.abspath(tsv))
    for name, body in (("insn.h", enum), ("insn.c", tab)):
        path = os.path.join(top, name)
        text = open(path).read()
        a = text.index("/* generated: tools/extract-insn-costs.py --c */\n")
        a = text.index("\n", a) + 1
        b = text.index("/* end generated */")
        open(path, "w").write(text[:a] + body + text[b:])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--c":
        c_tables(sys.argv[2])
        return
    vmlinux = sys.argv[1] if len(sys.argv) > 1 else \
        sorted(glob.glob("/usr/lib/debug/boot/vmlinux-6.1.*"))[-1]
    release = os.path.basename(vmlinux).replace("vmlinux-", "")
    # the modules holding modelled code (SCTP is a module in Debian's
    # kernel): their debug objects, which the same package installs
    modules = {m: os.path.join("/usr/lib/debug/lib/modules", release,
                               MODULES[m]) for m in MODULES}
    syms = {}
    for obj, prefix in [(vmlinux, "")] + [(modules[m], m + ":")
                                          for m in sorted(modules)]:
        for ln in sh(["nm", "-S", obj]).splitlines():
            f = ln.split()
            if len(f) == 4 and f[2] in "tT":
                syms.setdefault(prefix + f[3],
                                (int(f[0], 16), int(f[1], 16)))
    try:
        pkg = sh(["dpkg-query", "-S", vmlinux]).split(":")[0]
        ver = sh(["dpkg-query", "-W", "-f=${Version}", pkg])
    except (OSError, subprocess.CalledProcessError):
        pkg, ver = "unknown", "unknown"
    objv = sh(["objdump", "--version"]).splitlines()[0]
    raw, info, lines, loopline = {}, {}, {}, {}
    for fn, part, rule, sym, via, minus, note in ROWS:
        key = fn + "/" + part
        addr, calls = "", ""
        if rule == "sum":
            n = None
            rule_s = "sum " + " + ".join("%d x %s" % (c, k) for k, c in via)
        else:
            start, size = syms[sym]
            addr = "%#x+%#x" % (start, size)
            obj = modules[sym.partition(":")[0]] if ":" in sym else vmlinux
            insns = disassemble(obj, start, size)
            succ = cfg(insns, start, start + size)
            if rule == "loop":
                n, cyc = loop_cycle(insns, succ, via.partition(":")[2])
                loopline[key] = cyc
                rule_s = "loop at " + via.partition(":")[2]
            else:
                name, wps = "", via
                if rule == "inline":
                    name, wps = (via, []) if isinstance(via, str) else via
                path = shortest(insns, succ, wps)
                if rule == "inline":
                    n = sum(1 for k in path if name in insns[k].inl)
                    rule_s = "inlined %s on the shortest path of %s" % (
                        name, sym) + (" via " + ", ".join(wps) if wps else "")
                else:
                    n = len(path)
                    rule_s = "shortest path" + (
                        " via " + ", ".join(via) if via else "")
                lines[key] = {insns[k].addr for k in path}
                calls = ",".join(sorted({insns[k].tname for k in path
                                         if insns[k].mn in ("call", "jmp")
                                         and insns[k].target is not None
                                         and not (start <= insns[k].target
                                                  < start + size) and
                                         insns[k].tname and
                                         insns[k].tname not in ("__fentry__", "__x86_return_thunk")}))
        if minus:
            rule_s += " minus " + ", ".join(minus)
        raw[key] = n
        info[key] = (fn, part, sym or "", addr, rule_s, calls or "-", note,
                     via if rule == "sum" else None, minus)
    res = {}

    def final(key):
        if key not in res:
            v = info[key]
            if v[7] is not None:
                n = sum(final(k) * c for k, c in v[7])
            else:
                # a loop row counts only if this path ran its body: all
                # of the loop's cycle is on the path
                n = raw[key] - sum(final(k) for k in v[8]
                                   if loopline.get(k) is None or
                                   loopline[k] <= lines.get(key, set()))
            if n < 0:
                raise SystemExit("%s: negative count %d" % (key, n))
            res[key] = n
        return res[key]

    out = []
    for key, v in info.items():
        out.append((v[0], v[1], final(key)) + v[2:7])
    print("# SPDX-License-Identifier: GPL-2.0-only")
    print("# Instructions on the modelled paths of Linux %s, counted by "
          "tools/extract-insn-costs.py" % release)
    print("# package: %s %s" % (pkg, ver))
    print("# vmlinux: %s" % vmlinux)
    for m in sorted(modules):
        print("# module: %s (symbols %s:NAME, addresses in its .text)" %
              (modules[m], m))
    print("# tool: %s" % objv)
    print("# columns: fn part insns symbol address+size rule calls note")
    for r in out:
        print("\t".join(str(x) for x in r))


if __name__ == "__main__":
    main()
