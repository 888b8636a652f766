# SPDX-License-Identifier: GPL-2.0
# Booting a kernel under QEMU (TCG) with the harness's busybox initramfs.

QEMU_TIMEOUT=${QEMU_TIMEOUT:-1500}

# The guest's scripts: the modes /init runs (harness.mode=), the parts they
# run and the library they source, the benchmark's; all in /guest/ of the
# initramfs.
GUEST_DIRS="guest/modes guest/parts guest/lib bench/guest"

# guest_mode MODE KEY: the "# harness-KEY: VALUE" header line of the guest
# script of MODE: "show", what boot shows of its output while it runs (an
# extended regular expression); "nmi", "yes" if it asks the host for NMIs.
guest_mode() {
	local d
	for d in $GUEST_DIRS; do
		[ -f "$TOP/$d/$1.sh" ] || continue
		sed -n "s/^# harness-$2: //p" "$TOP/$d/$1.sh"
		return 0
	done
	die "no guest script for the boot mode '$1' in $GUEST_DIRS"
}

# qemu_cmd: QEMU of the target (targets/T.sh), with no default devices.
qemu_cmd() {
	QEMU=("${TARGET_QEMU[0]}" -nodefaults -no-reboot -display none "${TARGET_QEMU[@]:1}")
}

# guest_program ROOT BIN [NAME]: a glibc program in the guest, with the
# shared libraries ldd finds, at the same paths. On a target with a userland
# of its own, the guest already has every library of it (guest_userland).
guest_program() {
	local r=$1 bin=$2 name=${3:-${2##*/}} lib
	install -D -m 755 "$bin" "$r/bin/$name"
	[ "$TARGET_USERLAND" = host ] || return 0
	for lib in $(ldd "$bin" | grep -oE '/[^ ]+\.so[^ ]*'); do
		[ -e "$r$lib" ] || install -D -m 755 "$lib" "$r$lib"
	done
}

# guest_userland ROOT: busybox (as ROOT/bin/busybox) and trace-cmd with its
# libraries and plugins: the machine's own, or the packages of the
# target's architecture (fetch_userland). The plugin folders are those
# the machine has: Debian 12's trace-cmd installs libtraceevent's plugins
# but no trace-cmd/ folder of its own.
guest_userland() {
	local r=$1 a lib
	if [ "$TARGET_USERLAND" = host ]; then
		cp /bin/busybox "$r/bin/busybox"
		guest_program "$r" "$(command -v trace-cmd)"
		lib=/usr/lib/$(gcc -print-multiarch)
		for a in "$lib/traceevent" "$lib/trace-cmd"; do
			if [ -d "$a" ]; then
				mkdir -p "$r$a"
				cp -a "$a/." "$r$a/"
			fi
		done
	else
		fetch_userland
		cp -a "$(userland_dir)/." "$r/"
		rm -f "$r/.done"
		ln -s /usr/bin/trace-cmd "$r/bin/trace-cmd"
	fi
}

# initramfs [-t TOOL] [-x DIR] SRC OUT [OBJ]: busybox, the guest scripts
# and SRC's ftracetest, trace-cmd, and the harness's modules built for the
# kernel in OBJ (build_modules) in /lib/modules/, for the target; the
# stackmap tool's binary TOOL as /bin/stackmap; what one command needs
# more, as the folder DIR holds it (copied over the root).
initramfs() {
	local tool= extra= opt OPTIND=1
	while getopts t:x: opt; do
		case $opt in
		t) tool=$OPTARG ;;
		x) extra=$OPTARG ;;
		*) die "initramfs: unknown option" ;;
		esac
	done
	shift $((OPTIND - 1))
	local src=$1 out=$2 obj=${3:-} r a
	r=$(mktemp -d)
	mkdir -p "$r"/{bin,dev,proc,sys,tmp,root,etc,guest}
	guest_userland "$r"
	# A real file, not a link: add_remove_uprobe.tc greps /proc/$$/maps for /bin/*sh.
	cp "$r/bin/busybox" "$r/bin/sh"
	for a in $(/bin/busybox --list); do
		[ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
	done
	# No network in the guest: without ping the ping cases are UNRESOLVED, not FAIL.
	rm -f "$r/bin/ping"
	ln -s bin "$r/sbin"
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$r/etc/passwd"
	printf 'root:x:0:\ntracing:x:1000:\n' >"$r/etc/group"
	cp -a "$src/tools/testing/selftests/ftrace" "$r/ftrace"
	for a in $GUEST_DIRS; do cp "$TOP/$a"/* "$r/guest/"; done
	[ -z "$tool" ] || guest_program "$r" "$tool" stackmap
	if [ -n "$obj" ] && ls "$obj"/harness-modules/*/*.ko >/dev/null 2>&1; then
		mkdir -p "$r/lib/modules"
		cp "$obj"/harness-modules/*/*.ko "$r/lib/modules/"
	fi
	[ -z "$extra" ] || cp -a "$extra/." "$r/"
	install -m 755 "$TOP/guest/init" "$r/init"
	(cd "$r" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out"
	rm -rf "$r"
}

# boot_shell TOOL [kernel args]: the patched kernel with an interactive
# busybox shell on the terminal (quit with Ctrl-a x).
boot_shell() {
	local tool=$1
	shift
	initramfs ${tool:+-t "$tool"} "$KT" "$RUN/initramfs.cpio.gz"
	qemu_cmd
	"${QEMU[@]}" -kernel "$OBJ/$TARGET_IMAGE" -initrd "$RUN/initramfs.cpio.gz" \
		-serial mon:stdio -append "console=$TARGET_CONSOLE harness.mode=shell $*"
}

# boot [-t TOOL] [-x DIR] [-q QEMU-ARG]... [-T SECONDS] MODE OBJ SRC
# [kernel args]: runs the guest script of MODE (GUEST_DIRS) in the kernel
# of OBJ with an initramfs of SRC (initramfs: -t, -x), QEMU-ARGs added to
# the target's QEMU line, killed after SECONDS (QEMU_TIMEOUT). The console
# goes to $RUN/MODE.console, what the guest script writes to its output
# device (harness.out=, TARGET_OUT) goes to $RUN/MODE.out. Fails on a
# missing end marker (panic, hang) or a non-zero exit of the guest script.
boot() {
	local ramfs=() more=() secs=$QEMU_TIMEOUT opt OPTIND=1
	while getopts t:x:q:T: opt; do
		case $opt in
		t | x) ramfs+=("-$opt" "$OPTARG") ;;
		q) more+=("$OPTARG") ;;
		T) secs=$OPTARG ;;
		*) die "boot: unknown option" ;;
		esac
	done
	shift $((OPTIND - 1))
	local mode=$1 obj=$2 src=$3
	shift 3
	local args="console=$TARGET_CONSOLE panic=-1 oops=panic harness.mode=$mode harness.out=$TARGET_OUT $*"
	mkdir -p "$RUN"
	local con=$RUN/$mode.console out=$RUN/$mode.out
	rm -f "$con" "$out"
	initramfs "${ramfs[@]}" "$src" "$RUN/initramfs.cpio.gz" "$obj"
	qemu_cmd
	say "booting $BASE ($mode) on $TARGET: ${TARGET_QEMU[*]}${more[*]:+ ${more[*]}}, timeout ${secs}s"
	local t0=$SECONDS rc=0 mon=() npid=
	# The stress runs get NMIs as the target says (TARGET_NMI): from the
	# host, through the QEMU monitor, while the guest asks for them
	# (lib/nmi.py), or from the guest's own sysrq-l.
	local nmi
	nmi=$(guest_mode "$mode" nmi)
	[ "$nmi" != yes ] || args="$args harness.nmi=$TARGET_NMI $TARGET_NMI_ARGS"
	if [ "$nmi" = yes ] && [ "$TARGET_NMI" = monitor ]; then
		rm -f "$RUN/$mode.mon"
		mon=(-monitor "unix:$RUN/$mode.mon,server=on,wait=off")
	fi
	timeout --foreground -k 10 "$secs" \
		"${QEMU[@]}" "${more[@]}" "${mon[@]}" -kernel "$obj/$TARGET_IMAGE" \
		-initrd "$RUN/initramfs.cpio.gz" \
		-chardev file,id=con,path="$con" -serial chardev:con \
		-chardev file,id=out,path="$out" "${TARGET_OUT_QEMU[@]}" \
		-append "$args" </dev/null >"$RUN/$mode.qemu" 2>&1 &
	local qpid=$!
	if [ ${#mon[@]} -gt 0 ]; then
		python3 "$TOP/lib/nmi.py" "$RUN/$mode.mon" "$out" >"$RUN/$mode.nmi" 2>&1 &
		npid=$!
	fi
	# Show the guest's own output while it runs.
	touch "$out"
	local show
	show=$(guest_mode "$mode" show)
	tail -n +1 -f --pid=$qpid "$out" 2>/dev/null | grep -a --line-buffered -E "$show" &
	local tpid=$!
	wait $qpid || rc=$?
	[ -z "$npid" ] || { wait "$npid" 2>/dev/null || true; cat "$RUN/$mode.nmi"; }
	sleep 0.5
	kill $tpid 2>/dev/null || true
	wait $tpid 2>/dev/null || true
	say "guest ran $((SECONDS - t0)) s"
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		tail -n 40 "$con" >&2
		echo "harness: FAIL: the guest hung: killed after ${secs}s (console tail above, full: ${con#"$TOP"/})" >&2
		return 1
	fi
	if [ $rc -ne 0 ]; then
		cat "$RUN/$mode.qemu" >&2
		echo "harness: FAIL: qemu exited with $rc" >&2
		return 1
	fi
	local end
	end=$(tr -d '\r' <"$out" | grep -a '^=== HARNESS EXIT' | tail -1 || true)
	if [ -z "$end" ]; then
		tail -n 40 "$con" >&2
		echo "harness: FAIL: the guest died before finishing (panic or crash; console tail above, full: ${con#"$TOP"/})" >&2
		return 1
	fi
	[ "$end" = "=== HARNESS EXIT 0" ] || {
		echo "harness: the guest script ended with: $end" >&2
		return 1
	}
}
