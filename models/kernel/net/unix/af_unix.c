// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of net/unix/af_unix.c's SOCK_STREAM send and receive accounting
 * (unix_stream_sendmsg(), unix_stream_recvmsg()), Linux v4.8. Theory of
 * operation: see af_unix.h.
 */
#include "models/kernel/compat/kernel.h"
#include "models/kernel/net/unix/af_unix.h"
#include "models/kernel/sim/insn.h"

/* SKB_TRUESIZE of the head for a stream skb of page frags */
#define UNIX_SKB_HEAD_TRUESIZE 1280
/* SKB_MAX_ALLOC: unix_stream_sendmsg() puts more than this in frags */
#define UNIX_HEAD_MAX 3776 /* SKB_MAX_HEAD(0) at 4K pages */

/*
 * v4.8 unix_stream_sendmsg(): a send is cut into skbs of at most
 * min(sndbuf / 2 - 64, SKB_MAX_HEAD(0) + UNIX_SKB_FRAGS_SZ) bytes; an
 * skb's data_len is the page-aligned part above SKB_MAX_HEAD(0), and
 * alloc_skb_with_frags() takes it in the largest orders that fit, from
 * order 3 (PAGE_ALLOC_COSTLY_ORDER) down; UNIX_SNDBUF: af_unix.h.
 */
#define UNIX_SKB_FRAGS_SZ (PAGE_SIZE << 3)
#define UNIX_MAX_ORDER 3

/* The bytes of the next skb, with @remaining still to send. */
static unsigned int unix_skb_size(unsigned int remaining)
{
	unsigned int max = UNIX_SNDBUF / 2 - 64;

	if (max > UNIX_HEAD_MAX + UNIX_SKB_FRAGS_SZ)
		max = UNIX_HEAD_MAX + UNIX_SKB_FRAGS_SZ;
	return remaining < max ? remaining : max;
}

/* The order of the next fragment allocation for @npages still needed. */
static unsigned int unix_frag_order(unsigned int npages)
{
	unsigned int order = UNIX_MAX_ORDER;

	while (order && npages < (1u << order))
		order--;
	return order;
}

/* The data pages of an skb of @size bytes (its data_len, paged). */
static unsigned int unix_data_pages(unsigned int size)
{
	unsigned int data_len = size > UNIX_HEAD_MAX ? size - UNIX_HEAD_MAX : 0;

	data_len = (data_len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (data_len > size)
		data_len = size & ~(PAGE_SIZE - 1);
	return data_len >> PAGE_SHIFT;
}

int unix_stream_sendmsg(struct sim_proc *p, void *frame)
{
	struct unix_stream_sendmsg_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/*
	 * Per skb, sock_alloc_send_pskb() allocates the sk_buff and the
	 * head (slab objects: per-memcg caches, no page_counter work, before
	 * v5.9; the obj_cgroup stock after) and the fragment pages, each
	 * allocation charged with __GFP_ACCOUNT.
	 */
	for (f->sent = 0; f->sent < f->len; f->sent += f->size) {
		f->size = unix_skb_size((unsigned int)(f->len - f->sent));
		f->pages = unix_data_pages(f->size);
		/*
		 * v4.8: the sk_buff and its head come from
		 * memcg_kmem_get_cache()'s per-memcg caches, two lookups per
		 * skb (insn.h: SIM, its v6.1 stand-in).
		 */
		if (ms->k->kmem_accounting == KMEM_PAGES)
			insn_charge(co_cpu(p), INSN_memcg_kmem_get_cache, 2);
		if (ms->k->kmem_accounting == KMEM_OBJECTS)
			CO_CALL(f, p, obj_cgroup_charge,
				.objcg = &f->memcg->objcg,
				.size = UNIX_SKB_HEAD_TRUESIZE +
					(f->size - (f->pages << PAGE_SHIFT)));
		while (f->pages && ms->k->kmem_accounting != KMEM_OFF) {
			f->frag = 1u << unix_frag_order(f->pages);
			f->pages -= f->frag;
			CO_CALL(f, p, memcg_kmem_charge_page, .memcg = f->memcg,
				.nr_pages = f->frag, .gfp = GFP_KERNEL);
		}
	}
	CO_END(f, p);
}

int unix_stream_recvmsg(struct sim_proc *p, void *frame)
{
	struct unix_stream_recvmsg_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/* each skb consumed: consume_skb() */
	for (f->copied = 0; f->copied < f->len; f->copied += f->size) {
		f->size = unix_skb_size((unsigned int)(f->len - f->copied));
		f->pages = unix_data_pages(f->size);
		while (f->pages && ms->k->kmem_accounting != KMEM_OFF) {
			f->frag = 1u << unix_frag_order(f->pages);
			f->pages -= f->frag;
			CO_CALL(f, p, memcg_kmem_uncharge_page,
				.memcg = f->memcg, .nr_pages = f->frag);
		}
		if (ms->k->kmem_accounting == KMEM_OBJECTS)
			CO_CALL(f, p, obj_cgroup_uncharge,
				.objcg = &f->memcg->objcg,
				.size = UNIX_SKB_HEAD_TRUESIZE +
					(f->size - (unix_data_pages(f->size)
						    << PAGE_SHIFT)));
	}
	CO_END(f, p);
}
