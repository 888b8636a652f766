/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_UNALIGNED_H
#define _USTACK_LINUX_UNALIGNED_H

/* For jhash() in the kernel's jhash.h, which the map does not call. */
#define get_unaligned(ptr)						\
({									\
	__typeof__(*(ptr)) __v;						\
	__builtin_memcpy(&__v, (ptr), sizeof(__v));			\
	__v;								\
})

#endif
