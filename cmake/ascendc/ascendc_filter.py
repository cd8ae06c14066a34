#!/usr/bin/env python3
"""Turns an Ascend C kernel source into host C++ for npusim (run by ascendc.cmake).

- kernel<<<blockDim, l2ctrl, stream>>>(args) becomes
  ::npusim::kernel::Launcher(kernel, "kernel", blockDim, l2ctrl, stream)(args)
- asm("trap") becomes ::npusim::kernel::trap() (an AI-core exception at run time)
- every __global__ kernel defined in the file gets an ACLRT_LAUNCH_KERNEL entry point
  (aclrtlaunch_<kernel>, declared in a generated aclrtlaunch_<kernel>.h) and an exported
  entry for aclrtBinaryGetFunction.
- every __aicore__/__global__ function counts its scalar work (ascendc_scalar.py), so that its
  loops and arithmetic cost time on the core's scalar unit.
- every file-scope __gm__ variable defined in the file is registered (NPUSIM_DEVICE_VAR), so that
  aclrtGetSymbolAddress and the symbol copies find it and kernels see its device value.
Comments, string and character literals are never rewritten. Line numbers are kept, so compiler
messages point at the original file.
"""
import argparse
import os
import re
import sys

from ascendc_scalar import matching as scalar_matching
from ascendc_scalar import scalar_edits


class FilterError(Exception):
    pass


def mask(src):
    """Returns src with comments and literal contents replaced by spaces (newlines kept)."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                raise FilterError("unterminated comment")
            blank(i, j + 2)
            i = j + 2
        elif c == "R" and src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.compile(r'R"([^()\\ ]{0,16})\(').match(src, i)
            if not m:
                raise FilterError("malformed raw string literal")
            end = src.find(")" + m.group(1) + '"', m.end())
            if end < 0:
                raise FilterError("unterminated raw string literal")
            blank(m.end(), end)
            i = end + len(m.group(1)) + 2
        elif c in "\"'":
            if c == "'" and i > 0 and src[i - 1].isalnum():  # digit separator 1'000
                i += 1
                continue
            j = i + 1
            while j < n and src[j] != c:
                if src[j] == "\\":
                    j += 1
                elif src[j] == "\n":
                    raise FilterError("unterminated literal")
                j += 1
            if j >= n:
                raise FilterError("unterminated literal")
            blank(i + 1, j)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def matching(masked, i, open_ch, close_ch):
    """Index of the bracket closing the one at masked[i]."""
    j = scalar_matching(masked, i, open_ch, close_ch)
    if j < 0:
        raise FilterError("unbalanced '%s'" % open_ch)
    return j


def split_top(text, angles=True):
    """Splits at commas outside brackets (and template angle brackets when `angles`)."""
    opening, closing = ("([{<", ")]}>") if angles else ("([{", ")]}")
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def line_of(src, pos):
    return src.count("\n", 0, pos) + 1


def find_launches(src, masked):
    """[(start, end, replacement)] for each <<<...>>> launch."""
    edits = []
    for m in re.finditer(r"<<<", masked):
        s = m.start()
        k = s
        while k > 0 and masked[k - 1] in " \t\n":
            k -= 1
        end = k  # a template kernel's arguments (kernel<float><<<...>>>) are part of its name
        if k > 0 and masked[k - 1] == ">":
            depth, t = 0, k - 1
            while t >= 0:
                depth += {">": 1, "<": -1}.get(masked[t], 0)
                if depth == 0:
                    break
                t -= 1
            end = t if t >= 0 else k
            while end > 0 and masked[end - 1] in " \t\n":
                end -= 1
        nm = re.search(r"(::)?[A-Za-z_]\w*(::[A-Za-z_]\w*)*$", masked[:end])
        if not nm:
            raise FilterError("line %d: '<<<' without a kernel name before it" % line_of(src, s))
        depth, j = 0, m.end()
        while j < len(masked):
            ch = masked[j]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif depth == 0 and masked.startswith(">>>", j):
                break
            j += 1
        else:
            raise FilterError("line %d: '<<<' without a closing '>>>'" % line_of(src, s))
        config = src[m.end() : j]
        if len(split_top(masked[m.end() : j], angles=False)) != 3:
            raise FilterError(
                "line %d: a launch takes <<<blockDim, l2ctrl, stream>>>, got <<<%s>>>" % (line_of(src, s), config.strip())
            )
        name = src[nm.start() : k]
        repl = '::npusim::kernel::Launcher(%s, "%s", %s)' % (name, src[nm.start() : end].split("::")[-1], config)
        edits.append((nm.start(), j + 3, repl))
    return edits


def find_traps(src, masked):
    edits = []
    for m in re.finditer(r"\b(?:asm|__asm__)\s*(?:volatile\s*|__volatile__\s*)?\(", masked):
        close = matching(masked, m.end() - 1, "(", ")")
        if src[m.end() : close].strip() in ('"trap"', '"trap;"'):
            edits.append((m.start(), close + 1, "::npusim::kernel::trap()"))
    return edits


KERNEL = re.compile(r"\b__global__\b(?:\s*(?:__aicore__|__global__|__vector__|inline|static)\b)*\s*void\s+([A-Za-z_]\w*)\s*\(")
KERNEL_AFTER = re.compile(r"\b__aicore__\s+__global__\s+void\s+([A-Za-z_]\w*)\s*\(")


def find_kernels(src, masked):
    """[(name, [param decls])] for each __global__ kernel defined (with a body) in the file."""
    kernels = []
    seen = set()
    for rx in (KERNEL, KERNEL_AFTER):
        for m in rx.finditer(masked):
            close = matching(masked, m.end() - 1, "(", ")")
            rest = masked[close + 1 :].lstrip()
            if not rest.startswith("{"):
                continue  # a declaration
            head = masked[max(0, m.start() - 200) : m.start()]
            if re.search(r"template\s*<[^;{}]*>\s*(extern\s*\"\s*\"\s*)?$", head):
                continue  # template kernels are launched with <<<>>> only
            name = m.group(1)
            if name in seen:
                continue
            seen.add(name)
            params = [p for p in split_top(src[m.end() : close]) if p not in ("", "void")]
            kernels.append((name, params))
    return kernels


def declarator_names(decl):
    """Names declared by a file-scope declaration (its initialisers dropped)."""
    names = []
    for k, part in enumerate(split_top(decl)):
        part = part.split("=")[0]
        part = re.split(r"[\[{]", part)[0].strip()
        ids = re.findall(r"[A-Za-z_]\w*", part)
        if ids:
            names.append(ids[-1] if k == 0 else ids[0])
    return names


def find_device_vars(masked):
    """Qualified names of the __gm__ variables defined at file scope (namespaces followed)."""
    found, scopes, stmt, i, n = [], [], "", 0, len(masked)
    while i < n:
        ch = masked[i]
        if ch == "{":
            ns = re.search(r"\bnamespace\s+([A-Za-z_][\w:]*)?\s*$", stmt)
            if ns or re.search(r"\bextern\s*\"\s*\"\s*$", stmt):
                scopes.append(ns.group(1) if ns and ns.group(1) else None)
                stmt, i = "", i + 1
                continue
            close = matching(masked, i, "{", "}")
            body_of_function = "(" in stmt
            stmt += masked[i : close + 1]
            i = close + 1
            if body_of_function:
                stmt = ""
            continue
        if ch == "}":
            if scopes:
                scopes.pop()
            stmt, i = "", i + 1
            continue
        if ch == ";":
            text = " ".join(stmt.split())
            if re.search(r"\b__gm__\b", text) and not re.match(r"(extern|typedef|using|template|static_assert)\b", text):
                decl = text.split("=")[0]
                # A constant never changes on the device (and sits in read-only memory): not registered.
                consts = [m.end() for m in re.finditer(r"\bconst\b", decl)]
                const = re.search(r"\bconstexpr\b", decl) or (consts and "*" not in decl[consts[-1] :])
                if "(" not in decl and not const:
                    prefix = "::".join(x for x in scopes if x)
                    for name in declarator_names(text):
                        found.append((prefix + "::" + name) if prefix else name)
            stmt, i = "", i + 1
            continue
        if ch == "#":  # a preprocessor line
            j = masked.find("\n", i)
            i = n if j < 0 else j
            continue
        stmt += ch
        i += 1
    return found


SCALAR_TYPES = re.compile(
    r"^(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:u?int(?:8|16|32|64)_t|int|long|long long|short|char|bool|float|double"
    r"|half|bfloat16_t|size_t|unsigned|signed)$"
)


def header_param(decl):
    """The aclrtlaunch_<kernel> parameter for a kernel parameter, as CANN generates it, and the
    argument the entry passes on: GM pointers become void*; a struct passed by value (a tiling
    struct) is taken by pointer to host memory and passed on as its value; scalars stay."""
    decl = decl.split("=")[0].strip()
    m = re.match(r"(.*?)([A-Za-z_]\w*)\s*$", decl, re.S)
    if not m or not m.group(1).strip():
        raise FilterError("cannot read kernel parameter '%s'" % decl)
    ctype, pname = " ".join(m.group(1).split()), m.group(2)
    if "*" in ctype or "&" in ctype or "__gm__" in ctype or "GM_ADDR" in ctype:
        return "void* " + pname, pname
    if SCALAR_TYPES.match(ctype):
        return ctype + " " + pname, pname
    return ctype + "* " + pname, "*" + pname


def generate(src, path):
    masked = mask(src)
    inserts = [(at, at, text) for at, text in scalar_edits(masked)]
    edits = sorted(find_launches(src, masked) + find_traps(src, masked) + inserts, key=lambda e: (e[0], e[1]))
    out, pos = [], 0
    for a, b, r in edits:
        if a < pos:
            raise FilterError("overlapping launch expressions at line %d" % line_of(src, a))
        out.append(src[pos:a])
        # Keep line numbers: the replacement stays on as many lines as the original.
        out.append(r.replace("\n", " ") + "\n" * src.count("\n", a, b))
        pos = b
    out.append(src[pos:])
    body = "".join(out)
    kernels = find_kernels(src, masked)
    text = '#include "npusim_ascendc_types.h"\n#include "npusim_kernel_launch.h"\n#include "npusim_scalar_tally.h"\n'
    text += '#line 1 "%s"\n' % path.replace("\\", "\\\\").replace('"', '\\"')
    text += body
    if not body.endswith("\n"):
        text += "\n"
    for k, var in enumerate(find_device_vars(masked)):
        text += "NPUSIM_DEVICE_VAR(%s, %d_%s);\n" % (var, k, var.replace("::", "_"))
    headers = {}
    for name, params in kernels:
        hp = [header_param(p) for p in params]
        # Struct parameters are declared, so the header stands alone (a plain struct name only).
        structs = sorted({d.split("*")[0].strip() for d, n in hp if n.startswith("*")})
        structs = [t for t in structs if re.fullmatch(r"[A-Za-z_]\w*", t)]
        sig = ", ".join(["uint32_t blockDim", "void* stream"] + [d for d, _ in hp])
        text += "NPUSIM_KERNEL_ENTRY(%s);\n" % name
        text += 'extern "C" uint32_t aclrtlaunch_%s(%s) {\n' % (name, sig)
        text += '  return ::npusim::kernel::Launcher(%s, "%s", blockDim, nullptr, stream)(%s);\n}\n' % (
            name,
            name,
            ", ".join(n for _, n in hp),
        )
        guard = "HEADER_ACLRTLAUNCH_%s_H" % name.upper()
        headers[name] = (
            "#ifndef %s\n#define %s\n// Generated by npusim's ascendc_library from %s.\n"
            "#include <cstdint>\n#include \"acl/acl_base.h\"\n\n%s"
            'extern "C" uint32_t aclrtlaunch_%s(%s);\n\n'
            "#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n"
            "#endif\n" % (
                guard,
                guard,
                os.path.basename(path),
                "".join("struct %s;\n" % t for t in structs) + ("\n" if structs else ""),
                name,
                sig.replace("void* stream", "aclrtStream stream"),
            )
        )
    return text, headers


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("--out", required=True, help="generated C++ file")
    ap.add_argument("--header-dir", required=True, help="where aclrtlaunch_<kernel>.h go")
    a = ap.parse_args(argv)
    try:
        with open(a.source, encoding="utf-8") as f:
            src = f.read()
        text, headers = generate(src, os.path.abspath(a.source))
    except (OSError, UnicodeDecodeError, FilterError) as e:
        sys.stderr.write("ascendc_filter: %s: %s\n" % (a.source, e))
        return 1
    os.makedirs(a.header_dir, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    write_if_changed(a.out, text)
    for name, h in headers.items():
        write_if_changed(os.path.join(a.header_dir, "aclrtlaunch_%s.h" % name), h)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
