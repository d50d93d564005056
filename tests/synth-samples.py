#!/usr/bin/env python3
# synth-samples.py [--garbage-chains SEED | --mixed-chains SEED] [--branches SEED [--no-feature] [--no-cycles]] OUT ELF BASE OFFSET...:
# a perf.data (file mode, one cpu-clock event, samples of IP, TID, TIME
# and PERIOD) in which one process maps ELF at BASE from file offset 0
# and takes one sample at BASE + OFFSET for each OFFSET: where a recording
# would seldom land (a PLT entry, the end of a stretched symbol), every
# address can be asked.
#
# With --branches, each sample also has a branch stack (PERF_SAMPLE_BRANCH_STACK,
# branch_sample_type ANY, and the header's BRANCH_STACK feature, as perf
# record -b writes them): 1 to 8 branches between the OFFSETs, drawn from
# a generator seeded by SEED, with their flags (cycles, predicted or
# mispredicted, in a transaction, aborted), and now and then a branch from
# or to an address no map covers (0, or above the mapping).  A machine
# without LBR records none; this is how the branch view is tested.
# With --garbage-chains SEED, each sample also has a call chain (PERF_SAMPLE_CALLCHAIN):
# its ip, then two callers drawn (without replacement, shuffled by SEED) from
# addresses as frame-pointer garbage gives them, no map covering them and some
# 2^63 or more apart, each in one sample: entries of equal Children whose
# order only perf's trees decide.
# With --mixed-chains SEED, two processes map ELF (the second 16 GB below
# BASE) and each of 400 samples, in either of them, has a chain of its ip
# and one to three callers drawn by SEED from OFFSETs (in symbols) and from
# the ELF header (in the map, in no symbol): perf compares frames with
# symbols by symbol start and the others by address, which orders no three
# frames of two processes transitively, so that only its insertion tree's
# shape decides which chains merge.
# With --recorded-first ELF2 OFF2, the process also maps ELF2 (after ELF,
# past its mapping), each OFFSET's sample has a chain of its ip alone and
# is followed by one at OFF2 in ELF2: chains of equal share in two DSOs,
# which perf orders by the addresses of its DSO objects.  The header's
# BUILD_ID feature names ELF2 first, then ELF (as perf record lists the
# DSOs its samples hit, in the order it made them): perf makes those
# objects as it reads the header, before any mmap.
# --no-feature leaves the feature out (perf then shows its usual view
# unless asked -b); --no-cycles leaves every branch's cycles 0 (perf 6.1
# crashes on cycles when its IPC column is shown: --sort symbol_from...).
import random
import struct
import sys

args = sys.argv[1:]
branches, feature, cycles, garbage, mixed, second = None, False, True, None, None, None
if args and args[0] == '--garbage-chains':
    garbage = random.Random(int(args[1], 0))
    args = args[2:]
if args and args[0] == '--mixed-chains':
    mixed = random.Random(int(args[1], 0))
    args = args[2:]
if args and args[0] == '--recorded-first':
    second = (args[1], int(args[2], 0))
    args = args[3:]
if args and args[0] == '--branches':
    branches, feature = random.Random(int(args[1], 0)), True
    args = args[2:]
    while args and args[0] in ('--no-feature', '--no-cycles'):
        feature &= args[0] != '--no-feature'
        cycles &= args[0] != '--no-cycles'
        args = args[1:]
out, elf, base = args[0], args[1], int(args[2], 0)
offsets = [int(a, 0) for a in args[3:]]
PID = 4242
BRANCH_STACK = 1 << 11
FEAT_BRANCH_STACK = 15


def record(rtype, misc, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def cstr(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)


def branch_stack(rng):
    """A sample's branch stack: nr, then {from, to, flags} each."""
    def addr():
        r = rng.random()
        if r < 0.04:
            return 0
        if r < 0.08:
            return base + (1 << 24) + rng.choice(offsets)	# past the map: unknown
        return base + rng.choice(offsets)
    entries = []
    for _ in range(rng.randint(1, 8)):
        mispred = rng.random() < 0.2
        flags = (1 if mispred else 2 if rng.random() < 0.9 else 0)	# mispred, predicted (or neither)
        flags |= (rng.random() < 0.1) << 2				# in_tx
        flags |= (rng.random() < 0.05) << 3				# abort
        flags |= rng.choice((0, 0, 1, 2, 5, 17)) << 4 if cycles else 0	# cycles (16 bits)
        entries.append(struct.pack('<QQQ', addr(), addr(), flags))
    return struct.pack('<Q', len(entries)) + b''.join(entries)


CALLCHAIN = 1 << 5
GARBAGE = [0x2053ff107f8b48fb, 0x6972742064696c61, 0x6e6900612064696c, 0x6f7420656c62616e,
           0x756e696c2d34365f, 0x78c085378b002394, 0x90c3ff31f631d231, 0x000055803cfc98e0,
           0xdeadbeef12345678, 0x0000000000000040, 0xfffffffffffff000, 0x00007ffd72825a8f,
           0x8000000000000001, 0x7fffffffffffffff, 0x0000000000001000, 0xc0ffee0000000000]
if garbage:
    garbage.shuffle(GARBAGE)


def garbage_chain(i):
    """The call chain of sample i: the user context, its ip, two garbage callers."""
    callers = [GARBAGE[(2 * i) % len(GARBAGE)], GARBAGE[(2 * i + 1) % len(GARBAGE)]]
    chain = [0xfffffffffffffe00, base + offsets[i]] + callers
    return struct.pack('<Q', len(chain)) + b''.join(struct.pack('<Q', a) for a in chain)


NOSYM = [0x40, 0x78, 0xb0, 0x120, 0x1f8, 0x2c0, 0x338, 0x3a0]	# the ELF header's


def mixed_sample(i):
    """Sample i of --mixed-chains: its pid, ip and chain."""
    pid, where = mixed.choice(((PID, base), (PID + 1, base - (1 << 34))))
    ip = where + mixed.choice(offsets)
    callers = [where + mixed.choice(offsets + NOSYM) for _ in range(mixed.randint(1, 3))]
    chain = [0xfffffffffffffe00, ip] + callers
    return pid, ip, struct.pack('<Q', len(chain)) + b''.join(struct.pack('<Q', a) for a in chain)


def build_id(path):
    """The GNU build id of the ELF at path, from its PT_NOTE segments."""
    b = open(path, 'rb').read()
    phoff, = struct.unpack_from('<Q', b, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', b, 0x36)
    for i in range(phnum):
        ptype, _, off, _, _, size = struct.unpack_from('<IIQQQQ', b, phoff + i * phentsize)
        pos = off
        while ptype == 4 and pos + 12 <= off + size:
            namesz, descsz, ntype = struct.unpack_from('<III', b, pos)
            name = b[pos + 12:pos + 12 + namesz]
            desc = pos + 12 + (namesz + 3) // 4 * 4
            if ntype == 3 and name == b'GNU\0':
                return b[desc:desc + descsz]
            pos = desc + (descsz + 3) // 4 * 4
    sys.exit('no build id in ' + path)


def build_id_entry(path):
    """A BUILD_ID feature entry of the host (pid -1), user cpumode, with its id's size."""
    bid = build_id(path)
    body = struct.pack('<i', -1) + bid.ljust(20, b'\0') + struct.pack('<B3x', len(bid))
    name = path.encode() + b'\0'
    body += name + b'\0' * (-len(name) % 64)
    return struct.pack('<IHH', 0, 2 | (1 << 15), 8 + len(body)) + body


def sole_chain(ip):
    return struct.pack('<QQQ', 2, 0xfffffffffffffe00, ip)


BASE2 = base + (1 << 24)
sample_type = 0x107 | (BRANCH_STACK if branches else 0) | (CALLCHAIN if garbage or mixed or second else 0)
data = b''
for pid, where in ((PID, base), (PID + 1, base - (1 << 34))) if mixed else ((PID, base),):
    data += record(3, 0, struct.pack('<II', pid, pid) + cstr('synth'))			# COMM
    data += record(1, 2, struct.pack('<IIQQQ', pid, pid, where, 1 << 24, 0) + cstr(elf))	# MMAP, user
if second:
    data += record(1, 2, struct.pack('<IIQQQ', PID, PID, BASE2, 1 << 24, 0) + cstr(second[0]))
for i in range(400) if mixed else range(len(offsets)):
    if mixed:
        pid, ip, chain = mixed_sample(i)
        data += record(9, 2, struct.pack('<QIIQQ', ip, pid, pid, 1000 + i, 1) + chain)
        continue
    body = struct.pack('<QIIQQ', base + offsets[i], PID, PID, 1000 + i, 1)
    if garbage:
        body += garbage_chain(i)
    if second:
        body += sole_chain(base + offsets[i])
    if branches:
        body += branch_stack(branches)
    data += record(9, 2, body)							# SAMPLE
    if second:
        ip = BASE2 + second[1]
        data += record(9, 2, struct.pack('<QIIQQ', ip, PID, PID, 1000 + i, 1) + sole_chain(ip))
# perf_event_attr, 112 bytes (VER5): software cpu-clock, period 1, IP|TID|TIME|PERIOD
# (and BRANCH_STACK, branch_sample_type ANY).
attr = struct.pack('<IIQQQQQIIQQQQIiQIHH', 1, 112, 0, 1, sample_type, 0, 0, 0, 0, 0, 0,
                   8 if branches else 0, 0, 0, 0, 0, 0, 0, 0)
attrs = attr + struct.pack('<QQ', 0, 0)		# and its (empty) ids section
attr_off = 104
data_off = attr_off + len(attrs)
# The feature sections, by bit: BUILD_ID (2), then BRANCH_STACK (15), which is empty.
sections = []
if second:
    sections.append((2, build_id_entry(second[0]) + build_id_entry(elf)))
if feature:
    sections.append((FEAT_BRANCH_STACK, b''))
feat = sum(1 << bit for bit, _ in sections)
header = b'PERFILE2' + struct.pack('<QQ', 104, len(attrs))
header += struct.pack('<QQQQQQ', attr_off, len(attrs), data_off, len(data), 0, 0)
header += struct.pack('<Q', feat) + b'\0' * 24
table, bodies = b'', b''
pos = data_off + len(data) + 16 * len(sections)
for _, body in sections:
    table += struct.pack('<QQ', pos + len(bodies), len(body))
    bodies += body
with open(out, 'wb') as f:
    f.write(header + attrs + data + table + bodies)
