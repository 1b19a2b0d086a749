"""Equality of JSON values as the conformance checks mean it.

Values that went through a client (or a server's parser) keep their
meaning but not always their spelling, so before comparing:

* numbers compare numerically (1 == 1.0; booleans are not numbers);
* strings that are RFC 3339 date-times compare as instants
  ('2024-01-02T03:04:05Z' == '2024-01-02T03:04:05.000+00:00');
* an object member whose value is null counts as absent;
* otherwise objects compare member by member, exactly: a member missing
  or extra on either side is a difference.

`differences(expected, actual, where)` lists [(location, rule)], the
location in the harness's notation: `body.line_items[0].price`.
"""
import datetime
import re

_DATE_TIME = re.compile(r'^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$')


def instant(text):
    """The UTC instant an RFC 3339 date-time string names, or None."""
    if not isinstance(text, str) or not _DATE_TIME.match(text):
        return None
    try:
        value = datetime.datetime.fromisoformat(text.replace('z', 'Z').replace('t', 'T'))
    except ValueError:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.astimezone(datetime.timezone.utc)


def _short(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + '...'


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def differences(expected, actual, where):
    """[(location, rule)] between two JSON values, [] when they are equal."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        left = {k: v for k, v in expected.items() if v is not None}
        right = {k: v for k, v in actual.items() if v is not None}
        for key in left:
            if key not in right:
                found.append((f'{where}.{key}', 'missing'))
            else:
                found.extend(differences(left[key], right[key], f'{where}.{key}'))
        for key in right:
            if key not in left:
                found.append((f'{where}.{key}', f'unexpected {_short(right[key])}'))
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [(where, f'{len(actual)} items, expected {len(expected)}')]
        found = []
        for index, (left, right) in enumerate(zip(expected, actual)):
            found.extend(differences(left, right, f'{where}[{index}]'))
        return found
    if _is_number(expected) and _is_number(actual):
        return [] if float(expected) == float(actual) else [(where, f'{_short(actual)} != expected {_short(expected)}')]
    if isinstance(expected, str) and isinstance(actual, str):
        left, right = instant(expected), instant(actual)
        if left is not None and right is not None:
            return [] if left == right else [(where, f'instant {actual} != expected {expected}')]
    if type(expected) is type(actual) and expected == actual:
        return []
    return [(where, f'{_short(actual)} != expected {_short(expected)}')]


def equal(expected, actual):
    return not differences(expected, actual, '')
