"""Equality of JSON values as the conformance checks mean it.

Values that went through a client (or a server's parser) keep their
meaning but not always their spelling, so before comparing:

* integers compare exactly, as integers: a 64-bit value read through a
  double (2^63 - 1 becomes 2^63, 2^53 + 1 becomes 2^53) is a difference;
  a number with a fraction compares as the double it is (1.5 == 1.50), and
  an integer-valued double may come back without its `.0` (1.0 == 1);
  booleans are not numbers;
* strings that are RFC 3339 date-times compare as instants, to the
  microsecond ('2024-01-02T03:04:05.123456789+05:30' ==
  '2024-01-01T21:34:05.123457Z'): a client keeps a date-time as a Date,
  which holds about a tenth of a microsecond in this century; dropping the
  fraction, or keeping only milliseconds of it, is a difference;
* strings that are both UUIDs (8-4-4-4-12 hexadecimal digits) compare
  without regard to case, as RFC 9562 compares them: an app's own UUID
  type (a `format` override to Foundation's `UUID`) writes upper case;
* null and absent are different: a member sent as null must come back as
  null, and one left out must stay out;
* except that a member the sender left out may come back holding its
  schema's `default` (`defaults`: where, in the notation below, and what),
  which a client reads into its value; and, in a response, a member sent
  as null may come back absent (`null_members`): an app reading a response
  has one "no value" for both, so a generated type only responses carry
  reads null as nil and, encoded again for the driver's report, leaves nil
  out. A request is held to the difference both ways;
* and a member the harness added only to make a value match one branch of
  a oneOf, which that branch does not declare, may come back absent
  (`DROPPABLE` in `defaults`: a reader keeps its branch's members);
* otherwise objects compare member by member, exactly.

`differences(expected, actual, where)` lists [(location, rule)], the
location in the harness's notation: `body.line_items[0].price`.
"""
import datetime
import decimal
import re

_DATE_TIME = re.compile(r'^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?([Zz]|[+-]\d{2}:?\d{2})$')
# Two instants no further apart than this are the same (a Date holds about a
# tenth of a microsecond now; rounding and truncating differ by one).
INSTANT_TOLERANCE = datetime.timedelta(microseconds=1)
_UUID = re.compile(r'^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$')
# The largest integer a double holds exactly, and so the largest a JSON
# number without a fraction may be read as a double and compare equal.
EXACT_DOUBLE_INTEGER = 2 ** 53


def instant(text):
    """The UTC instant an RFC 3339 date-time string names (to the
    microsecond, rounded), or None."""
    if not isinstance(text, str):
        return None
    match = _DATE_TIME.match(text)
    if not match:
        return None
    day, hour, minute, second, fraction, offset = match.groups()
    try:
        base = datetime.datetime.fromisoformat(f'{day}T{hour}:{minute}:{second or "00"}')
    except ValueError:
        return None
    if fraction:
        micro = decimal.Decimal('0.' + fraction) * 1_000_000
        base += datetime.timedelta(microseconds=int(micro.to_integral_value(rounding=decimal.ROUND_HALF_EVEN)))
    if offset in ('Z', 'z'):
        delta = datetime.timedelta(0)
    else:
        sign = 1 if offset[0] == '+' else -1
        digits = offset[1:].replace(':', '')
        delta = sign * datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return (base - delta).replace(tzinfo=datetime.timezone.utc)


def _short(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + '...'


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def numbers_equal(expected, actual):
    """Whether two JSON numbers are the same number as the rules above read them."""
    if isinstance(expected, int) and isinstance(actual, int):
        return expected == actual
    if isinstance(expected, int) and abs(expected) > EXACT_DOUBLE_INTEGER:
        return False  # no double holds it: it came back through one
    if isinstance(actual, int) and abs(actual) > EXACT_DOUBLE_INTEGER:
        return False
    return float(expected) == float(actual)


_MISSING = object()
# In `defaults`: a member sent that may read back absent.
DROPPABLE = object()


def differences(expected, actual, where, defaults=None, null_members=None):
    """[(location, rule)] between two JSON values, [] when they are equal.
    `defaults` maps locations of members the sender left out to the
    default a reader may fill in, or of members sent that may read back
    absent to DROPPABLE; `null_members` holds locations of members of a
    response sent as null that may read back absent."""
    defaults = defaults or {}
    null_members = null_members or set()
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key, value in expected.items():
            location = f'{where}.{key}'
            if key not in actual:
                if value is None and location in null_members or defaults.get(location, _MISSING) is DROPPABLE:
                    continue
                found.append((location, 'missing' if value is not None else 'null sent, absent read'))
            elif value is None and actual[key] is not None:
                found.append((location, f'{_short(actual[key])} != expected null'))
            elif value is not None and actual[key] is None:
                found.append((location, 'null read where a value was sent'))
            else:
                found.extend(differences(value, actual[key], location, defaults, null_members))
        for key, value in actual.items():
            if key in expected:
                continue
            location = f'{where}.{key}'
            default = defaults.get(location, _MISSING)
            if default is not _MISSING and not differences(default, value, location):
                continue
            found.append((location, 'null read where the member was absent' if value is None else f'unexpected {_short(value)}'))
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [(where, f'{len(actual)} items, expected {len(expected)}')]
        found = []
        for index, (left, right) in enumerate(zip(expected, actual)):
            found.extend(differences(left, right, f'{where}[{index}]', defaults, null_members))
        return found
    if _is_number(expected) and _is_number(actual):
        return [] if numbers_equal(expected, actual) else [(where, f'{_short(actual)} != expected {_short(expected)}')]
    if isinstance(expected, str) and isinstance(actual, str):
        left, right = instant(expected), instant(actual)
        if left is not None and right is not None:
            return [] if abs(left - right) <= INSTANT_TOLERANCE else [(where, f'instant {actual} != expected {expected}')]
        if _UUID.match(expected) and _UUID.match(actual):
            return [] if expected.lower() == actual.lower() else [(where, f'uuid {actual} != expected {expected}')]
    if type(expected) is type(actual) and expected == actual:
        return []
    return [(where, f'{_short(actual)} != expected {_short(expected)}')]


def equal(expected, actual):
    return not differences(expected, actual, '')
