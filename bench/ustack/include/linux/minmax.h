/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_MINMAX_H
#define _USTACK_LINUX_MINMAX_H

#define min_t(type, x, y)	({ type __x = (x); type __y = (y); __x < __y ? __x : __y; })
#define max_t(type, x, y)	({ type __x = (x); type __y = (y); __x > __y ? __x : __y; })

#endif
