"""The bracket convention of form bodies and query strings.

OpenAPI's `deepObject` style names one level (`filter[name]=x`); APIs such
as Stripe's, and the servers of Rails/Rack, PHP and Node's `qs`, read any
depth: `line_items[0][price]=x`, `a[b][0][c]=v`, `expand[]=a`, `tags[0]=a`.
openapi-core reads neither nested form bodies nor nested deepObject
parameters, so the conformance server parses them here:

    parse('a[b][0][c]=v&expand[]=x&expand[]=y')
    == {'a': {'b': [{'c': 'v'}]}, 'expand': ['x', 'y']}

Values stay strings; `coerce` turns them into the types a schema asks for
(the server then validates the result with jsonschema).

Rules: a segment of digits indexes a list (`tags[1]=b` puts 'b' at index 1;
indices are sorted, gaps closed); `[]` appends, except that `a[][k]=v`
fills the last element while it has no `k` yet (Rack's rule, so
`a[][x]=1&a[][y]=2&a[][x]=3` gives two elements); a key repeated without
brackets collects its values in a list.
"""
import re
from urllib.parse import unquote_plus

_SEGMENT = re.compile(r'\[([^\[\]]*)\]')


def split_key(key):
    """'a[b][0][]' -> ['a', 'b', '0', '']. A key without brackets is one segment."""
    head = key.split('[', 1)[0]
    rest = key[len(head):]
    segments = _SEGMENT.findall(rest)
    if not head or ''.join(f'[{s}]' for s in segments) != rest:
        return [key]  # not bracket syntax: the key as it is
    return [head] + segments


def pairs(text):
    """The decoded (key, value) pairs of an urlencoded string, in order."""
    result = []
    for part in text.split('&'):
        if not part:
            continue
        key, _, value = part.partition('=')
        result.append((unquote_plus(key), unquote_plus(value)))
    return result


class _List(dict):
    """A list under construction: index -> value (indices may arrive out of order)."""

    def append(self, value):
        self[len(self) and max(self) + 1] = value

    def last(self):
        return self[max(self)] if self else None


def _insert(container, segments, value):
    head, rest = segments[0], segments[1:]
    if isinstance(container, _List):
        if head == '':
            last = container.last()
            if rest and isinstance(last, dict) and not isinstance(last, _List) and rest[0] not in last:
                _insert(last, rest, value)  # Rack: keep filling the last element
                return
            if not rest:
                container.append(value)
                return
            child = _new_container(rest[0])
            container.append(child)
            _insert(child, rest, value)
            return
        if head.isdigit():
            head = int(head)
    if not rest:
        if head in container and not isinstance(container, _List):
            existing = container[head]
            container[head] = existing + [value] if isinstance(existing, list) else [existing, value]
        else:
            container[head] = value
        return
    child = container.get(head)
    if not isinstance(child, dict):
        child = _new_container(rest[0])
        container[head] = child
    _insert(child, rest, value)


def _new_container(segment):
    return _List() if segment == '' or segment.isdigit() else {}


def _finish(node):
    if isinstance(node, _List):
        return [_finish(node[i]) for i in sorted(node)]
    if isinstance(node, dict):
        return {k: _finish(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_finish(v) for v in node]
    return node


def parse_pairs(items):
    """Nested dicts and lists from (key, value) pairs."""
    root = {}
    for key, value in items:
        _insert(root, split_key(key), value)
    return _finish(root)


def parse(text):
    """Nested dicts and lists from an urlencoded string (body or query)."""
    return parse_pairs(pairs(text))


def has_brackets(text):
    return any(len(split_key(k)) > 1 for k, _ in pairs(text))


def coerce(value, schema, resolve):
    """`value` (strings from a form) turned into the JSON types `schema`
    describes: numbers, booleans, a lone string where an array is expected
    becomes a one-element array. `resolve(schema)` follows `$ref`s and
    merges allOf. Values that do not convert are left as they are, for the
    validator to report."""
    schema = resolve(schema)
    if not isinstance(schema, dict):
        return value
    for key in ('oneOf', 'anyOf'):
        if key in schema:
            for branch in schema[key]:
                converted = coerce(value, branch, resolve)
                if converted is not value and converted != value:
                    return converted
            return value
    kind = schema.get('type')
    if isinstance(kind, list):
        kinds = [k for k in kind if k != 'null']
        if value == '' and 'null' in kind:
            return None
        kind = kinds[0] if kinds else None
    if kind is None:
        kind = 'object' if 'properties' in schema else 'array' if 'items' in schema else None
    if kind == 'array':
        items = value if isinstance(value, list) else [value]
        return [coerce(v, schema.get('items', {}), resolve) for v in items]
    if kind == 'object' and isinstance(value, dict):
        props = schema.get('properties') or {}
        extra = schema.get('additionalProperties')
        return {k: coerce(v, props.get(k, extra if isinstance(extra, dict) else {}), resolve) for k, v in value.items()}
    if not isinstance(value, str):
        return value
    try:
        if kind == 'integer':
            return int(value)
        if kind == 'number':
            number = float(value)
            return int(number) if number.is_integer() and '.' not in value and 'e' not in value.lower() else number
    except ValueError:
        return value
    if kind == 'boolean' and value in ('true', 'false'):
        return value == 'true'
    return value
