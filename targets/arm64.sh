# SPDX-License-Identifier: GPL-2.0
# Target arm64 (ARCH=arm64 ./harness ...): cross-compiled with Debian's
# gcc-aarch64-linux-gnu and booted on QEMU's virt machine under TCG, with
# Debian's arm64 busybox and trace-cmd. Its own unwinder (frame records),
# ftrace call-site patching and weak memory model.

TARGET_ORDER=2
TARGET_KARCH=arm64
TARGET_CROSS=aarch64-linux-gnu-
TARGET_IMAGE=arch/arm64/boot/Image
# pauth-impdef: QEMU's own pointer authentication, far cheaper under TCG
# than the architected algorithm and the same to the guest.
TARGET_QEMU=(qemu-system-aarch64 -M virt,gic-version=3 -cpu max,pauth-impdef=on -accel tcg -smp 2 -m 1024)
TARGET_CONSOLE=ttyAMA0
TARGET_OUT=hvc0
TARGET_OUT_QEMU=(-device virtio-serial-device -device virtconsole,chardev=out)
TARGET_USERLAND=arm64
TARGET_DEPS=(
	"gcc-aarch64-linux-gnu:command -v aarch64-linux-gnu-gcc"
	"libc6-dev-arm64-cross:test -f /usr/aarch64-linux-gnu/include/stdio.h"
	"qemu-system-arm:command -v qemu-system-aarch64"
)
# "./harness test" runs it on the mainline base, "./harness full" on all:
# plan_quick and plan_target of lib/plan.sh, the latter with the gates that
# build for the target.
TARGET_TEST_BASES=mainline
TARGET_TEST=quick
TARGET_FULL=target
TARGET_GATES="w1 bisect"
# Pseudo-NMIs (GICv3 interrupt priorities): the backtrace IPIs of sysrq-l
# arrive as NMIs. The sanitizer kernels, which run the stress, are built
# with them (TARGET_NMI_KCONFIG).
TARGET_NMI=sysrq
TARGET_NMI_ARGS=irqchip.gicv3_pseudo_nmi=1
TARGET_NMI_KCONFIG=CONFIG_ARM64_PSEUDO_NMI=y
# The benchmark's disk: on virtio-mmio, as the console, not on PCI.
TARGET_BLK=virtio-blk-device
# The kernel config of this target, after config/common.config: the
# virt machine's PL011 console and the virtio-mmio console of the guest's
# results.
TARGET_KCONFIG="
CONFIG_SERIAL_AMBA_PL011=y
CONFIG_SERIAL_AMBA_PL011_CONSOLE=y
CONFIG_VIRTIO_MENU=y
CONFIG_VIRTIO_MMIO=y
CONFIG_VIRTIO_CONSOLE=y
"
