"""Values from hypothesis-jsonschema for schemas the hand-written draw
cannot satisfy (a map with `minProperties`, branches that differ only in
which member is required, `required` beside `allOf`, patterns it does not
read): a well-kept generator with shrinking, run seeded and derandomized,
so a run gives the same value every time.

The OpenAPI schema is turned into the JSON Schema hypothesis-jsonschema
reads (draft 7): `$ref`s are inlined a few levels deep (deeper ones become
"anything"), `nullable` becomes a null alternative, and OpenAPI's own
keywords (discriminator, readOnly, xml, example, ...) are dropped, as are
formats it does not know. The value it finds is checked against the
original schema by the caller.
"""
import random

import oas

# Named schemas inlined at most this deep; below, any value is allowed.
INLINE_DEPTH = 4
OPENAPI_ONLY = {'discriminator', 'readOnly', 'writeOnly', 'xml', 'example', 'examples', 'externalDocs', 'deprecated',
                'nullable', 'contentEncoding', 'contentMediaType', 'title', 'description', 'default', '$comment'}
KNOWN_FORMATS = {'date-time', 'date', 'time', 'email', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname'}
_NOTHING = object()


_CACHE = {}


def fallback_value(synth, pointer, direction, seed):
    """A value for the schema at `pointer`, or a marker of none: the same
    one for every call (a schema the draw cannot satisfy is searched
    once per run, its answer kept)."""
    key = (id(synth), pointer, direction)
    if key not in _CACHE:
        _CACHE[key] = _search(synth, pointer, direction, seed)
    return _CACHE[key]


def _search(synth, pointer, direction, seed):
    try:
        from hypothesis import HealthCheck, Phase, find, settings
        from hypothesis.errors import HypothesisException
        from hypothesis_jsonschema import from_schema
    except ImportError:
        from synth import _NOTHING as nothing
        return nothing
    from synth import _NOTHING as nothing
    try:
        schema = _json_schema(synth, oas.at(synth.doc, pointer), direction, 0, frozenset())
        strategy = from_schema(schema)
        # The first value found, unshrunk: shrinking costs far more than it gives here.
        config = settings(database=None, derandomize=True, max_examples=50, deadline=None, phases=[Phase.generate],
                          suppress_health_check=list(HealthCheck))
        return find(strategy, lambda value: synth.is_valid(pointer, value, direction), settings=config,
                    random=random.Random(seed))
    except (HypothesisException, ValueError, TypeError, RecursionError, KeyError, AttributeError):
        return nothing
    except Exception:  # hypothesis-jsonschema raises its own errors for schemas it cannot read
        return nothing


def _json_schema(synth, node, direction, depth, active):
    if isinstance(node, bool):
        return node
    if not isinstance(node, dict):
        return {}
    ref = node.get('$ref')
    if isinstance(ref, str):
        if not ref.startswith('#') or ref in active or depth >= INLINE_DEPTH:
            return {}
        return _json_schema(synth, oas.at(synth.doc, ref), direction, depth + 1, active | {ref})
    hidden = 'readOnly' if direction == 'request' else 'writeOnly'
    result = {}
    for key, value in node.items():
        if key in OPENAPI_ONLY or key.startswith('x-'):
            continue
        if key == 'format' and value not in KNOWN_FORMATS:
            continue
        if key == 'properties' and isinstance(value, dict):
            result[key] = {name: _json_schema(synth, member, direction, depth, active) for name, member in value.items()
                           if not (isinstance(member, dict) and member.get(hidden))}
        elif key in ('items', 'additionalProperties', 'not', 'contains', 'propertyNames') and isinstance(value, dict):
            result[key] = _json_schema(synth, value, direction, depth, active)
        elif key in ('allOf', 'oneOf', 'anyOf', 'prefixItems') and isinstance(value, list):
            result['items' if key == 'prefixItems' else key] = [_json_schema(synth, member, direction, depth, active) for member in value]
        elif key == 'required' and isinstance(value, list):
            hidden_members = {name for name, member in (node.get('properties') or {}).items()
                              if isinstance(member, dict) and member.get(hidden)}
            result[key] = [name for name in value if name not in hidden_members]
        elif key in ('exclusiveMinimum', 'exclusiveMaximum') and isinstance(value, bool):
            bound = 'minimum' if key == 'exclusiveMinimum' else 'maximum'
            if value and bound in node:
                result[key] = node[bound]
        elif key in ('minimum', 'maximum') and node.get('exclusive' + key.capitalize()) is True:
            continue
        else:
            result[key] = value
    if node.get('nullable') is True:
        result = {'anyOf': [result, {'type': 'null'}]}
    return result
