#!/usr/bin/env python3
# synth-samples.py OUT ELF BASE OFFSET...: a perf.data (file mode, one
# cpu-clock event, samples of IP, TID, TIME and PERIOD) in which one
# process maps ELF at BASE from file offset 0 and takes one sample at
# BASE + OFFSET for each OFFSET: where a recording would seldom land (a
# PLT entry, the end of a stretched symbol), every address can be asked.
import struct
import sys

out, elf, base = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
offsets = [int(a, 0) for a in sys.argv[4:]]
PID = 4242


def record(rtype, misc, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def cstr(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)


data = record(3, 0, struct.pack('<II', PID, PID) + cstr('synth'))			# COMM
data += record(1, 2, struct.pack('<IIQQQ', PID, PID, base, 1 << 24, 0) + cstr(elf))	# MMAP, user
for i, off in enumerate(offsets):
    data += record(9, 2, struct.pack('<QIIQQ', base + off, PID, PID, 1000 + i, 1))	# SAMPLE
# perf_event_attr, 112 bytes (VER5): software cpu-clock, period 1, IP|TID|TIME|PERIOD.
attr = struct.pack('<IIQQQQQIIQQQQIiQIHH', 1, 112, 0, 1, 0x107, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
attrs = attr + struct.pack('<QQ', 0, 0)		# and its (empty) ids section
attr_off = 104
data_off = attr_off + len(attrs)
header = b'PERFILE2' + struct.pack('<QQ', 104, len(attrs))
header += struct.pack('<QQQQQQ', attr_off, len(attrs), data_off, len(data), 0, 0) + b'\0' * 32
with open(out, 'wb') as f:
    f.write(header + attrs + data)
