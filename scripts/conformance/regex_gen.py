"""Strings that match a regular expression, deterministically.

The synthesizer needs a value for every `pattern` a spec writes. This walks
the parse tree of Python's own regular expression parser and draws each
choice (a branch, a repeat count, a character of a class) from the given
`random.Random`, so the same seed always gives the same string. It only
emits printable ASCII, which keeps the values safe in headers, cookies and
paths. Look-arounds and anchors are skipped; callers check the result with
`re.search` and try another seed when it does not match.
"""
import re
import string

try:  # Python 3.11+
    from re import _constants as C, _parser as parser
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants as C
    import sre_parse as parser

PRINTABLE = [c for c in string.ascii_letters + string.digits + '-_.~']
CATEGORIES = {
    C.CATEGORY_DIGIT: string.digits,
    C.CATEGORY_NOT_DIGIT: string.ascii_letters,
    C.CATEGORY_WORD: string.ascii_letters + string.digits + '_',
    C.CATEGORY_NOT_WORD: '-.~',
    C.CATEGORY_SPACE: ' ',
    C.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
}
# The longest run a `*` or `+` produces beyond its minimum.
EXTRA_REPEATS = 3


def _class_members(items):
    """The characters a `[...]` class allows, from printable ASCII."""
    negate = False
    allowed = set()
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            allowed.add(chr(av))
        elif op is C.RANGE:
            lo, hi = av
            allowed.update(chr(c) for c in range(lo, min(hi, 0x7e) + 1) if 0x20 <= c <= 0x7e)
        elif op is C.CATEGORY:
            allowed.update(CATEGORIES.get(av, ''))
    if negate:
        universe = set(string.ascii_letters + string.digits + '-_.~ ')
        return sorted(universe - allowed)
    return sorted(allowed)


def _emit(tree, rng, out, groups, extra=EXTRA_REPEATS, greedy=False):
    for op, av in tree:
        if op is C.LITERAL:
            out.append(chr(av))
        elif op is C.NOT_LITERAL:
            out.append(rng.choice([c for c in PRINTABLE if ord(c) != av]))
        elif op is C.ANY:
            out.append(rng.choice(string.ascii_letters))
        elif op is C.IN:
            members = _class_members(av)
            out.append(rng.choice(members) if members else 'a')
        elif op is C.CATEGORY:
            out.append(rng.choice(CATEGORIES.get(av, 'a')))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT) or getattr(C, 'POSSESSIVE_REPEAT', None) is op:
            lo, hi, sub = av
            top = lo + extra if hi is C.MAXREPEAT else min(hi, lo + extra)
            count = max(top, lo) if greedy else rng.randint(max(lo, min(1, top)), max(top, lo))
            for _ in range(count):
                _emit(sub, rng, out, groups, extra, greedy)
        elif op is C.BRANCH:
            _, branches = av
            _emit(rng.choice(branches), rng, out, groups, extra, greedy)
        elif op is C.SUBPATTERN:
            group, _, _, sub = av
            start = len(out)
            _emit(sub, rng, out, groups, extra, greedy)
            if group is not None:
                groups[group] = ''.join(out[start:])
        elif op is C.GROUPREF:
            out.append(groups.get(av, ''))
        elif getattr(C, 'ATOMIC_GROUP', None) is op:
            _emit(av, rng, out, groups, extra, greedy)
        # AT (anchors), ASSERT and ASSERT_NOT (look-arounds) emit nothing.


def matching_string(pattern, rng, min_length=0, max_length=None, attempts=20, long=False):
    """A string `re.search(pattern, s)` accepts with a length in bounds, or
    None when none was found in `attempts` draws (or Python cannot read the
    pattern). Later draws repeat `*` and `+` more, to reach a minLength."""
    try:
        compiled = re.compile(pattern)
        tree = parser.parse(pattern)
    except (re.error, OverflowError, RecursionError):
        return None
    for attempt in range(attempts):
        out = []
        greedy = long or attempt >= attempts // 2
        extra = max(EXTRA_REPEATS, min_length - 1 - attempt % 8) if greedy else EXTRA_REPEATS
        _emit(tree, rng, out, {}, extra, greedy)
        candidate = ''.join(out)
        if len(candidate) < min_length and not pattern.endswith('$'):
            candidate += 'a' * (min_length - len(candidate))
        if max_length is not None and len(candidate) > max_length:
            continue
        if len(candidate) >= min_length and compiled.search(candidate):
            return candidate
    return None
