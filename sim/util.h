/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/util.h - the few helpers every layer uses, under the kernel's names
 * so that model code reads as the kernel does (include/linux/array_size.h,
 * include/linux/minmax.h).
 *
 * Layering: sim/ primitive; includes nothing from the tree.
 */
#ifndef SIM_UTIL_H
#define SIM_UTIL_H

/* ARRAY_SIZE() - the number of elements of an array (not a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* SIM_UTIL_H */
