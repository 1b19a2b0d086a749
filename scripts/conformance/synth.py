"""Deterministic values from JSON Schema (OpenAPI 3.0 and 3.1 dialects).

`Synthesizer(doc).value(pointer, mode=..., direction=..., choice=...)`
returns a JSON value for the schema at `pointer` in the OpenAPI document:

* mode "full" fills every optional member (down to OPTIONAL_DEPTH levels of
  nesting, so recursive and very wide schemas stay small), mode "minimal"
  only the required ones;
* direction "request" leaves readOnly members out, "response" leaves
  writeOnly members out;
* `choice` picks the branch of every oneOf/anyOf (branch `choice % n`, null
  branches last), so the calls of an operation with choices 0..k-1 use
  every branch of every such schema; a discriminator property is set to
  the mapping key of the chosen branch;
* allOf members are merged into one schema; `$ref`s resolve anywhere in
  the document; enum/const, formats, numeric bounds and multipleOf, string
  lengths and patterns, array sizes and uniqueness are honoured.

Randomness comes from `random.Random` seeded with the pointer and the
options, never the clock, so a run is reproducible. Every value is checked
against its schema with openapi-schema-validator (the dialect's validator,
with the read/write variant for 3.0) before it is returned; a value that
does not validate raises SynthesisError.
"""
import base64
import random

from openapi_schema_validator import (OAS30ReadValidator, OAS30Validator, OAS30WriteValidator, OAS31Validator,
                                      oas30_format_checker, oas31_format_checker)
from jsonschema.exceptions import UnknownType
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4, DRAFT202012

import oas
from regex_gen import matching_string

DOC_URI = 'urn:conformance:spec'
# Optional members are filled down to this many levels of objects and arrays.
OPTIONAL_DEPTH = 3
# Past this depth only what the schema requires is built; past HARD_DEPTH synthesis gives up.
HARD_DEPTH = 40
DEFAULT_INTEGER_RANGE = (1, 1000)
OBJECT_KEYWORDS = ('properties', 'additionalProperties', 'required', 'patternProperties', 'minProperties')


class SynthesisError(Exception):
    pass


class Synthesizer:
    def __init__(self, doc, seed=0):
        self.doc = doc
        self.dialect = oas.dialect(doc)
        self.seed = seed
        spec = DRAFT4 if self.dialect == '3.0' else DRAFT202012
        self.registry = Registry().with_resource(DOC_URI, Resource.from_contents(doc, default_specification=spec))
        self._validators = {}

    # -- public -----------------------------------------------------------

    def value(self, pointer, mode='full', direction='request', choice=0, salt=''):
        """A value for the schema at `pointer` that validates against it."""
        node = oas.at(self.doc, pointer)
        errors = []
        # Retries move to the next branch, then to the full mode: a minimal
        # object can be valid under two oneOf branches where a full one is not.
        for attempt, attempt_mode in enumerate([mode, mode, 'full', 'full', mode, 'full']):
            rng = random.Random(f'{self.seed}|{pointer}|{mode}|{direction}|{choice}|{salt}|{attempt}')
            value = _Draw(self, rng, attempt_mode, direction, choice + attempt, attempt).of(node, 0)
            errors = self.errors(pointer, value, direction)
            if not errors:
                return value
        raise SynthesisError(f'{pointer}: {errors[0]}')

    def errors(self, pointer, value, direction='request'):
        """Messages of the schema at `pointer` for `value` ([] when it is valid).
        direction is 'request', 'response' or 'parameter'."""
        validator = self._validator(pointer, direction)
        try:
            return [e.message for e in validator.iter_errors(value) if not self.ignorable(e, direction)][:3]
        except UnknownType:  # a spec that writes e.g. `type: int`: the type stands for any value
            return []

    def ignorable(self, error, direction):
        """Errors the validators report where the spec's intent is clear."""
        return self.hidden_member_error(error, direction) or self.implicit_discriminator_error(error, direction)

    def implicit_discriminator_error(self, error, direction):
        """Whether `error` comes from a discriminator without a mapping whose
        property values (an enum) do not name schemas: the validators then
        look the value up as a schema name and fail, though the instance
        matches its branch. Judged on the branches alone."""
        schema = error.schema if isinstance(error.schema, dict) else {}
        if error.validator not in ('oneOf', 'anyOf') or 'discriminator' not in schema:
            return False
        matches = 0
        for branch in schema[error.validator]:
            if isinstance(branch, dict) and isinstance(branch.get('$ref'), str) and branch['$ref'].startswith('#'):
                if not [e for e in self._validator(branch['$ref'], direction).iter_errors(error.instance)
                        if not self.ignorable(e, direction)]:
                    matches += 1
        return matches == 1 or (matches > 1 and error.validator == 'anyOf')

    def hidden_member_error(self, error, direction):
        """Whether `error` is a `required` failure for a member this direction
        leaves out (readOnly in requests, writeOnly in responses). The
        validators read the flag only when it sits beside the member's
        `$ref`, not inside the schema it names."""
        if error.validator != 'required' or direction == 'parameter':
            return False
        name = error.message.split("'")[1] if error.message.count("'") >= 2 else None
        member = ((error.schema if isinstance(error.schema, dict) else {}).get('properties') or {}).get(name)
        flag = 'readOnly' if direction == 'request' else 'writeOnly'
        merged = merge_all_of(self, member) if member is not None else None
        return isinstance(merged, dict) and bool(merged.get(flag))

    def is_valid(self, pointer, value, direction='request'):
        return not self.errors(pointer, value, direction)

    def resolve(self, node):
        return oas.resolve(self.doc, node, '')[0]

    # -- helpers ----------------------------------------------------------

    def _validator(self, pointer, direction):
        key = (pointer, direction)
        if key not in self._validators:
            schema = {'$ref': DOC_URI + pointer}
            if self.dialect == '3.0':
                cls = {'request': OAS30WriteValidator, 'response': OAS30ReadValidator}.get(direction, OAS30Validator)
                self._validators[key] = cls(schema, registry=self.registry, format_checker=oas30_format_checker)
            else:
                self._validators[key] = OAS31Validator(schema, registry=self.registry, format_checker=oas31_format_checker)
        return self._validators[key]


def merge_all_of(synth, node):
    """One schema equal in effect to `node` with its allOf members folded in
    (recursively). Properties defined by several members are combined with
    an allOf of their own; required lists are joined."""
    node = synth.resolve(node)
    if not isinstance(node, dict) or 'allOf' not in node:
        return node
    merged = {k: v for k, v in node.items() if k != 'allOf'}
    for member in node['allOf']:
        member = merge_all_of(synth, member)
        if not isinstance(member, dict):
            continue
        for key, value in member.items():
            if key == 'properties':
                props = dict(merged.get('properties') or {})
                for name, schema in value.items():
                    props[name] = {'allOf': [props[name], schema]} if name in props else schema
                merged['properties'] = props
            elif key == 'required':
                merged['required'] = list(dict.fromkeys(list(merged.get('required') or []) + list(value)))
            elif key in ('oneOf', 'anyOf') and key in merged:
                merged.setdefault('allOf', []).append({key: value})
            elif key not in merged:
                merged[key] = value
    if 'allOf' in merged:  # branch sets gathered from several members
        return merge_all_of(synth, merged)
    return merged


def _is_null_schema(synth, node):
    node = synth.resolve(node)
    return isinstance(node, dict) and (node.get('type') == 'null' or node.get('enum') == [None])


def branches_of(synth, node):
    """The oneOf/anyOf branches of `node`, null-only branches last."""
    key = 'oneOf' if 'oneOf' in node else 'anyOf'
    branches = list(node[key])
    return [b for b in branches if not _is_null_schema(synth, b)] + [b for b in branches if _is_null_schema(synth, b)]


class _Draw:
    """One synthesis: the options of a `Synthesizer.value` call."""

    def __init__(self, synth, rng, mode, direction, choice, attempt=0):
        self.synth, self.rng, self.mode, self.direction, self.choice = synth, rng, mode, direction, choice
        self.attempt = attempt
        self.counter = 0

    def of(self, node, depth):
        if depth > HARD_DEPTH:
            raise SynthesisError('schema recursion without a way out')
        node = merge_all_of(self.synth, node)
        if node is True or node is None or node == {}:
            return self.any_value()
        if node is False:
            raise SynthesisError('schema false has no value')
        if 'oneOf' in node or 'anyOf' in node:
            return self.branch(node, depth)
        if 'const' in node:
            return node['const']
        if 'enum' in node:
            values = [v for v in node['enum'] if v is not None] or node['enum']
            return values[self.rng.randrange(len(values))] if self.mode == 'full' else values[0]
        kind = self.type_of(node)
        return getattr(self, 'a_' + kind, self.a_any)(node, depth)

    def type_of(self, node):
        kind = node.get('type')
        if isinstance(kind, list):
            kinds = [k for k in kind if k != 'null']
            kind = kinds[0] if kinds else 'null'
        if kind is None:
            if any(k in node for k in OBJECT_KEYWORDS):
                return 'object'
            if 'items' in node or 'prefixItems' in node:
                return 'array'
            if 'format' in node or 'pattern' in node or 'minLength' in node:
                return 'string'
            return 'any'
        return kind

    # -- combinators ------------------------------------------------------

    def branch(self, node, depth):
        key = 'oneOf' if 'oneOf' in node else 'anyOf'
        branches = branches_of(self.synth, node)
        chosen = branches[self.choice % len(branches)]
        rest = {k: v for k, v in node.items() if k not in (key, 'discriminator')}
        combined = {'allOf': [rest, chosen]} if rest else chosen
        value = self.of(combined, depth)
        discriminator = node.get('discriminator')
        if isinstance(value, dict) and isinstance(discriminator, dict) and '$ref' in (chosen if isinstance(chosen, dict) else {}):
            ref = chosen['$ref']
            names = [k for k, v in (discriminator.get('mapping') or {}).items() if v == ref or v == ref.rsplit('/', 1)[-1]]
            member = ((merge_all_of(self.synth, chosen).get('properties') or {}).get(discriminator['propertyName']))
            member = merge_all_of(self.synth, member) if member is not None else {}
            if names:
                value[discriminator['propertyName']] = names[0]
            elif not ('enum' in member or 'const' in member):  # the schema's name is the implicit mapping
                value[discriminator['propertyName']] = ref.rsplit('/', 1)[-1]
        return value

    # -- scalars ----------------------------------------------------------

    def any_value(self):
        self.counter += 1
        return f'value{self.counter}'

    def a_any(self, node, depth):
        return self.any_value()

    def a_null(self, node, depth):
        return None

    def a_boolean(self, node, depth):
        return self.mode == 'full'

    def bounds(self, node, integer):
        lo, hi = node.get('minimum'), node.get('maximum')
        ex_lo, ex_hi = node.get('exclusiveMinimum'), node.get('exclusiveMaximum')
        step = 1 if integer else 0.5
        if isinstance(ex_lo, bool):
            if ex_lo and lo is not None:
                lo = lo + step
        elif ex_lo is not None:
            lo = ex_lo + step if lo is None else max(lo, ex_lo + step)
        if isinstance(ex_hi, bool):
            if ex_hi and hi is not None:
                hi = hi - step
        elif ex_hi is not None:
            hi = ex_hi - step if hi is None else min(hi, ex_hi - step)
        if lo is None and hi is None:
            lo, hi = DEFAULT_INTEGER_RANGE
        elif lo is None:
            lo = min(hi, DEFAULT_INTEGER_RANGE[0]) if hi >= DEFAULT_INTEGER_RANGE[0] else hi - DEFAULT_INTEGER_RANGE[1]
        elif hi is None:
            hi = lo + DEFAULT_INTEGER_RANGE[1]
        return lo, hi

    def a_integer(self, node, depth):
        lo, hi = self.bounds(node, True)
        lo, hi = int(-(-lo // 1)), int(hi // 1)
        multiple = node.get('multipleOf')
        if multiple:
            first, last = -(-lo // multiple), hi // multiple
            return int(multiple * (self.rng.randint(int(first), int(last)) if first <= last else first))
        return self.rng.randint(lo, hi) if lo <= hi else lo

    def a_number(self, node, depth):
        lo, hi = self.bounds(node, False)
        multiple = node.get('multipleOf')
        if multiple:
            first, last = -(-lo // multiple), hi // multiple
            return multiple * (self.rng.randint(int(first), int(last)) if first <= last else first)
        if hi - lo >= 1:  # a value with a fraction that binary floating point holds exactly
            return self.rng.randint(int(-(-lo // 1)), int(hi // 1) - 1) + 0.5 if int(hi // 1) - 1 >= int(-(-lo // 1)) else lo
        return lo

    def a_string(self, node, depth):
        fmt = node.get('format')
        if node.get('contentEncoding') in ('base64', 'binary') or fmt in ('byte', 'binary'):
            return self.base64_text(node)
        if fmt in FORMATS:
            return FORMATS[fmt](self.rng)
        lo, hi = node.get('minLength', 0), node.get('maxLength')
        if 'pattern' in node:
            found = matching_string(node['pattern'], self.rng, lo, hi, long=self.attempt > 0 or lo > 3)
            if found is not None:
                return found
        length = max(lo, min(8, hi if hi is not None else 8))
        alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
        text = ''.join(self.rng.choice(alphabet) for _ in range(length))
        if length >= 4 and self.rng.random() < 0.5:
            # Characters that escaping must carry through every location: a
            # space, the query's and the path's delimiters, a percent sign,
            # brackets, a quote, and letters outside ASCII.
            special = self.rng.choice([' ', '&', '=', '+', '/', '?', '#', '%', '[', ']', ',', ';', '"', "'", 'é', '中', '😀'])
            index = self.rng.randrange(1, length - 1)
            text = text[:index] + special + text[index + 1:]
        return text

    def base64_text(self, node):
        size = 1 + self.rng.randrange(12)
        text = base64.b64encode(bytes(self.rng.randrange(256) for _ in range(size))).decode()
        hi = node.get('maxLength')
        while hi is not None and len(text) > hi and size > 0:
            size -= 1
            text = base64.b64encode(bytes(range(size))).decode()
        return text

    # -- containers -------------------------------------------------------

    def full_here(self, depth):
        return self.mode == 'full' and depth < OPTIONAL_DEPTH

    def a_array(self, node, depth):
        items = node.get('items', {})
        prefix = node.get('prefixItems') or []
        lo, hi = node.get('minItems', 0), node.get('maxItems')
        count = max(lo, min(2, hi if hi is not None else 2)) if self.full_here(depth) else lo
        count = max(count, len(prefix)) if self.full_here(depth) else count
        values = []
        for index in range(count):
            schema = prefix[index] if index < len(prefix) else items
            value = self.of(schema, depth + 1)
            tries = 0
            while node.get('uniqueItems') and value in values and tries < 8:
                tries += 1
                value = self.of(schema, depth + 1)
            if node.get('uniqueItems') and value in values:
                if len(values) >= lo:
                    break
            values.append(value)
        return values

    def skipped(self, schema):
        """Whether a member is left out in this direction (readOnly/writeOnly)."""
        schema = merge_all_of(self.synth, schema)
        if not isinstance(schema, dict):
            return False
        flag = 'readOnly' if self.direction == 'request' else 'writeOnly'
        return bool(schema.get(flag))

    def a_object(self, node, depth):
        properties = node.get('properties') or {}
        required = set(node.get('required') or [])
        full = self.full_here(depth)
        value = {}
        for name, schema in properties.items():
            if (name in required or full) and not self.skipped(schema):
                value[name] = self.of(schema, depth + 1)
        for name in properties:
            if len(value) >= node.get('minProperties', 0):
                break
            if name not in value and not self.skipped(properties[name]):
                value[name] = self.of(properties[name], depth + 1)
        extra = node.get('additionalProperties')
        if not properties and extra not in (None, False):
            count = 2 if full else 1
            count = max(count, node.get('minProperties', 0))
            for index in range(1, count + 1):
                value[f'key{index}'] = self.any_value() if extra is True or extra == {} else self.of(extra, depth + 1)
        for name, schema in properties.items():
            # A member left out is one whose `default` the reader assumes: a
            # client may send that default itself, so expect it either way.
            if name in value or self.skipped(schema):
                continue
            resolved = merge_all_of(self.synth, schema)
            if isinstance(resolved, dict) and 'default' in resolved and _plausible_default(resolved):
                value[name] = resolved['default']
        for name in required - set(value):
            # A required member not among `properties` (or one readOnly/writeOnly hides): any value.
            if name not in properties:
                value[name] = self.any_value() if extra in (None, True, {}) else self.of(extra, depth + 1)
        return value


def _plausible_default(schema):
    """Whether a schema's `default` fits its own `enum` and `type` (some specs' do not)."""
    default = schema['default']
    if 'enum' in schema and default not in schema['enum']:
        return False
    kinds = {'string': str, 'boolean': bool, 'integer': int, 'number': (int, float), 'array': list, 'object': dict}
    types = schema.get('type')
    types = types if isinstance(types, list) else [types] if types else []
    if default is None:
        return 'null' in types or schema.get('nullable') is True
    return not types or any(t in kinds and isinstance(default, kinds[t]) and not (t in ('integer', 'number') and isinstance(default, bool))
                            for t in types)


def _uuid(rng):
    h = '%032x' % rng.getrandbits(128)
    return f'{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}'


def _date(rng):
    return f'2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}'


def _date_time(rng):
    return f'{_date(rng)}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z'


FORMATS = {
    'date': _date,
    'date-time': _date_time,
    'time': lambda rng: f'{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z',
    'uuid': _uuid,
    'email': lambda rng: f'user{rng.randint(1, 999)}@example.com',
    'uri': lambda rng: f'https://example.com/r/{rng.randint(1, 999)}',
    'url': lambda rng: f'https://example.com/r/{rng.randint(1, 999)}',
    'uri-reference': lambda rng: f'/r/{rng.randint(1, 999)}',
    'uri-template': lambda rng: 'https://example.com/r/{id}',
    'hostname': lambda rng: f'host{rng.randint(1, 99)}.example.com',
    'ipv4': lambda rng: f'192.0.2.{rng.randint(1, 254)}',
    'ipv6': lambda rng: f'2001:db8::{rng.randint(1, 999)}',
    'password': lambda rng: f'secret{rng.randint(1, 999)}',
}
