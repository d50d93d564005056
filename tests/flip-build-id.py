#!/usr/bin/env python3
# flip-build-id.py FILE NAME: change one byte (the first) of the build id
# the BUILD_ID feature of perf.data FILE (file mode) gives for NAME, e.g.
# [kernel.kallsyms] or [vdso], in place: the file then looks recorded on
# another machine.  The feature table follows the data section, one
# {offset, size} per feature bit set, in bit order; BUILD_ID is bit 2,
# its entries {header, pid, id[20], size, pad[3], name} end to end.
import struct
import sys

path, name = sys.argv[1], sys.argv[2].encode()
with open(path, 'r+b') as f:
    head = f.read(104)
    if len(head) < 104 or head[:8] != b'PERFILE2':
        sys.exit('%s: not a perf.data file' % path)
    data_off, data_size = struct.unpack_from('<QQ', head, 40)
    feats = int.from_bytes(head[72:104], 'little')
    if not feats & (1 << 2):
        sys.exit('%s: no BUILD_ID feature' % path)
    f.seek(data_off + data_size + 16 * bin(feats & 3).count('1'))
    off, size = struct.unpack('<QQ', f.read(16))
    f.seek(off)
    sec = f.read(size)
    pos = 0
    while pos + 36 <= len(sec):
        rsize = struct.unpack_from('<H', sec, pos + 6)[0]
        if rsize < 36:
            break
        if sec[pos + 36:pos + rsize].split(b'\0')[0] == name:
            f.seek(off + pos + 12)
            f.write(bytes([sec[pos + 12] ^ 0xff]))
            sys.exit(0)
        pos += rsize
    sys.exit('%s: no build id for %s' % (path, name.decode()))
