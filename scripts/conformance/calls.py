"""The calls the harness makes to one operation.

* call 0, "full": every optional parameter the client exposes and every
  optional member of the body; every oneOf/anyOf takes its first branch;
* call 1, "minimal": required parameters and members only;
* calls 2, 3, ...: "full" again with branch 1, 2, ... of every oneOf/anyOf
  found anywhere in the operation's request or response schemas, until
  the widest such choice has had each of its branches used (at most
  MAX_CALLS calls in all).

The response the server answers a call with is synthesized with the same
mode and branch index (server.py), so response branches get their calls
too. Arguments follow the driver protocol: {"path": {...}, "query": {...},
"header": {...}, "cookie": {...}, "body": value}; "body" is absent when the
call passes no body. Only the parameters the driver's manifest lists are
given values.
"""
import base64
from dataclasses import dataclass

import oas
from synth import SynthesisError

MAX_CALLS = 6
LOCATIONS = ('path', 'query', 'header', 'cookie')


@dataclass
class Call:
    key: str
    index: int
    mode: str        # full or minimal
    choice: int      # the oneOf/anyOf branch index
    arguments: dict
    error: str = None  # set when the arguments could not be synthesized

    def request_line(self):
        return {'key': self.key, 'call': self.index, 'arguments': self.arguments}


class BranchCounter:
    """The widest oneOf/anyOf (number of branches) reachable from a schema."""

    def __init__(self, synth):
        self.synth = synth
        self.memo = {}

    def widest(self, node, active=frozenset()):
        if isinstance(node, dict) and isinstance(node.get('$ref'), str):
            ref = node['$ref']
            if ref in self.memo:
                return self.memo[ref]
            if ref in active or not ref.startswith('#'):
                return 1
            result = self.widest(oas.at(self.synth.doc, ref), active | {ref})
            self.memo[ref] = result
            return result
        if isinstance(node, list):
            return max([self.widest(n, active) for n in node] or [1])
        if not isinstance(node, dict):
            return 1
        here = len(node['oneOf']) if 'oneOf' in node else len(node['anyOf']) if 'anyOf' in node else 1
        children = [v for k, v in node.items()
                    if k in ('allOf', 'oneOf', 'anyOf', 'items', 'prefixItems', 'additionalProperties', 'not')]
        children += list((node.get('properties') or {}).values())
        return max([here] + [self.widest(c, active) for c in children])


def operation_schemas(doc, op, manifest_entry):
    """Pointers of the schemas the operation's calls synthesize from."""
    pointers = []
    body, body_pointer = oas.request_body(doc, op)
    request = (manifest_entry or {}).get('requestBody')
    if body and request:
        pointer = oas.media_schema_pointer(doc, body, body_pointer, request['contentType'])
        if pointer:
            pointers.append(pointer)
    for _, response, response_pointer in oas.responses(doc, op):
        for media in (response.get('content') or {}):
            pointer = oas.media_schema_pointer(doc, response, response_pointer, media)
            if pointer:
                pointers.append(pointer)
    return pointers


def call_count(counter, doc, op, manifest_entry):
    widest = max([counter.widest(oas.at(doc, p)) for p in operation_schemas(doc, op, manifest_entry)] or [1])
    return min(MAX_CALLS, 2 + widest - 1)


def _parameter_value(synth, parameter, mode, choice):
    pointer = parameter.schema_pointer
    if pointer is None:
        return 'value'
    return synth.value(pointer, mode=mode, direction='parameter', choice=choice, salt=parameter.name)


def _body_value(synth, doc, op, request, mode, choice):
    body, body_pointer = oas.request_body(doc, op)
    pointer = oas.media_schema_pointer(doc, body, body_pointer, request['contentType']) if body else None
    encoding = request.get('encoding', 'json')
    if encoding == 'data':
        if pointer:
            value = synth.value(pointer, mode=mode, direction='request', choice=choice)
            if isinstance(value, str):
                try:
                    base64.b64decode(value, validate=True)
                    return value
                except ValueError:
                    return base64.b64encode(value.encode()).decode()
        return base64.b64encode(b'conformance bytes \x00\x01\x02\xff').decode()
    if pointer is None:
        return 'conformance text' if encoding == 'text' else {}
    value = synth.value(pointer, mode=mode, direction='request', choice=choice)
    if encoding == 'text' and not isinstance(value, str):
        return str(value)
    return value


def plan(synth, counter, op, manifest_entry):
    """The calls of `op` given its manifest entry."""
    doc = synth.doc
    exposed = {(p['name'], p['in']) for p in manifest_entry.get('parameters', [])}
    calls = []
    for index in range(call_count(counter, doc, op, manifest_entry)):
        mode = 'minimal' if index == 1 else 'full'
        choice = 0 if index < 2 else index - 1
        arguments = {location: {} for location in LOCATIONS}
        try:
            for parameter in op.parameters:
                if (parameter.name, parameter.location) not in exposed:
                    continue
                if parameter.required or mode == 'full':
                    arguments[parameter.location][parameter.name] = _parameter_value(synth, parameter, mode, choice)
            request = manifest_entry.get('requestBody')
            if request and (mode == 'full' or request.get('required')):
                arguments['body'] = _body_value(synth, doc, op, request, mode, choice)
            calls.append(Call(op.key, index, mode, choice, arguments))
        except SynthesisError as error:
            calls.append(Call(op.key, index, mode, choice, arguments, error=str(error)))
    return calls

