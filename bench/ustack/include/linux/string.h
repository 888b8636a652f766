/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_STRING_H
#define _USTACK_LINUX_STRING_H

#include <linux/compiler.h>
#include <string.h>

/*
 * memcpy() as the x86_64 kernel runs it on a CPU with FSRM (fast short
 * rep movsb), arch/x86/lib/memcpy_64.S: rep movsb. The C library's would
 * copy with vector registers, which the kernel does not use. TSan must see
 * the copy, so it gets the library's, which it intercepts.
 */
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
static __always_inline void *ustack_memcpy(void *to, const void *from, size_t len)
{
	void *ret = to;

	__asm__ __volatile__("rep movsb"
			     : "+D" (to), "+S" (from), "+c" (len)
			     : : "memory");
	return ret;
}
#define memcpy(to, from, len)	ustack_memcpy(to, from, len)
#endif

#endif
