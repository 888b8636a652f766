# SPDX-License-Identifier: GPL-2.0
# Target x86_64: the default architecture (ARCH=x86_64 ./harness ...). One
# file per target architecture, read by use_target in lib/common.sh, as
# bases/ holds one per base: adding an architecture is one more such file,
# in the spirit of tools/testing/kunit/qemu_configs/*.py.

# The order of "test" and "full": the first target is the default one.
TARGET_ORDER=1
# make ARCH= and CROSS_COMPILE=; the image make builds and QEMU boots.
TARGET_KARCH=x86_64
TARGET_CROSS=
TARGET_IMAGE=arch/x86/boot/bzImage
# QEMU under TCG. Multi-threaded TCG (the default with -smp 2) crashes the
# guest with "Oops: int3" while ftrace patches code: the vCPUs take turns.
TARGET_QEMU=(qemu-system-x86_64 -bios /usr/share/qemu/qboot.rom -accel tcg,thread=single -smp 2 -m 1024)
# The console, and the device of the guest scripts' results, with the QEMU
# arguments that add the latter (chardev "out").
TARGET_CONSOLE=ttyS0
TARGET_OUT=ttyS1
TARGET_OUT_QEMU=(-serial chardev:out)
# Where the guest's busybox, trace-cmd and its libraries come from: "host"
# (the machine's own packages) or a Debian architecture, whose packages
# are fetched into a private apt state (lib/fetch.sh, guest_userland).
TARGET_USERLAND=host
# Debian packages the target needs on the host ("package:check").
TARGET_DEPS=(
	"qemu-system-x86:command -v qemu-system-x86_64"
	"qemu-system-data:test -f /usr/share/qemu/qboot.rom"
)
# The bases "./harness test" runs on this target: all, a list, or none (the
# target runs only when ARCH= names it: "test" on the mainline base, "full"
# on every base); and what it runs there: "all" (lib/plan.sh plan_test), or
# "quick" (plan_quick: the build, KUnit, test.d/stackmap and the
# command-line boot check).
TARGET_TEST_BASES=all
TARGET_TEST=all
TARGET_FULL=all
TARGET_GATES=
# How the stress runs get NMIs: "monitor" (the host injects them through
# the QEMU monitor, lib/nmi.py) or "sysrq" (the guest asks for a backtrace
# of every CPU, which the kernel sends as NMIs); the kernel arguments that
# turn them on, and the config the sanitizer kernels (VARIANT) need for them.
TARGET_NMI=monitor
TARGET_NMI_ARGS=
TARGET_NMI_KCONFIG=
# The benchmark's disk.
TARGET_BLK=virtio-blk-pci
# The benchmark's boots on the host's clock (CLOCK=host): the TSC at the
# host's rate (%KHZ%), trusted, as TCG cannot calibrate it.
TARGET_BENCH_HOST_ARGS="tsc_early_khz=%KHZ% tsc=reliable"
# The kernel config of this target, after config/common.config: its console
# and its unwinder.
TARGET_KCONFIG="
CONFIG_64BIT=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_UNWINDER_ORC=y
"
