#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Prove from an x86_64 object file that no call to a forbidden function is
reachable from a start function while a static key is disabled.

usage: fastpath-check.py OBJ START KEY[,KEY...] FORBIDDEN_REGEX

The walk follows the disassembly (objdump -dr) from START through direct
calls and jumps to code of OBJ, across sections (.text.unlikely,
.altinstr_aux, ...) through their relocations.  At a jump-label site of a
KEY (from __jump_table's relocations) it takes only the successor the site
has while that KEY is disabled; every other jump-label site has both
successors.  Every KEY must have a site on the walked path.
Alternative replacements and exception fixups are successors too.  Anything
it cannot decide adds reachability, so a false PASS needs a missed edge.

Prints PASS or FAIL with the reason; exits 1 on FAIL.
"""
import bisect
import collections
import re
import subprocess
import sys

# Prefixes objdump prints before a mnemonic.
PREFIXES = {"bnd", "notrack", "cs", "ds", "es", "ss", "fs", "gs", "lock",
            "rep", "repz", "repe", "repnz", "repne", "data16", "addr32"}
RETURNS = {"ret", "retq", "retl", "iret", "iretq", "iretl", "sysret",
           "sysretq", "eret", "sysexit", "retf", "lret", "lretq"}
# Thunks that end a block like an indirect jump or a return.
THUNK = re.compile(r"^__x86_(indirect_thunk|indirect_jump_thunk|return_thunk)")


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Obj:
    """Sections, symbols, relocations and instructions of one .o file."""

    def __init__(self, path):
        self.path = path
        self.sections = {}        # name -> (index, size, executable)
        self.secname = {}         # index -> name
        for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+"
                             r"[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([A-Za-z]*)",
                             run("readelf", "-SW", path), re.M):
            idx, name, size, flags = m.groups()
            if name in self.sections and "X" in flags:
                fail(f"{path}: two code sections named {name}")
            self.sections[name] = (int(idx), int(size, 16), "X" in flags)
            self.secname[int(idx)] = name
        self.symbols = {}         # name -> (section or None, value, type)
        self.funcs = collections.defaultdict(list)  # section -> [(value, name)]
        for line in run("readelf", "-sW", path).splitlines():
            f = line.split()
            if len(f) < 8 or not f[0][:-1].isdigit() or f[3] == "SECTION":
                continue
            value, typ, ndx, name = int(f[1], 16), f[3], f[6], f[7]
            sec = self.secname.get(int(ndx)) if ndx.isdigit() else None
            self.symbols.setdefault(name, (sec, value, typ))
            if typ == "FUNC" and sec:
                self.funcs[sec].append((value, name))
        for v in self.funcs.values():
            v.sort()
        self.relocs = self._relocs()
        self._disassemble()

    def _relocs(self):
        """section -> {offset: (type, symbol, addend)} from readelf -rW."""
        out = collections.defaultdict(dict)
        sec = None
        for line in run("readelf", "-rW", self.path).splitlines():
            m = re.match(r"Relocation section '\.rela(.*)'", line)
            if m:
                sec = m.group(1)
                continue
            m = re.match(r"([0-9a-f]+)\s+[0-9a-f]+\s+(R_\S+)\s+[0-9a-f]+\s+"
                         r"(\S+)\s*([+-])\s*([0-9a-f]+)$", line)
            if m and sec:
                off, typ, sym, sign, add = m.groups()
                out[sec][int(off, 16)] = (typ, sym,
                                          int(add, 16) * (-1 if sign == "-" else 1))
        return out

    def _disassemble(self):
        """insns: (section, addr) -> [mnemonic, operands, reloc, next]."""
        self.insns = {}
        self.order = collections.defaultdict(list)
        sec = last = None
        for line in run("objdump", "-dr", "--no-show-raw-insn",
                        self.path).splitlines():
            m = re.match(r"Disassembly of section (\S+):", line)
            if m:
                sec, last = m.group(1), None
                continue
            m = re.match(r"\s+([0-9a-f]+): (R_X86_64_\S+)\s+(\S+)$", line)
            if m and last is not None:
                # The relocation of the instruction just printed.
                off = int(m.group(1), 16)
                self.insns[(sec, last)][2] = (off,) + self.relocs[sec][off]
                continue
            m = re.match(r"\s+([0-9a-f]+):\t(.*)$", line)
            if m and sec:
                addr = int(m.group(1), 16)
                words = m.group(2).split()
                while words and words[0] in PREFIXES:
                    words.pop(0)
                if not words:
                    continue
                self.insns[(sec, addr)] = [words[0], " ".join(words[1:]),
                                           None, None]
                self.order[sec].append(addr)
                last = addr
        for sec, addrs in self.order.items():
            ends = addrs[1:] + [self.sections[sec][1]]
            for a, n in zip(addrs, ends):
                self.insns[(sec, a)][3] = n

    def resolve(self, sym, addend):
        """(section, offset) of sym + addend, or None if sym is external."""
        if sym in self.sections:
            return sym, addend
        sec, value, _ = self.symbols.get(sym, (None, 0, None))
        return (sec, value + addend) if sec else None

    def func_at(self, sec, addr):
        """Name+offset of the function holding sec:addr."""
        v = self.funcs.get(sec, [])
        i = bisect.bisect_right(v, (addr, "\x7f")) - 1
        if i < 0:
            return f"{sec}+{addr:#x}"
        return v[i][1] + (f"+{addr - v[i][0]:#x}" if addr != v[i][0] else "")

    def func_start(self, sec, addr):
        return any(v == addr for v, _ in self.funcs.get(sec, []))

    def table(self, sec, stride, fields):
        """Relocated fields of each entry of a table section, resolved."""
        relocs = self.relocs.get(sec, {})
        if sec not in self.sections:
            return []
        size = self.sections[sec][1]
        if size % stride:
            fail(f"{sec}: size {size} is not a multiple of {stride}: "
                 "its layout changed, update fastpath-check.py")
        rows = []
        for base in range(0, size, stride):
            row = []
            for f in fields:
                r = relocs.get(base + f)
                if r is None:
                    fail(f"{sec}: entry at {base:#x} has no relocation at "
                         f"+{f}: its layout changed, update fastpath-check.py")
                row.append(r)
            rows.append((base, row))
        return rows

    def section_bytes(self, sec):
        data = ""
        for line in run("readelf", "-x", sec, self.path).splitlines():
            m = re.match(r"\s+0x[0-9a-f]+ ((?:[0-9a-f]{2,8} ){1,4})", line)
            if m:
                data += m.group(1).replace(" ", "")
        return bytes.fromhex(data)


def jump_sites(obj, key):
    """Jump-label sites: (sec, code) -> (target, key name, branch bit).

    x86_64 has CONFIG_HAVE_ARCH_JUMP_LABEL_RELATIVE: struct jump_entry is
    s32 code, s32 target, long key (16 bytes), each relative to itself; a
    key field of 4 bytes (PC32) means 12-byte entries.  The key's low two
    bits are flags: bit 0 is the branch bit, so with the key disabled the
    site jumps to its target iff that bit is set (jump_label_type() is
    enabled ^ branch); bit 1 is the init/objtool NOP hint.
    """
    relocs = obj.relocs.get("__jump_table", {})
    keytypes = {relocs[o][0] for o in relocs if o % 16 == 8}
    stride = 16 if keytypes == {"R_X86_64_PC64"} else 12
    sites = {}
    for base, (code, target, keyf) in obj.table("__jump_table", stride,
                                                (0, 4, 8)):
        at, to = obj.resolve(*code[1:]), obj.resolve(*target[1:])
        ksec_off = obj.resolve(keyf[1], keyf[2] & ~3)
        name = keyf[1]
        if keyf[1] in obj.sections and ksec_off:
            # A local key is named by its section: find the object there.
            for n, (s, v, t) in obj.symbols.items():
                if s == ksec_off[0] and v == ksec_off[1] and t == "OBJECT":
                    name = n
        sites[at] = (to, name, keyf[2] & 1)
    return sites


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, start, key, forbidden = sys.argv[1:]
    forbidden = re.compile(forbidden)
    keys = key.split(",")
    obj = Obj(path)

    for k in keys:
        if k not in obj.symbols:
            fail(f"{path} has no symbol {k}: the tree has no such "
                 "fault-around key, so there is no fast path to check")
    if start not in obj.symbols or not obj.symbols[start][0]:
        fail(f"{path} does not define {start}")

    sites = jump_sites(obj, key)
    ours = {a for a, s in sites.items() if s[1] in keys}
    for k in keys:
        if not any(s[1] == k for s in sites.values()):
            fail(f"no jump-label site of {k} in {path}: the static-branch "
                 "test of the key is gone (or the key is tested another "
                 "way)")
    for a in sites:
        if a not in obj.insns:
            fail(f"jump-label site {a[0]}+{a[1]:#x} is not an instruction")

    # Alternatives (struct alt_instr, packed: s32 instr_offset, s32
    # repl_offset, u32 ft_flags, u8 instrlen, u8 replacementlen): the
    # replacement may run instead of the original instruction.
    extra = collections.defaultdict(list)
    repl_end = {}   # replacement insn -> where its last insn falls through
    alt = obj.table(".altinstructions", 14, (0, 4))
    raw = obj.section_bytes(".altinstructions") if alt else b""
    for base, (orig, repl) in alt:
        o, r = obj.resolve(*orig[1:]), obj.resolve(*repl[1:])
        ilen, rlen = raw[base + 12], raw[base + 13]
        end = (o[0], o[1] + ilen)
        extra[o].append((r if rlen else end, "alternative"))
        for a in obj.order.get(r[0], []):
            if r[1] <= a < r[1] + rlen and obj.insns[(r[0], a)][3] >= r[1] + rlen:
                repl_end[(r[0], a)] = end
    # Exception fixups (s32 insn, s32 fixup, s32 data).
    for _, (insn, fixup) in obj.table("__ex_table", 12, (0, 4)):
        extra[obj.resolve(*insn[1:])].append(
            (obj.resolve(*fixup[1:]), "exception fixup"))
    # Code that data sections point to: the targets of a jump table.
    data_code = collections.defaultdict(list)
    for sec, rel in obj.relocs.items():
        if sec in obj.sections and not obj.sections[sec][2]:
            for _, sym, add in rel.values():
                t = obj.resolve(sym, add)
                if t and t[0] in obj.sections and obj.sections[t[0]][2]:
                    data_code[sec].append(t)

    entry = obj.resolve(start, 0)
    parent = {entry: None}
    queue = collections.deque([entry])
    walked, found, ours_seen = [], [], set()

    def visit(node, frm, how):
        if not node or node in parent or node[0] not in obj.sections:
            return
        if node not in obj.insns:
            if node[1] >= obj.sections[node[0]][1]:
                return      # past the end of its section: nothing there
            # A lost edge could hide a call: refuse to guess.
            fail(f"{how} at {obj.func_at(*frm)} goes to {node[0]}+"
                 f"{node[1]:#x}, which is not an instruction")
        parent[node] = (frm, how)
        queue.append(node)

    def branch_target(node, ins):
        """Where a direct jmp/jcc/call goes: (section, offset), the symbol
        name, or None for an indirect one."""
        _, ops, rel, nxt = ins
        if ops.startswith("*"):
            return None, None
        if rel:
            off, typ, sym, add = rel
            # PC-relative: target = S + A - P + (end of the instruction).
            t = obj.resolve(sym, add + nxt - off)
            if sym not in obj.sections:
                return t, sym
            return t, t and obj.func_at(*t)
        m = re.match(r"([0-9a-f]+) <", ops)
        if not m:
            return None, None
        t = (node[0], int(m.group(1), 16))
        return t, obj.func_at(*t)

    while queue:
        node = queue.popleft()
        sec, addr = node
        fn = re.sub(r"\+0x[0-9a-f]+$", "", obj.func_at(sec, addr))
        if fn not in walked:
            walked.append(fn)
        mnem, ops, rel, nxt = obj.insns[node]
        fall = repl_end.get(node, (sec, nxt))
        if fall == (sec, nxt) and obj.func_start(sec, nxt):
            fall = None     # compiled C never falls into the next function
        for t, how in extra.get(node, []):
            visit(t, node, how)

        if node in sites:
            to, name, branch = sites[node]
            if name in keys:
                ours_seen.add(node)
                visit(to if branch else fall, node, f"{name} off")
            else:
                visit(to, node, f"{name} on")
                visit(fall, node, f"{name} off")
            continue
        if mnem in RETURNS:
            continue
        if mnem.startswith("call") or mnem.startswith("jmp"):
            t, name = branch_target(node, obj.insns[node])
            callee = name and re.sub(r"\+0x[0-9a-f]+$", "", name)
            if callee and forbidden.match(callee):
                found.append((node, callee))
                continue
            if mnem.startswith("call"):
                if t and obj.func_start(*t):
                    visit(t, node, f"call {callee}")
                visit(fall, node, "return")
            elif callee and THUNK.match(callee):
                pass
            elif t:
                tail = obj.func_start(*t) and t != node
                visit(t, node, f"tail call {callee}" if tail else "jmp")
            elif rel and ops.startswith("*") and rel[2] in obj.sections:
                # jmp *table(,%reg,8): a switch; every code address the
                # table's section names is a possible target.
                for c in data_code.get(rel[2], []):
                    visit(c, node, "jump table")
            continue
        if re.match(r"j[a-z]+$", mnem) or mnem.startswith("loop"):
            t, _ = branch_target(node, obj.insns[node])
            visit(t, node, "taken")
            visit(fall, node, "not taken")
            continue
        # ud2, int3 and the rest: fall through (it only adds reachability).
        visit(fall, node, "next")

    if found:
        for node, callee in found:
            path, n = [], node
            while parent[n]:
                frm, how = parent[n]
                if how.startswith(("call", "tail call")) or how.endswith(" off"):
                    path.append(f"{obj.func_at(*frm)} ({how})")
                n = frm
            path.reverse()
            print(f"FAIL: call to {callee} reachable from {start} with {key} "
                  f"disabled, at {obj.func_at(*node)} ({node[0]}+{node[1]:#x})")
            print("  path: " + " -> ".join([start] + path +
                                          [obj.func_at(*node)]))
        sys.exit(1)
    for k in keys:
        if not any(sites[n][1] == k for n in ours_seen):
            fail(f"jump-label site(s) of {k}, but none on the path from "
                 f"{start}: the hook is not where the check looks")
    print(f"PASS: no call matching {forbidden.pattern} reachable from {start} "
          f"with {key} disabled; {len(ours)} jump-label site(s) of {key}, "
          f"{len(ours_seen)} on the path; {len(parent)} instructions walked")
    print("  functions walked: " + " ".join(walked))


if __name__ == "__main__":
    main()
