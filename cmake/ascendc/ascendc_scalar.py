"""Counts the scalar work of Ascend C kernel functions (used by ascendc_filter.py).

On the device a kernel's loops, address arithmetic and control flow run on the core's scalar
unit; on the host they run natively. So that they cost simulated time without being
interpreted, every block of every __aicore__/__global__ function body gets a count of the
scalar operations written directly in it, added each time the block runs:

    __aicore__ void f() {          ->  { ::npusim::kernel::ScalarTally npusimTally_(<ops>);
        for (...; i < n; ++i) {    ->      { npusimTally_.n += <ops of the body + i < n, ++i, branch>;

An operation is an arithmetic, comparison, logical or assignment operator, a subscript or a
call; a loop iteration adds its condition, its increment and one branch. Both arms of a branch
written without braces count where they stand. The count is of the source, not of machine code,
so it is deterministic and the same at every optimisation level. Inserted text never adds a
line, so compiler messages keep pointing at the original lines.
"""
import re

TALLY = "npusimTally_"
FUNCTION_MARK = re.compile(r"\b(?:__aicore__|__global__)\b")
KEYWORDS = {
    "if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype", "catch", "static_assert",
    "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "noexcept", "do", "else", "case",
}
PREPROCESSOR = re.compile(r"^[ \t]*#.*$", re.M)
NUMBER = re.compile(r"(?<![\w.])\.?\d(?:[eEpP][+-]|[\w.])*")
TEMPLATE_ARGS = re.compile(r"\b([A-Za-z_]\w*)\s*<[\w\s:,*]*>")
OPERATOR = re.compile(
    r"->|::|<<=|>>=|\+\+|--|&&|\|\||<<|>>|<=|>=|==|!=|\+=|-=|\*=|/=|%=|&=|\|=|\^=|[-+*/%<>=!&|^?~\[]"
)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def count_ops(text):
    """Scalar operations written in `text` (masked source, nested blocks removed)."""
    text = PREPROCESSOR.sub("", text)
    text = NUMBER.sub("0", text)
    text = TEMPLATE_ARGS.sub(r"\1", text)
    ops = sum(1 for m in OPERATOR.finditer(text) if m.group(0) not in ("->", "::"))
    ops += sum(1 for m in CALL.finditer(text) if m.group(1) not in KEYWORDS)
    return ops


def matching(masked, i, open_ch, close_ch):
    """Index of the bracket closing the one at masked[i]; -1 when it is never closed."""
    depth = 0
    for j in range(i, len(masked)):
        if masked[j] == open_ch:
            depth += 1
        elif masked[j] == close_ch:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _word_before(masked, i):
    k = i
    while k > 0 and masked[k - 1].isspace():
        k -= 1
    m = re.search(r"[A-Za-z_]\w*$", masked[:k])
    return (m.group(0), m.start()) if m else ("", k)


def _header(masked, rparen):
    """For the ')' at `rparen`: (the word before its '(', the operations each loop iteration adds
    when that word is for/while, the '(' index)."""
    depth, j = 0, rparen
    while j >= 0:  # back to the matching '('
        if masked[j] == ")":
            depth += 1
        elif masked[j] == "(":
            depth -= 1
            if depth == 0:
                break
        j -= 1
    word, _ = _word_before(masked, j)
    inner = masked[j + 1 : rparen]
    if word == "for":
        parts = inner.split(";")
        return word, (count_ops(";".join(parts[1:])) if len(parts) == 3 else 0) + 1, j
    if word == "while":
        return word, count_ops(inner) + 1, j
    return word, 0, j


def _loop_header(masked, brace):
    """For a block opening at `brace`: (the keyword or word before it, per-iteration ops, the
    '(' of its parenthesised header or -1)."""
    k = brace
    while k > 0 and masked[k - 1].isspace():
        k -= 1
    if k == 0:
        return "", 0, -1
    if masked[k - 1] != ")":
        word, _ = _word_before(masked, brace)
        return word, 0, -1
    return _header(masked, k - 1)


# A switch body is not one: a statement before its first case label would never run, so its
# operations count once where the switch stands.
CONTROL = {"if", "else", "for", "while", "do", "try", "catch"}


def _is_statement_block(masked, brace):
    """A compound statement (not an initialiser, lambda, class body or function body)."""
    word, _, paren = _loop_header(masked, brace)
    if paren >= 0 or word in CONTROL:
        return word in CONTROL
    k = brace
    while k > 0 and masked[k - 1].isspace():
        k -= 1
    return k > 0 and masked[k - 1] in "{};:"


def _block_edits(masked, open_, close, first, extra, edits):
    """Inserts the count of the block masked[open_:close+1]; recurses into its statement blocks."""
    ops, seg_start, i = extra, open_ + 1, open_ + 1
    text = []
    while i < close:
        ch = masked[i]
        if ch == "{":
            j = matching(masked, i, "{", "}")
            if j < 0 or j > close:
                break
            text.append(masked[seg_start:i])
            if _is_statement_block(masked, i):
                word, per_iter, _ = _loop_header(masked, i)
                if word == "do":
                    m = re.match(r"\s*while\s*\(", masked[j + 1 :])
                    if m:
                        p = j + m.end()
                        per_iter = count_ops(masked[p + 1 : matching(masked, p, "(", ")")]) + 1
                _block_edits(masked, i, j, False, per_iter, edits)
            else:
                text.append(masked[i : j + 1])  # an initialiser or lambda: counted here
            i = seg_start = j + 1
            continue
        if ch == ")":
            _unbraced_loop_body(masked, i, close, edits)
        i += 1
    text.append(masked[seg_start:close])
    ops += count_ops("".join(text))
    if first:
        edits.append((open_ + 1, " ::npusim::kernel::ScalarTally %s(%d);" % (TALLY, ops)))
    elif ops:
        edits.append((open_ + 1, " %s.n += %d;" % (TALLY, ops)))


def _unbraced_loop_body(masked, rparen, limit, edits):
    """A for/while loop whose body is one simple statement: braces it with its count."""
    k = rparen + 1
    while k < limit and masked[k].isspace():
        k += 1
    if k >= limit or masked[k] in "{;":
        return  # a braced body, or the `while (...);` of a do loop
    if re.match(r"(for|while|if|do|switch|return|break|continue|goto)\b", masked[k:]):
        return
    word, per_iter, _ = _header(masked, rparen)
    if word not in ("for", "while"):
        return
    end, depth = k, 0
    while end < limit:
        c = masked[end]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "{":
            return  # a lambda or initialiser in the statement: left uncounted per iteration
        elif c == ";" and depth == 0:
            break
        end += 1
    if end >= limit:
        return
    ops = per_iter + count_ops(masked[k:end])
    edits.append((k, "{ %s.n += %d; " % (TALLY, ops)))
    edits.append((end + 1, " }"))


def function_bodies(masked):
    """(open, close) of the body of every __aicore__ / __global__ function defined in `masked`."""
    bodies, i = [], 0
    for m in FUNCTION_MARK.finditer(masked):
        if m.start() < i:
            continue  # inside a body already found
        line_start = masked.rfind("\n", 0, m.start()) + 1
        if masked[line_start:m.start()].lstrip().startswith("#"):
            continue  # a macro definition
        j = m.end()
        while j < len(masked) and masked[j] not in "(;{}":
            j += 1
        if j >= len(masked) or masked[j] != "(":
            continue
        close = matching(masked, j, "(", ")")
        if close < 0:
            continue
        after = re.match(r"(?:\s|const\b|noexcept\b|override\b|final\b|volatile\b|&)*", masked[close + 1 :])
        k = close + 1 + after.end()
        if k < len(masked) and masked[k] == "{":
            end = matching(masked, k, "{", "}")
            if end > 0:
                bodies.append((k, end))
                i = end
    return bodies


def scalar_edits(masked):
    """[(position, text)] insertions counting the scalar work of every kernel function."""
    edits = []
    for open_, close in function_bodies(masked):
        _block_edits(masked, open_, close, True, 0, edits)
    return edits
