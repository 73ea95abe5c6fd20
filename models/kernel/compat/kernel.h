/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/compat/kernel.h - the kernel's constants and small helpers
 * that the models use under the kernel's names (include/linux/minmax.h,
 * include/linux/gfp_types.h, include/asm-generic/page.h, mm/internal.h,
 * include/linux/swap.h, include/linux/mmzone.h).
 *
 * Include it by path, "models/kernel/compat/kernel.h": the folder is not
 * on the include path, so nothing here can shadow a system <linux/...>
 * header.
 *
 * Layering: models/kernel/ primitive; includes only sim/util.h and libc.
 */
#ifndef MODELS_KERNEL_COMPAT_KERNEL_H
#define MODELS_KERNEL_COMPAT_KERNEL_H

#include <errno.h>	/* ENOMEM, EBUSY: Linux's values */

#include "sim/util.h"	/* ARRAY_SIZE() */

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)

/*
 * gfp flags the models look at. SIM: not the kernel's bit values, only
 * the distinctions the charge paths make.
 */
#define GFP_KERNEL 0x1u
#define GFP_NOWAIT 0x2u		/* may not reclaim: softirq context */
#define __GFP_NOFAIL 0x4u

/* mm/memcontrol.c, include/linux/swap.h, include/linux/mmzone.h */
#define MAX_RECLAIM_RETRIES 16
#define SWAP_CLUSTER_MAX 32
#define PAGE_ALLOC_COSTLY_ORDER 3

/*
 * min()/max() - as the kernel's, each argument evaluated once. SIM: the
 * kernel also refuses operands of different types at compile time; here
 * the usual conversions apply, so give both the same type.
 */
#define min(x, y)                                  \
	({                                         \
		__auto_type min_x_ = (x);          \
		__auto_type min_y_ = (y);          \
		min_x_ < min_y_ ? min_x_ : min_y_; \
	})
#define max(x, y)                                  \
	({                                         \
		__auto_type max_x_ = (x);          \
		__auto_type max_y_ = (y);          \
		max_x_ > max_y_ ? max_x_ : max_y_; \
	})

#endif /* MODELS_KERNEL_COMPAT_KERNEL_H */
