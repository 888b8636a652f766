/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_TYPES_H
#define _USTACK_LINUX_TYPES_H

/*
 * The uapi header first (__u32, __le32, ...): the C library's own headers
 * include <linux/types.h> too, and find this one.
 */
#include_next <linux/types.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
typedef unsigned int gfp_t;

typedef struct {
	int counter;
} atomic_t;

#define BITS_PER_LONG __BITS_PER_LONG

#endif
