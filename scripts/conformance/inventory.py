"""What an operation documents, read from the spec alone: the statuses it
answers with, the nullable members, enum values and oneOf/anyOf branches of
its parameters and bodies, its request media types and its parameters'
styles. The call plan (calls.py) aims at these, and the COVERAGE line
counts what the calls exercised against them.

Schema positions are keyed by the identity of the document's own nodes
(the same keys `synth.Record` notes), each named schema walked once per
operation.
"""
import re
from dataclasses import dataclass, field

import oas
from synth import merge_all_of

# HTTP has no final response with these: a 1xx status is informational.
NO_FINAL_RESPONSE = re.compile(r'^1(\d\d|XX)$', re.IGNORECASE)
# Statuses whose response has no body, whatever the spec says (RFC 9110).
NO_BODY = {204, 205, 304}
# Headers OpenAPI says a parameter may not describe: the transport owns them.
IGNORED_HEADERS = {'accept', 'content-type', 'authorization'}


@dataclass
class Status:
    key: str          # as the spec writes it: 200, 4XX, default
    code: int         # what the server answers with
    response: dict
    pointer: str


@dataclass
class Inventory:
    statuses: list = field(default_factory=list)
    nulls: set = field(default_factory=set)        # ids of nullable member schemas
    enums: set = field(default_factory=set)        # (id of an enum list, index)
    branches: set = field(default_factory=set)     # (id of a branch list, index)
    media: list = field(default_factory=list)      # request media types
    styles: set = field(default_factory=set)       # (location, style, explode, kind) per parameter
    exceptions: list = field(default_factory=list)  # (what, rule): documented, not exercisable


def statuses(doc, op):
    """[Status] the server answers the operation's calls with, one per
    documented status key HTTP can answer with, in document order."""
    documented = oas.responses(doc, op)
    explicit = {int(s) for s, _, _ in documented if s.isdigit()}
    has_success = any(s.startswith('2') for s, _, _ in documented)
    found = []
    for key, response, pointer in documented:
        if NO_FINAL_RESPONSE.match(key):
            continue
        if key.isdigit():
            code = int(key)
        elif re.fullmatch(r'[2-5]XX', key, re.IGNORECASE):
            first = int(key[0]) * 100
            code = next((c for c in range(first, first + 100) if c not in explicit), first)
        elif key == 'default':
            if not has_success:
                code = 200
            else:
                code = next((c for c in list(range(500, 600)) + list(range(400, 500)) if c not in explicit), 599)
        else:
            continue
        found.append(Status(key, code, response, pointer))
    return found


def parameter_kind(synth, parameter):
    schema = merge_all_of(synth, parameter.node.get('schema', {})) if 'schema' in parameter.node else {}
    if not isinstance(schema, dict):
        return 'primitive'
    kind = schema.get('type')
    kind = [k for k in kind if k != 'null'][0] if isinstance(kind, list) and [k for k in kind if k != 'null'] else kind
    if kind == 'array' or 'items' in schema:
        return 'array'
    if kind == 'object' or 'properties' in schema or 'additionalProperties' in schema:
        return 'object'
    return 'primitive'


def request_media_types(doc, op):
    body, _ = oas.request_body(doc, op)
    return list((body or {}).get('content') or {})


def response_media_type(response):
    """The media type a client reads of a response: JSON first, then text,
    then anything else (what a generated client's Accept names)."""
    content = list((response.get('content') or {}))
    if not content:
        return None
    json_types = [m for m in content if _is_json(m)]
    text_types = [m for m in content if m.split(';')[0].strip().lower().startswith('text/')]
    return (json_types or text_types or content)[0]


def _is_json(media_type):
    base = media_type.split(';')[0].strip().lower()
    return base == 'application/json' or base.endswith('+json')


def of(synth, op, request_media_type, request_encoding='json'):
    """The operation's Inventory; the request body counted is the one of
    `request_media_type` (the one the client sends)."""
    doc = synth.doc
    found = Inventory()
    found.statuses = statuses(doc, op)
    for key, _, _ in oas.responses(doc, op):
        if NO_FINAL_RESPONSE.match(key):
            found.exceptions.append((f'status {key}', 'a 1xx status is no final response (RFC 9110, 15.2)'))
    found.media = request_media_types(doc, op)
    walker = _Walker(synth, found)
    for parameter in op.parameters:
        if parameter.location == 'header' and parameter.name.lower() in IGNORED_HEADERS:
            continue
        found.styles.add((parameter.location, parameter.style, bool(parameter.explode), parameter_kind(synth, parameter)))
        if parameter.schema_pointer:
            # Parameters are never sent as null (no style writes it): their
            # enums and branches count, their nullable members do not.
            walker.walk(oas.at(doc, parameter.schema_pointer), direction='parameter')
    body, body_pointer = oas.request_body(doc, op)
    if body and request_media_type:
        pointer = oas.media_schema_pointer(doc, body, body_pointer, request_media_type)
        if pointer:
            # A form or multipart body has no way to write null: its
            # nullable members are not counted.
            walker.walk(oas.at(doc, pointer), direction='request' if request_encoding == 'json' else 'parameter')
    for status in found.statuses:
        if status.code in NO_BODY or op.method == 'HEAD':
            continue
        media_type = response_media_type(status.response)
        pointer = oas.media_schema_pointer(doc, status.response, status.pointer, media_type) if media_type else None
        if pointer:
            walker.walk(oas.at(doc, pointer), direction='response')
    return found


class _Walker:
    """Every schema position under a root, each named schema once per
    direction (a request leaves readOnly members out, a response writeOnly
    ones)."""

    def __init__(self, synth, inventory):
        self.synth, self.inventory = synth, inventory
        self.visited = set()

    def walk(self, node, direction):
        hidden = {'request': 'readOnly', 'response': 'writeOnly'}.get(direction)
        stack = [node]
        while stack:
            node = stack.pop()
            ref = node.get('$ref') if isinstance(node, dict) else None
            if isinstance(ref, str):
                if (direction, ref) in self.visited or not ref.startswith('#'):
                    continue
                self.visited.add((direction, ref))
            merged = merge_all_of(self.synth, node)
            if not isinstance(merged, dict):
                continue
            if isinstance(merged.get('enum'), list):
                for index, value in enumerate(merged['enum']):
                    if value is not None:
                        self.inventory.enums.add((id(merged['enum']), index))
            for key in ('oneOf', 'anyOf'):
                branches = merged.get(key)
                if isinstance(branches, list):
                    for index in range(len(branches)):
                        self.inventory.branches.add((id(branches), index))
                    open_branch = next((b for b in branches if _accepts_every_object(self.synth, b)), None) if key == 'oneOf' else None
                    shadowed = [b for b in branches if b is not open_branch and _holds_objects(self.synth, b)] if open_branch is not None else []
                    if shadowed:
                        # A oneOf with a branch every object matches (Box's
                        # GenericSource) holds no valid object of its other
                        # object branches: what only they reach is not exercisable.
                        self.inventory.exceptions.append(
                            ('object branches of a oneOf beside one that accepts every object',
                             'an object valid under such a branch is valid under two, which oneOf refuses'))
                    stack += [b for b in branches if not any(b is s for s in shadowed)]
            members = [m for m in (merged.get('properties') or {}).values()
                       if not (hidden and isinstance(merge_all_of(self.synth, m), dict) and merge_all_of(self.synth, m).get(hidden))]
            members += [merged[key] for key in ('items', 'additionalProperties') if isinstance(merged.get(key), dict)]
            members += [item for item in merged.get('prefixItems') or [] if isinstance(item, dict)]
            for member in members:
                if direction != 'parameter' and self.synth.is_nullable(member):
                    self.inventory.nulls.add(id(member))
                stack.append(member)


def _accepts_every_object(synth, node):
    """Whether every JSON object is valid under the schema: an object type
    (or none) with no properties, requirements, bounds or other checks."""
    merged = merge_all_of(synth, node)
    if merged is True or merged == {}:
        return True
    if not isinstance(merged, dict) or merged.get('type', 'object') != 'object':
        return False
    annotations = {'type', 'description', 'title', 'example', 'examples', 'deprecated', 'additionalProperties'}
    if any(key not in annotations and not key.startswith('x-') for key in merged):
        return False
    extra = merged.get('additionalProperties', True)
    return extra is True or extra == {} or (isinstance(extra, dict) and _accepts_every_value(synth, extra))


def _accepts_every_value(synth, node):
    merged = merge_all_of(synth, node)
    if merged is True or merged == {}:
        return True
    return isinstance(merged, dict) and all(key in ('description', 'title', 'example', 'examples', 'deprecated')
                                            or key.startswith('x-') for key in merged)


def _holds_objects(synth, node):
    """Whether some object is valid under the schema as far as its type says."""
    merged = merge_all_of(synth, node)
    if not isinstance(merged, dict):
        return merged is not False
    kind = merged.get('type')
    kinds = kind if isinstance(kind, list) else [kind]
    return kind is None or 'object' in kinds
