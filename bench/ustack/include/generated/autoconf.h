/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration the map is built with, read by the kernel's own
 * include/linux/kconfig.h (IS_ENABLED()): an x86_64 SMP kernel with the
 * stack map, without its KUnit suite, so that trace_stackmap.c builds as
 * a production kernel builds it.
 */
#define CONFIG_64BIT 1
#define CONFIG_X86_64 1
#define CONFIG_SMP 1
#define CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG 1
#define CONFIG_FTRACE_STACKMAP 1
