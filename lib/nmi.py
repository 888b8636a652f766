# SPDX-License-Identifier: GPL-2.0
"""Injects NMIs into a QEMU guest through its monitor socket while the
guest asks for them: between the lines "=== NMI ON" and "=== NMI OFF" of
the guest's output file. Usage: nmi.py MONITOR_SOCKET GUEST_OUTPUT [PERIOD].
Prints how many NMIs it injected."""
import socket
import sys
import time

mon, out = sys.argv[1], sys.argv[2]
period = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1

sock = None
for _ in range(600):
    try:
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(mon)
        break
    except OSError:
        sock = None
        time.sleep(0.5)
if sock is None:
    sys.exit(0)
sock.setblocking(False)


def drain():
    """Reads what the monitor printed, so that it never blocks on us."""
    try:
        while sock.recv(65536):
            pass
        return False            # the guest is gone
    except BlockingIOError:
        return True
    except OSError:
        return False


def state():
    try:
        with open(out, "rb") as f:
            text = f.read()
    except OSError:
        return None
    on, off = text.rfind(b"=== NMI ON"), text.rfind(b"=== NMI OFF")
    return on > off


sent = 0
while drain():
    if state():
        try:
            sock.sendall(b"nmi\n")
            sent += 1
        except BlockingIOError:
            pass
        except OSError:
            break
        time.sleep(period)
    else:
        time.sleep(0.5)
print(f"nmi: {sent} NMIs injected through the QEMU monitor")
