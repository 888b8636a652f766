/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_LIMITS_H
#define _USTACK_LINUX_LIMITS_H

/* The uapi header first: the C library's <limits.h> includes this name. */
#include_next <linux/limits.h>
#include <limits.h>
#include <linux/types.h>

#define U8_MAX			((u8)~0U)
#define U16_MAX			((u16)~0U)
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)

#endif
