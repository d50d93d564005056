#!/usr/bin/env python3
# synth-kernel.py [--os-release REL] [--kernel-name NAME] [--module NAME START LEN BUILDID]...
#                 OUT BUILDID
#                 TEXT ADDR[:CALLER...]...: a perf.data (file mode, one cpu-clock
# event, samples of IP, TID, TIME and PERIOD, and CALLCHAIN when some ADDR
# has callers: the chain is the kernel's, ADDR then its callers) recorded
# on a kernel whose build id is BUILDID (hex) and whose _text was at TEXT:
# the kernel's MMAP is "[kernel.kallsyms]_text" from TEXT with pgoff TEXT,
# as perf record writes it, and one kernel sample is taken at each ADDR.
# Each --module is a kernel MMAP named NAME (a .ko's path, or "[name]")
# from START, LEN long.  The BUILD_ID feature names the kernel and each
# module (the kernel as [kernel.kallsyms], or as --kernel-name says: perf
# record names it by the vmlinux it read); --os-release adds the OSRELEASE feature (perf looks for
# vmlinux-REL with it).  No machine has that kernel: this is how kernel
# images found by build id are tested.
import struct
import sys

args = sys.argv[1:]
osrel, modules, kname = None, [], '[kernel.kallsyms]'
while args and args[0].startswith('--'):
    if args[0] == '--os-release':
        osrel, args = args[1], args[2:]
    elif args[0] == '--kernel-name':
        kname, args = args[1], args[2:]
    elif args[0] == '--module':
        modules.append((args[1], int(args[2], 0), int(args[3], 0), args[4]))
        args = args[5:]
    else:
        sys.exit('synth-kernel.py: unknown option ' + args[0])
out, kbid, text = args[0], args[1], int(args[2], 0)
chains = [[int(a, 0) for a in arg.split(':')] for arg in args[3:]]
callchain = any(len(c) > 1 for c in chains)
PID = 4242
MISC_KERNEL = 1
FEAT_BUILD_ID, FEAT_OSRELEASE = 2, 4


def record(rtype, misc, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def cstr(s, align=8):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % align)


def build_id_entry(name, hexid):
    """perf's build_id_event: header, pid, id[20], size, pad[3], name (64-aligned)."""
    bid = bytes.fromhex(hexid)
    body = struct.pack('<i', -1) + bid + b'\0' * (20 - len(bid)) + bytes([len(bid)]) + b'\0' * 3
    body += cstr(name, 64)
    return struct.pack('<IHH', 0, MISC_KERNEL | (1 << 15), 8 + len(body)) + body


data = record(3, 0, struct.pack('<II', PID, PID) + cstr('synth'))				# COMM
data += record(1, MISC_KERNEL, struct.pack('<iiQQQ', -1, 0, text, (1 << 26), text) +
               cstr('[kernel.kallsyms]_text'))						# MMAP, kernel
for name, start, length, _ in modules:
    data += record(1, MISC_KERNEL, struct.pack('<iiQQQ', -1, 0, start, length, 0) + cstr(name))
for i, chain in enumerate(chains):
    body = struct.pack('<QIIQQ', chain[0], PID, PID, 1000 + i, 1)
    if callchain:
        body += struct.pack('<Q', 1 + len(chain)) + struct.pack('<q', -128)	# PERF_CONTEXT_KERNEL
        body += b''.join(struct.pack('<Q', a) for a in chain)
    data += record(9, MISC_KERNEL, body)						# SAMPLE
# perf_event_attr, 112 bytes (VER5): software cpu-clock, period 1, IP|TID|TIME|PERIOD.
attr = struct.pack('<IIQQQQQIIQQQQIiQIHH', 1, 112, 0, 1, 0x107 | (0x20 if callchain else 0), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
attrs = attr + struct.pack('<QQ', 0, 0)		# and its (empty) ids section
attr_off = 104
data_off = attr_off + len(attrs)
sections = [(FEAT_BUILD_ID, build_id_entry(kname, kbid) +
             b''.join(build_id_entry(m[0], m[3]) for m in modules))]
if osrel is not None:
    s = cstr(osrel, 64)
    sections.append((FEAT_OSRELEASE, struct.pack('<I', len(s)) + s))
feat = 0
for bit, _ in sections:
    feat |= 1 << bit
header = b'PERFILE2' + struct.pack('<QQ', 104, len(attrs))
header += struct.pack('<QQQQQQ', attr_off, len(attrs), data_off, len(data), 0, 0)
header += struct.pack('<Q', feat) + b'\0' * 24
# The feature table: one {offset, size} per feature, in bit order, then the sections.
pos = data_off + len(data) + 16 * len(sections)
table, body = b'', b''
for _, sec in sections:
    table += struct.pack('<QQ', pos + len(body), len(sec))
    body += sec
with open(out, 'wb') as f:
    f.write(header + attrs + data + table + body)
