"""Deterministic values from JSON Schema (OpenAPI 3.0 and 3.1 dialects).

`Synthesizer(doc).value(pointer, mode=..., direction=..., variant=..., record=...)`
returns a JSON value for the schema at `pointer` in the OpenAPI document:

* mode "full" fills every optional member: each named schema (`$ref`) the
  first time the value meets it, then only what it requires (so recursive
  and very wide schemas stay finite), until FULL_NODE_BUDGET values are
  built; mode "minimal" only the required ones, and no member whose
  `default` a reader assumes; mode "nulls<k>" builds what leads to a
  nullable member and makes null every nullable member that has k
  nullable members above it (so the calls nulls0, nulls1, ... make each
  nullable member null once);
* direction "request" leaves readOnly members out, "response" leaves
  writeOnly members out;
* `variant` k picks value k of every enum, branch k of every oneOf/anyOf
  (null branches last; a discriminator property set to the mapping key of
  the chosen branch), and for k >= 1 the numbers at the edges their type,
  format and bounds allow (0, -1, the int32 and int64 limits, 2^53 + 1,
  many digits, exponents) and date-times with fractions up to nine digits
  and offsets other than Z;
* allOf members are merged into one schema; `$ref`s resolve anywhere in
  the document; enum/const, formats, numeric bounds and multipleOf, string
  lengths and patterns, array sizes and uniqueness are honoured;
* `record` (a `Record`) notes what the value exercised: enum values,
  branches, nullable members made null, and the members left out whose
  `default` a reader may fill in.

Randomness comes from `random.Random` seeded with the pointer and the
options, never the clock, so a run is reproducible. Every value is checked
against its schema with openapi-schema-validator (the dialect's validator,
with the read/write variant for 3.0) before it is returned. When the
hand-written draw finds no valid value, hypothesis-jsonschema, seeded,
tries the schema (`fallback.py`); a value neither finds raises
SynthesisError, which the harness reports as its own failure, not the
client's.
"""
import base64
import random

from openapi_schema_validator import (OAS30ReadValidator, OAS30Validator, OAS30WriteValidator, OAS31Validator,
                                      oas30_format_checker, oas31_format_checker)
from jsonschema.exceptions import UnknownType
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4, DRAFT202012

import oas
from compare import DROPPABLE
from regex_gen import matching_string

DOC_URI = 'urn:conformance:spec'
# A full value fills optional members until it holds this many values.
FULL_NODE_BUDGET = 600
# Past HARD_DEPTH synthesis gives up (a recursion the schema requires).
HARD_DEPTH = 40
# In the nulls modes, an array of a union holds up to this many items, one per branch.
MAX_UNION_ITEMS = 64
DEFAULT_INTEGER_RANGE = (1, 1000)
OBJECT_KEYWORDS = ('properties', 'additionalProperties', 'required', 'patternProperties', 'minProperties')


class SynthesisError(Exception):
    pass


class Record:
    """What values exercised: keys are object identities of the document's
    schema nodes (stable for one loaded document), as `inventory.py` counts
    them."""

    def __init__(self):
        self.enums = set()      # (id of the enum list, index)
        self.branches = set()   # (id of the oneOf/anyOf list, index)
        self.nulls = set()      # id of a nullable member's schema, made null
        self.defaults = {}      # location -> default, of members left out
        self.null_members = set()  # locations of members made null

    def merge(self, other):
        self.enums |= other.enums
        self.branches |= other.branches
        self.nulls |= other.nulls


class Synthesizer:
    def __init__(self, doc, seed=0):
        self.doc = doc
        self.dialect = oas.dialect(doc)
        self.seed = seed
        spec = DRAFT4 if self.dialect == '3.0' else DRAFT202012
        self.registry = Registry().with_resource(DOC_URI, Resource.from_contents(doc, default_specification=spec))
        self._validators = {}
        self._nullable_below = {}
        self._combined = {}
        self._nulls_below = {}
        self._marks_below = {}

    # -- public -----------------------------------------------------------

    def value(self, pointer, mode='full', direction='request', choice=None, salt='', variant=None, record=None, where='',
              aim=frozenset(), no_null=False, seek=frozenset()):
        """A value for the schema at `pointer` that validates against it.
        `variant` picks enum values, number edges and dates, and is the
        branch index of every oneOf/anyOf unless `choice` says another.
        In the nulls modes, `aim` (ids of nullable member schemas) are the
        ones to make null: a union takes a branch that leads to one, and
        each is made null where nothing else aimed at stands below it.
        `no_null` (and direction "parameter") takes no null branch of a
        union: a parameter or a form or multipart body cannot write null.
        `seek` holds enum values `('e', id of the list, index)` and branches
        `('b', id of the list, index)` not yet exercised: an enum takes one of
        them, a union a branch that is one or leads to one."""
        if variant is None:
            variant = choice or 0
        if choice is None:
            choice = variant
        node = oas.at(self.doc, pointer)
        errors = []
        # Retries move to the next branch, then to the full mode: a minimal
        # object can be valid under two oneOf branches where a full one is not.
        for attempt, attempt_mode in enumerate([mode, mode, 'full', 'full', mode, 'full']):
            rng = random.Random(f'{self.seed}|{pointer}|{mode}|{direction}|{choice}|{variant}|{salt}|{attempt}')
            draw = _Draw(self, rng, attempt_mode, direction, choice + attempt, variant if attempt == 0 else 0, attempt, aim)
            draw.no_null = no_null or direction == 'parameter'
            draw.seek = seek if attempt == 0 else frozenset()
            try:
                value = _as_on_the_wire(draw.of(node, 0, where))
            except SynthesisError as error:
                errors = [str(error)]
                continue
            errors = self.errors(pointer, value, direction, allowed_nulls=_relative(draw.record.null_members, where))
            if errors and any('is valid under each of' in e for e in errors):
                value, added = self.exclusive(pointer, value, direction)
                for location in added:
                    draw.record.defaults[where + location] = DROPPABLE
                errors = self.errors(pointer, value, direction, allowed_nulls=_relative(draw.record.null_members, where))
            if not errors:
                if record is not None:
                    record.merge(draw.record)
                    record.defaults.update(draw.record.defaults)
                    record.null_members |= draw.record.null_members
                return value
        from fallback import fallback_value
        value = fallback_value(self, pointer, direction, f'{self.seed}|{pointer}|{mode}|{direction}|{variant}|{salt}')
        if value is not _NOTHING and not self.errors(pointer, value, direction):
            return value
        raise SynthesisError(f'{pointer}: {errors[0]}')

    def errors(self, pointer, value, direction='request', allowed_nulls=()):
        """Messages of the schema at `pointer` for `value` ([] when it is valid).
        direction is 'request', 'response' or 'parameter'. `allowed_nulls`
        holds the places (`.a.b[0]`) of members made null because their
        schema says `nullable`: openapi-schema-validator reads OpenAPI 3.0's
        `nullable` beside `type` only, and refuses null where it stands
        beside `allOf`, `anyOf` or `oneOf` (GitHub's `"account": {nullable:
        true, anyOf: [...]}`), whose meaning the spec states plainly."""
        validator = self._validator(pointer, direction)
        try:
            return [e.message for e in validator.iter_errors(value) if not self.forgiven(e, direction, allowed_nulls)][:3]
        except UnknownType:  # a spec that writes e.g. `type: int`: the type stands for any value
            return []
        except RecursionError:
            return []

    def forgiven(self, error, direction, allowed_nulls):
        """Whether `error` is ignorable, a null at one of `allowed_nulls`, or
        a oneOf/anyOf refusal that only such errors cause: the branches
        whose every error is forgiven are valid, and exactly one (oneOf) or
        at least one (anyOf) of them is."""
        if self.ignorable(error, direction, allowed_nulls) or (error.instance is None and _place(error.absolute_path) in allowed_nulls):
            return True
        if error.validator not in ('oneOf', 'anyOf') or not error.context or not allowed_nulls:
            return False
        failing = set()
        for sub in error.context:
            if not self.forgiven(sub, direction, allowed_nulls):
                failing.add(sub.relative_schema_path[0])
        passing = len(error.validator_value) - len(failing)
        return passing == 1 if error.validator == 'oneOf' else passing >= 1

    def ignorable(self, error, direction, allowed_nulls=()):
        """Errors the validators report where the spec's intent is clear."""
        return self.hidden_member_error(error, direction) or self.implicit_discriminator_error(error, direction, allowed_nulls) or \
            self.nullable_composition_error(error)

    @staticmethod
    def nullable_composition_error(error):
        """Whether `error` refuses null under an anyOf or oneOf whose schema
        says `nullable: true` (OpenAPI 3.0): the validators read `nullable`
        beside `type` only."""
        schema = error.schema if isinstance(error.schema, dict) else {}
        return error.instance is None and error.validator in ('anyOf', 'oneOf') and schema.get('nullable') is True

    def implicit_discriminator_error(self, error, direction, allowed_nulls=()):
        """Whether `error` comes from a discriminator without a mapping whose
        property values (an enum) do not name schemas: the validators then
        look the value up as a schema name and fail, though the instance
        matches its branch. Judged on the branches alone."""
        schema = error.schema if isinstance(error.schema, dict) else {}
        if error.validator not in ('oneOf', 'anyOf') or 'discriminator' not in schema:
            return False
        matches = 0
        inside = _relative(allowed_nulls, _place(error.absolute_path))
        for branch in schema[error.validator]:
            if not isinstance(branch, dict):
                continue
            if isinstance(branch.get('$ref'), str) and branch['$ref'].startswith('#'):
                validator = self._validator(branch['$ref'], direction)
            else:  # an inline branch (OpenAI's turn detection modes)
                validator = self._validator('', direction).evolve(schema=_absolute_refs(branch))
            if not [e for e in validator.iter_errors(error.instance) if not self.forgiven(e, direction, inside)]:
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

    def exclusive(self, pointer, value, direction):
        """(`value` with each object that a oneOf's branches match more than
        once given a member that only the best matching branch allows, the
        places of the members added). The best matching branch declares the
        most of the object's members (the one it was built from); the member
        added is one another matching branch declares, of another JSON type
        than it declares (Supabase's signup answers a user or a session,
        whose members are all optional, so every object matches both). The
        kept branch does not declare it, so a reader may drop it: the
        comparison allows it back absent (`compare.DROPPABLE`)."""
        import copy
        value = copy.deepcopy(value)
        added = []
        validator = self._validator(pointer, direction)
        for _ in range(4):
            changed = False
            for error in validator.iter_errors(value):
                if error.validator != 'oneOf' or 'is valid under each of' not in error.message:
                    continue
                target = value
                for step in error.absolute_path:
                    target = target[step]
                if not isinstance(target, dict):
                    continue
                matching = [b for b in error.validator_value
                            if not any(True for _ in validator.evolve(schema=_absolute_refs(b)).iter_errors(target))]
                if len(matching) < 2:
                    continue
                def declared(branch):
                    merged = merge_all_of(self, branch)
                    return set((merged.get('properties') or {})) if isinstance(merged, dict) else set()
                best = max(matching, key=lambda b: len(declared(b) & set(target)))
                kept = merge_all_of(self, best)
                kept_members = declared(best)
                if isinstance(kept, dict) and kept.get('additionalProperties') is False:
                    continue
                kept_properties = (kept.get('properties') or {}) if isinstance(kept, dict) else {}
                others = [merge_all_of(self, b) for b in matching if b is not best]
                for name, member in kept_properties.items():
                    # A member the kept branch fixes (an enum or const) to a value
                    # the other branches refuse tells them apart and is kept by
                    # a reader (Box's taxonomy sources, `type: file` or `taxonomy`).
                    values = self.fixed_values(member)
                    refused = [v for v in values if all(
                        isinstance(o, dict) and name in (o.get('properties') or {})
                        and self.fixed_values(o['properties'][name]) and v not in self.fixed_values(o['properties'][name])
                        for o in others)]
                    if refused:
                        target[name] = refused[0]
                        changed = True
                        break
                if changed:
                    break
                for other in [b for b in matching if b is not best]:
                    merged = merge_all_of(self, other)
                    for name, member in ((merged.get('properties') or {}) if isinstance(merged, dict) else {}).items():
                        member = merge_all_of(self, member)
                        kind = member.get('type') if isinstance(member, dict) else None
                        if name in kept_members or name in target or not isinstance(kind, str):
                            continue
                        target[name] = 0 if kind in ('string', 'boolean', 'object', 'array') else 'other'
                        added.append(_place(error.absolute_path) + f'.{name}')
                        changed = True
                        break
                break
            if not changed:
                break
        return value, added

    def is_valid(self, pointer, value, direction='request'):
        return not self.errors(pointer, value, direction)

    def resolve(self, node):
        return oas.resolve(self.doc, node, '')[0]

    def is_nullable(self, node):
        """Whether the schema allows null (3.0 `nullable`, a 3.1 type list
        with "null", an enum with null, or a null branch). An allOf allows
        it when each of its parts does (JSON Schema), or, in OpenAPI 3.0,
        when a part without `type` says `nullable: true` (the 3.0 idiom for
        a nullable reference, `allOf: [$ref, {nullable: true}]`: the
        validators read `nullable` beside `type` only, the author's intent
        is plain)."""
        resolved = self.resolve(node)
        if isinstance(resolved, dict) and isinstance(resolved.get('allOf'), list):
            parts = [{k: v for k, v in resolved.items() if k != 'allOf'}] + list(resolved['allOf'])
            parts = [self.resolve(part) for part in parts]
            if self.dialect == '3.0' and any(isinstance(part, dict) and part.get('nullable') is True and 'type' not in part
                                             and not any(k in part for k in ('enum', 'const')) for part in parts):
                return True
            return all(self._allows_null(part) for part in parts)
        merged = merge_all_of(self, node)
        if not isinstance(merged, dict):
            return merged is True
        if isinstance(merged.get('enum'), list):
            # With an enum, null is allowed only when the enum lists it
            # (OpenAPI 3.0.3, `nullable`; JSON Schema in 3.1).
            return None in merged['enum']
        # `nullable` is OpenAPI 3.0's; a 3.1 document that writes it (Adyen's
        # does) allows no null by it, as a 3.1 validator reads it.
        if merged.get('nullable') is True and self.dialect == '3.0':
            return True
        kind = merged.get('type')
        if kind == 'null' or (isinstance(kind, list) and 'null' in kind):
            return True
        for key in ('oneOf', 'anyOf'):
            if isinstance(merged.get(key), list) and any(_is_null_schema(self, b) for b in merged[key]):
                return True
        return False

    def _allows_null(self, part):
        """Whether null passes one part of an allOf."""
        if not isinstance(part, dict):
            return part is not False
        if not any(k in part for k in ('type', 'enum', 'const', 'oneOf', 'anyOf', 'allOf', 'not')):
            return True
        return self.is_nullable(part)

    def fixed_values(self, node):
        """The values other than null a schema allows when it lists them
        (`const`, `enum`, or branches that do: OpenAI's `type: {anyOf:
        [{enum: [item_reference]}, {type: 'null'}]}`), else []."""
        merged = merge_all_of(self, node)
        if not isinstance(merged, dict):
            return []
        if 'const' in merged:
            return [merged['const']]
        if isinstance(merged.get('enum'), list):
            return [v for v in merged['enum'] if v is not None]
        found = []
        for key in ('oneOf', 'anyOf'):
            for branch in merged.get(key) or []:
                if not _is_null_schema(self, branch):
                    listed = self.fixed_values(branch)
                    if not listed:
                        return []
                    found += listed
        return found

    def combined(self, first, second):
        """`{'allOf': [first, second]}`, the same node each time it is asked
        for: schema positions are keyed by node identity (`Record`), so a
        property two allOf members define must be one node to every reader."""
        key = (id(first), id(second))
        if key not in self._combined:
            self._combined[key] = (first, second, {'allOf': [first, second]})  # the parts kept alive keep their ids
        return self._combined[key][2]

    def nulls_below(self, node):
        """The ids of the nullable member schemas somewhere inside `node`
        (through properties, items, map values, prefix items and branches),
        as `inventory.py` counts them."""
        def note(merged, members, found):
            found.update(id(member) for member in members if self.is_nullable(member))
        return self._below(node, self._nulls_below, note)

    def marks_below(self, node):
        """The enum values `('e', id, index)` and branches `('b', id, index)`
        somewhere inside `node`, itself included."""
        def note(merged, members, found):
            if isinstance(merged.get('enum'), list):
                found.update(('e', id(merged['enum']), i) for i, v in enumerate(merged['enum']) if v is not None)
            for k in ('oneOf', 'anyOf'):
                if isinstance(merged.get(k), list):
                    found.update(('b', id(merged[k]), i) for i in range(len(merged[k])))
        return self._below(node, self._marks_below, note)

    def _below(self, node, cache, note):
        """What `note(merged schema, its members, found)` finds in every
        schema inside `node` (itself, properties, items, map values, prefix
        items, branches; each named schema once), cached by `node`'s id."""
        key = id(node)
        if key in cache:
            return cache[key][1]
        found = set()
        seen = set()
        stack = [node]
        while stack:
            current = stack.pop()
            ref = current.get('$ref') if isinstance(current, dict) else None
            if isinstance(ref, str):
                if ref in seen:
                    continue
                seen.add(ref)
            merged = merge_all_of(self, current)
            if not isinstance(merged, dict):
                continue
            members = list((merged.get('properties') or {}).values())
            members += [merged[k] for k in ('items', 'additionalProperties') if isinstance(merged.get(k), dict)]
            members += [item for item in merged.get('prefixItems') or [] if isinstance(item, dict)]
            note(merged, members, found)
            stack += members
            for k in ('oneOf', 'anyOf'):
                stack += [b for b in merged.get(k) or [] if isinstance(b, dict)]
        found = frozenset(found)
        cache[key] = (node, found)  # the node kept alive keeps its id
        return found

    def nullable_below(self, node, active=frozenset()):
        """Whether a nullable member stands somewhere inside the schema
        (through properties, items, map values and branches), each named
        schema looked into once."""
        ref = node.get('$ref') if isinstance(node, dict) else None
        if isinstance(ref, str):
            if ref in self._nullable_below:
                return self._nullable_below[ref]
            if ref in active:
                return False
            found = self.nullable_below(self.resolve(node), active | {ref})
            self._nullable_below[ref] = found
            return found
        merged = merge_all_of(self, node)
        if not isinstance(merged, dict):
            return False
        members = list((merged.get('properties') or {}).values())
        for key in ('items', 'additionalProperties'):
            if isinstance(merged.get(key), dict):
                members.append(merged[key])
        for member in members:
            if self.is_nullable(member) or self.nullable_below(member, active):
                return True
        for key in ('oneOf', 'anyOf'):
            for branch in merged.get(key) or []:
                if self.nullable_below(branch, active):
                    return True
        return False

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


_NOTHING = object()


def _absolute_refs(node):
    """`node` with its document-local `$ref`s naming the document itself."""
    if isinstance(node, dict):
        return {k: (DOC_URI + v if k == '$ref' and isinstance(v, str) and v.startswith('#') else _absolute_refs(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_absolute_refs(v) for v in node]
    return node


def _as_on_the_wire(value):
    """`value` with each whole float written as an integer: JSON has one
    number type, and an encoder may write 16777216.0 as 16777216, which a
    oneOf of a number and an integer then reads as both."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    if isinstance(value, list):
        return [_as_on_the_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_on_the_wire(v) for k, v in value.items()}
    return value


def _place(path):
    """An error's instance path in the `.a.b[0]` notation of `Record`."""
    return ''.join(f'[{step}]' if isinstance(step, int) else f'.{step}' for step in path)


def _relative(locations, where):
    """`locations` (each starting with `where`) without that prefix."""
    return {location[len(where):] for location in locations if location.startswith(where)}


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
                    props[name] = synth.combined(props[name], schema) if name in props else schema
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

    def __init__(self, synth, rng, mode, direction, choice, variant=0, attempt=0, aim=frozenset()):
        self.synth, self.rng, self.direction, self.choice, self.variant = synth, rng, direction, choice, variant
        self.aim = aim
        self.forced = None         # (id of a branch list, the branch the next union of it takes)
        self.no_null = False       # take no null branch of a union
        self.seek = frozenset()    # enum values and branches to reach (Synthesizer.value)
        self.null_depth = int(mode[5:] or 0) if mode.startswith('nulls') else None
        self.mode = 'nulls' if self.null_depth is not None else mode
        self.attempt = attempt
        self.counter = 0
        self.nodes = 0
        self.nulled = 0            # nullable members above the one being built
        self.expanded = set()      # named schemas already filled in full
        self.record = Record()

    def of(self, node, depth, where='', full=None):
        if depth > HARD_DEPTH:
            raise SynthesisError('schema recursion without a way out')
        self.nodes += 1
        if full is None:
            full = self.mode == 'full'
        ref = node.get('$ref') if isinstance(node, dict) else None
        if self.mode == 'full':
            if isinstance(ref, str):
                full = ref not in self.expanded and self.nodes <= FULL_NODE_BUDGET
                self.expanded.add(ref)
            elif self.nodes > FULL_NODE_BUDGET:
                full = False
        node = merge_all_of(self.synth, node)
        if node is True or node is None or node == {}:
            return self.any_value()
        if node is False:
            raise SynthesisError('schema false has no value')
        if 'oneOf' in node or 'anyOf' in node:
            return self.branch(node, depth, where, full)
        if 'const' in node:
            return node['const']
        if 'enum' in node and isinstance(node['enum'], list) and node['enum']:
            values = [v for v in node['enum'] if v is not None]
            if not values:
                return None
            index = self.variant % len(values)
            if self.seek:
                listed = node['enum']
                index = next((j % len(values) for j in range(index, index + len(values))
                              if ('e', id(listed), listed.index(values[j % len(values)])) in self.seek), index)
            self.record.enums.add((id(node['enum']), node['enum'].index(values[index])))
            return values[index]
        kind = self.type_of(node)
        return getattr(self, 'a_' + kind, self.a_any)(node, depth, where, full)

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

    # -- members ----------------------------------------------------------

    def member(self, schema, depth, where, full):
        """A member's value (a property's, an item's, a map value's): in the
        nulls modes, null when it is nullable and has `null_depth` nullable
        members above it."""
        if self.mode == 'nulls' and self.synth.is_nullable(schema):
            if self.aim:
                below = bool(self.synth.nulls_below(schema) & self.aim)
                make_null = id(schema) in self.aim and (not below or self.nulled == self.null_depth)
            else:
                make_null = self.nulled == self.null_depth
            if make_null:
                self.record.nulls.add(id(schema))
                self.record.null_members.add(where)
                return None
            self.nulled += 1
            try:
                return self.of(schema, depth + 1, where, full)
            finally:
                self.nulled -= 1
        return self.of(schema, depth + 1, where, full)

    def wanted(self, schema, full):
        """Whether an optional member is built."""
        if self.mode == 'nulls':
            return self.synth.is_nullable(schema) or self.synth.nullable_below(schema)
        return full

    # -- combinators ------------------------------------------------------

    def branch(self, node, depth, where, full):
        key = 'oneOf' if 'oneOf' in node else 'anyOf'
        branches = branches_of(self.synth, node)
        if self.no_null:
            branches = [b for b in branches if not _is_null_schema(self.synth, b)] or branches
        chosen = branches[self.choice % len(branches)]
        if self.forced is not None and self.forced[0] == id(node[key]):
            chosen, self.forced = self.forced[1], None
        elif self.seek and self.mode != 'nulls':
            # A branch not yet taken, else one that leads to what is sought.
            turned = branches[self.choice % len(branches):] + branches[:self.choice % len(branches)]
            listed = node[key]
            chosen = next((b for b in turned if any(b is c for c in listed) and
                           ('b', id(listed), next(i for i, c in enumerate(listed) if c is b)) in self.seek), None) or \
                next((b for b in turned if self.synth.marks_below(b) & self.seek), chosen)
        elif self.mode == 'nulls' and self.aim:
            # The first branch, from the chosen one on, that leads to a member aimed at.
            turned = branches[self.choice % len(branches):] + branches[:self.choice % len(branches)]
            chosen = next((b for b in turned if self.synth.nulls_below(b) & self.aim), chosen)
        self.record.branches.add((id(node[key]), node[key].index(chosen) if chosen in node[key] else 0))
        rest = {k: v for k, v in node.items() if k not in (key, 'discriminator')}
        combined = {'allOf': [rest, chosen]} if rest else chosen
        value = self.of(combined, depth, where, full)
        discriminator = node.get('discriminator')
        if isinstance(value, dict) and isinstance(discriminator, dict) and '$ref' in (chosen if isinstance(chosen, dict) else {}):
            ref = chosen['$ref']
            names = [k for k, v in (discriminator.get('mapping') or {}).items() if v == ref or v == ref.rsplit('/', 1)[-1]]
            member = ((merge_all_of(self.synth, chosen).get('properties') or {}).get(discriminator['propertyName']))
            member = merge_all_of(self.synth, member) if member is not None else {}
            name = discriminator['propertyName']
            values = self.synth.fixed_values(member)
            if names:
                value[name] = names[0]
            elif not values:  # the schema's name is the implicit mapping
                value[name] = ref.rsplit('/', 1)[-1]
            elif value.get(name) not in values:
                # The branch leaves its discriminating member optional (or
                # nullable): a reader still needs it to tell the branch.
                value[name] = values[0]
        return value

    # -- scalars ----------------------------------------------------------

    def any_value(self):
        self.counter += 1
        return f'value{self.counter}'

    def a_any(self, node, depth, where, full):
        return self.any_value()

    def a_null(self, node, depth, where, full):
        return None

    def a_boolean(self, node, depth, where, full):
        return self.mode != 'minimal' if self.variant % 2 == 0 else self.mode == 'minimal'

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
        return lo, hi

    def edge(self, candidates, node, integer):
        """One of `candidates` that the schema's bounds and multipleOf allow,
        picked by the variant; None when none is allowed (or variant 0)."""
        if self.variant == 0 or self.mode == 'minimal':
            return None
        lo, hi = self.bounds(node, integer)
        multiple = node.get('multipleOf')
        allowed = []
        for value in candidates:
            if lo is not None and value < lo or hi is not None and value > hi:
                continue
            if multiple and not _is_multiple(value, multiple):
                continue
            allowed.append(value)
        return allowed[(self.variant - 1) % len(allowed)] if allowed else None

    def a_integer(self, node, depth, where, full):
        fmt = node.get('format')
        limit = 2 ** 31 if fmt == 'int32' else 2 ** 63
        candidates = [0, -1, 1, limit - 1, -limit, 2 ** 53 + 1, -(2 ** 53 + 1), 2 ** 31, -(2 ** 31) - 1, 1000]
        found = self.edge([c for c in candidates if -limit <= c < limit], node, True)
        if found is not None:
            return found
        lo, hi = self.bounds(node, True)
        lo, hi = _default_range(lo, hi)
        lo, hi = int(-(-lo // 1)), int(hi // 1)
        multiple = node.get('multipleOf')
        if multiple:
            first, last = -(-lo // multiple), hi // multiple
            return int(multiple * (self.rng.randint(int(first), int(last)) if first <= last else first))
        return self.rng.randint(lo, hi) if lo <= hi else lo

    def a_number(self, node, depth, where, full):
        if node.get('format') == 'float':
            # Values a float holds whose shortest text reads back as the same double.
            candidates = [0.0, -1.5, 0.5, 1e-30, 3e38, 16777216.0, -2.25e10]
        elif node.get('format') == 'decimal':
            # Amounts: many digits a decimal holds exactly, within its range.
            candidates = [0.0, -1.5, 0.1, 1234567.89, -0.01, 99999999999.99, 0.30000000000000004]
        else:
            candidates = [0.0, -1.5, 0.1, 1e300, -2.5e-300, 5e-324, 0.30000000000000004, 123456.78901234567,
                          1.7976931348623157e308, -7.0]
        found = self.edge(candidates, node, False)
        if found is not None:
            return found
        lo, hi = self.bounds(node, False)
        lo, hi = _default_range(lo, hi)
        multiple = node.get('multipleOf')
        if multiple:
            first, last = -(-lo // multiple), hi // multiple
            return multiple * (self.rng.randint(int(first), int(last)) if first <= last else first)
        if hi - lo >= 1:  # a value with a fraction that binary floating point holds exactly
            return self.rng.randint(int(-(-lo // 1)), int(hi // 1) - 1) + 0.5 if int(hi // 1) - 1 >= int(-(-lo // 1)) else lo
        return lo

    def a_string(self, node, depth, where, full):
        fmt = node.get('format')
        if node.get('contentEncoding') in ('base64', 'binary') or fmt in ('byte', 'binary'):
            return self.base64_text(node)
        if fmt in EDGE_FORMATS and self.variant > 0 and self.mode != 'minimal':
            values = EDGE_FORMATS[fmt]
            return values[(self.variant - 1) % len(values)]
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

    def a_array(self, node, depth, where, full):
        items = node.get('items', {})
        prefix = node.get('prefixItems') or []
        lo, hi = node.get('minItems', 0), node.get('maxItems')
        wanted = full or (self.mode == 'nulls' and (self.synth.is_nullable(items) or self.synth.nullable_below(items)))
        count = max(lo, min(2, hi if hi is not None else 2)) if full else max(lo, 1 if wanted else 0)
        count = max(count, len(prefix)) if full else count
        # In the nulls modes, items of a union: one item per branch that
        # leads to a member aimed at, so one call reaches them all.
        leading = []
        if self.mode == 'nulls' and self.aim and not prefix:
            merged_items = merge_all_of(self.synth, items)
            key = next((k for k in ('oneOf', 'anyOf') if isinstance(merged_items, dict) and isinstance(merged_items.get(k), list)), None)
            if key:
                leading = [(id(merged_items[key]), b) for b in branches_of(self.synth, merged_items)
                           if self.synth.nulls_below(b) & self.aim]
                count = max(count, min(len(leading), MAX_UNION_ITEMS))
        if hi is not None:
            count = min(count, hi)
        values = []
        for index in range(count):
            schema = prefix[index] if index < len(prefix) else items
            self.forced = leading[index] if index < len(leading) else None
            value = self.member(schema, depth, f'{where}[{index}]', full)
            self.forced = None
            tries = 0
            while node.get('uniqueItems') and value in values and tries < 8:
                # The next enum value or branch, a new random draw.
                tries += 1
                self.variant, self.choice = self.variant + 1, self.choice + 1
                try:
                    value = self.of(schema, depth + 1, f'{where}[{index}]', full)
                finally:
                    self.variant, self.choice = self.variant - 1, self.choice - 1
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

    def a_object(self, node, depth, where, full):
        properties = node.get('properties') or {}
        required = set(node.get('required') or [])
        value = {}
        for name, schema in properties.items():
            if (name in required or self.wanted(schema, full)) and not self.skipped(schema):
                value[name] = self.member(schema, depth, f'{where}.{name}', full)
        for name in properties:
            if len(value) >= node.get('minProperties', 0):
                break
            if name not in value and not self.skipped(properties[name]):
                value[name] = self.member(properties[name], depth, f'{where}.{name}', full)
        extra = node.get('additionalProperties')
        if properties and isinstance(extra, dict) and self.mode == 'nulls' and self.aim and \
                (id(extra) in self.aim or self.synth.nulls_below(extra) & self.aim):
            key = next(f'key{i}' for i in range(1, len(properties) + 2) if f'key{i}' not in properties)
            value[key] = self.member(extra, depth, f'{where}.{key}', full)
        if not properties and extra not in (None, False):
            count = 2 if full else 1
            count = max(count, node.get('minProperties', 0))
            for index in range(1, count + 1):
                key = f'key{index}'
                value[key] = self.any_value() if extra is True or extra == {} else self.member(extra, depth, f'{where}.{key}', full)
        for name, schema in properties.items():
            # A member left out whose `default` a reader assumes: a client
            # may read the default into its value.
            if name in value or self.skipped(schema):
                continue
            resolved = merge_all_of(self.synth, schema)
            if isinstance(resolved, dict) and 'default' in resolved and _plausible_default(resolved):
                self.record.defaults[f'{where}.{name}'] = resolved['default']
        for name in value:
            if value[name] is None:
                self.record.null_members.add(f'{where}.{name}')
        for name in required - set(value):
            # A required member not among `properties` (or one readOnly/writeOnly hides): any value.
            if name not in properties:
                value[name] = self.any_value() if extra in (None, True, {}) else self.of(extra, depth + 1, f'{where}.{name}', full)
        return value


def _default_range(lo, hi):
    if lo is None and hi is None:
        return DEFAULT_INTEGER_RANGE
    if lo is None:
        return (min(hi, DEFAULT_INTEGER_RANGE[0]) if hi >= DEFAULT_INTEGER_RANGE[0] else hi - DEFAULT_INTEGER_RANGE[1]), hi
    if hi is None:
        return lo, lo + DEFAULT_INTEGER_RANGE[1]
    return lo, hi


def _is_multiple(value, multiple):
    quotient = value / multiple
    return abs(quotient - round(quotient)) < 1e-9


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


# What the later variants send for formats whose text a client reads into a
# value of its own: fractions of a second up to nine digits, offsets other
# than Z, a leap day, the epoch.
EDGE_FORMATS = {
    'date-time': ['2024-03-05T13:04:05.123456789+05:30', '2024-12-31T23:59:59.5Z', '2024-02-29T00:00:00.000001-08:00',
                  '1970-01-01T00:00:00Z', '2024-06-01T12:00:00.123Z', '2030-01-01T00:00:00.25-00:30'],
    'date': ['2024-02-29', '1999-12-31', '2000-01-01', '2038-01-19'],
}

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
