#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: .
# Guest side of "./harness kunit": the KUnit suites ran at boot, before /init.
exit 0
