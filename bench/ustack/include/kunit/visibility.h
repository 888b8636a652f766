/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_KUNIT_VISIBILITY_H
#define _USTACK_KUNIT_VISIBILITY_H

/* Built without CONFIG_KUNIT: nothing is exported for a test module. */
#define VISIBLE_IF_KUNIT	static
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif
