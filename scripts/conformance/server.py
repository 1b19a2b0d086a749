"""The HTTP server a conformance driver talks to.

A threaded `http.server` on 127.0.0.1 (an ephemeral port). Before each
call the orchestrator tells it which operation and call to expect and with
which arguments (`expect`); when the request arrives the server

1. checks it against the spec with openapi-core's low-level request
   validators (parameters, then body; security requirements are not
   checked: they are not the subject here), reading each parameter with
   its style and explode;
2. where openapi-core does not read the encoding, uses its own reading:
   `deepObject` parameters with nested members and form bodies with
   nested objects or arrays are parsed with the bracket convention
   (brackets.py), coerced to the schema's types and validated with
   jsonschema; multipart bodies are parsed with the standard library's
   email parser;
3. compares the values that arrived with the synthesized arguments
   (compare.py): a valid but different value is a failure too;
4. answers with the first documented 2XX status (`2XX` -> 200; a lone
   `default` -> 200) and a body synthesized from its schema for the first
   media type the request's Accept header allows: JSON for application/json
   and +json types, a string for text/*, bytes otherwise. Event streams
   (text/event-stream, application/jsonl, application/json-seq) get a
   short stream of two events.

Each failure is kept as (location, rule), e.g. ('query.expand', 'missing');
`result()` hands the call's failures and the response it sent to the
orchestrator, which checks the driver's report against that response.
"""
import base64
import email.parser
import email.policy
import json
import re
import threading
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

from jsonschema.exceptions import UnknownType
from jsonschema_path import SchemaPath
from openapi_core.datatypes import RequestParameters
from openapi_core.validation.request.exceptions import MissingRequestBody, ParametersError
from openapi_core.validation.request.validators import V30RequestValidator, V31RequestValidator
from werkzeug.datastructures import Headers, ImmutableMultiDict

import brackets
import oas
from compare import differences
from synth import SynthesisError, merge_all_of

STREAM_TYPES = ('text/event-stream', 'application/jsonl', 'application/x-ndjson', 'application/json-seq')


def is_json(media_type):
    media_type = media_type.split(';')[0].strip().lower()
    return media_type == 'application/json' or media_type.endswith('+json')


def path_regex(template):
    """A regex matching request paths of `template`, one group per variable."""
    parts = re.split(r'(\{[^}]+\})', template)
    names = []
    pattern = ''
    for part in parts:
        if part.startswith('{') and part.endswith('}'):
            names.append(part[1:-1])
            pattern += f'(?P<v{len(names) - 1}>[^/]*)'
        else:
            pattern += re.escape(part)
    return re.compile('^' + pattern + '$'), names


@dataclass
class Sent:
    """The response the server sent for a call."""
    status: int
    media_type: str = None
    kind: str = 'empty'        # json, text, data or empty
    value: object = None       # JSON value, text, or bytes
    raw: bytes = b''
    streaming: bool = False
    events: list = None        # JSON values of the events of a stream


@dataclass
class Outcome:
    arrived: bool = False
    failures: list = field(default_factory=list)   # [(location, rule)]
    sent: Sent = None


class ConformanceServer:
    def __init__(self, doc, synth):
        self.doc = doc
        self.synth = synth
        self.spec = SchemaPath.from_dict(doc)
        cls = V30RequestValidator if oas.dialect(doc) == '3.0' else V31RequestValidator
        self.validator = cls(self.spec)
        self.lock = threading.Lock()
        self.expected = None
        self.outcome = Outcome()
        self.httpd = ThreadingHTTPServer(('127.0.0.1', 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.conformance = self
        self.thread = None

    @property
    def url(self):
        return f'http://127.0.0.1:{self.httpd.server_address[1]}'

    def start(self):
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def expect(self, op, call, manifest_entry):
        with self.lock:
            self.expected = (op, call, manifest_entry)
            self.outcome = Outcome()

    def result(self):
        with self.lock:
            return self.outcome

    # -- one request --------------------------------------------------------

    def handle(self, method, target, headers, body):
        with self.lock:
            if self.expected is None:
                return 500, 'text/plain', b'no call expected'
            op, call, entry = self.expected
            outcome = self.outcome
            if outcome.arrived:
                outcome.failures.append(('request', 'more than one request for the call'))
            outcome.arrived = True
            check = _RequestCheck(self, op, call, entry, method, target, headers, body)
            try:
                check.run()
            except Exception as error:  # a harness defect must not pass silently
                check.fail('request', f'checker error {type(error).__name__}: {error}')
            outcome.failures.extend(check.failures)
            try:
                sent = self.respond(op, call, entry, headers)
            except SynthesisError as error:
                outcome.failures.append(('response', f'cannot synthesize: {error}'))
                sent = Sent(500)
            outcome.sent = sent
            return sent.status, sent.media_type, sent.raw

    def respond(self, op, call, entry, headers):
        status, response, pointer = choose_response(self.doc, op)
        if response is None:
            return Sent(status)
        content = response.get('content') or {}
        if not content:
            return Sent(status)
        media_type = choose_media_type(list(content), headers.get('Accept'))
        schema = oas.media_schema_pointer(self.doc, response, pointer, media_type)
        return synthesize_body(self.synth, status, media_type, schema, call)


def choose_response(doc, op):
    """(status code, response, pointer) the server answers with."""
    responses = oas.responses(doc, op)
    for status, response, pointer in responses:
        if re.fullmatch(r'2\d\d', status):
            return int(status), response, pointer
        if status.upper() == '2XX':
            return 200, response, pointer
    for status, response, pointer in responses:
        if status == 'default':
            return 200, response, pointer
    if responses:
        status, response, pointer = responses[0]
        return (int(status) if status.isdigit() else int(status[0]) * 100), response, pointer
    return 200, None, None


def _accepts(accept, media_type):
    if not accept:
        return True
    base = media_type.split(';')[0].strip().lower()
    for item in accept.split(','):
        wanted = item.split(';')[0].strip().lower()
        if wanted in ('*/*', base) or (wanted.endswith('/*') and base.startswith(wanted[:-1])):
            return True
    return False


def choose_media_type(media_types, accept):
    for media_type in media_types:
        if _accepts(accept, media_type):
            return media_type
    return media_types[0]


def synthesize_body(synth, status, media_type, schema, call):
    base = media_type.split(';')[0].strip().lower()
    if base in STREAM_TYPES:
        return stream_body(synth, status, media_type, schema, call)
    if is_json(base):
        value = synth.value(schema, mode=call.mode, direction='response', choice=call.choice) if schema else {'any': 'value'}
        return Sent(status, media_type, 'json', value, json.dumps(value).encode(), False)
    if base.startswith('text/'):
        value = synth.value(schema, mode=call.mode, direction='response', choice=call.choice) if schema else None
        text = value if isinstance(value, str) else f'conformance text {call.index}'
        return Sent(status, media_type, 'text', text, text.encode())
    value = synth.value(schema, mode=call.mode, direction='response', choice=call.choice) if schema else None
    data = base64.b64decode(value) if isinstance(value, str) and _is_base64(value) else b'conformance \x00\x01\xfe\xff'
    return Sent(status, media_type, 'data', data, data)


def _is_base64(text):
    try:
        base64.b64decode(text, validate=True)
        return True
    except ValueError:
        return False


def stream_body(synth, status, media_type, schema, call):
    """Two events whose payloads are JSON values of the media type's schema
    (an object when the spec gives none)."""
    events = []
    for index in range(2):
        value = synth.value(schema, mode=call.mode, direction='response', choice=call.choice, salt=f'event{index}') \
            if schema else {'event': index, 'call': call.index}
        events.append(value)
    base = media_type.split(';')[0].strip().lower()
    if base == 'text/event-stream':
        text = ''.join(f'id: {i}\ndata: {json.dumps(v)}\n\n' for i, v in enumerate(events))
    elif base == 'application/json-seq':
        text = ''.join(f'\x1e{json.dumps(v)}\n' for v in events)
    else:
        text = ''.join(json.dumps(v) + '\n' for v in events)
    return Sent(status, media_type, 'text', text, text.encode(), True, events)


class _RequestCheck:
    """The checks of one request against the expected call."""

    def __init__(self, server, op, call, entry, method, target, headers, body):
        self.server, self.op, self.call, self.entry = server, op, call, entry
        self.method, self.target, self.headers, self.body = method, target, headers, body
        self.failures = []

    def fail(self, location, rule):
        self.failures.append((location, ' '.join(str(rule).split())[:300]))

    def run(self):
        url = urlsplit(self.target)
        if self.method != self.op.method:
            self.fail('method', f'{self.method} != expected {self.op.method}')
            return
        regex, names = path_regex(self.op.path)
        match = regex.match(url.path)
        if not match:
            self.fail('path', f'{url.path} does not match {self.op.path}')
            return
        path_values = {name: unquote(match.group(f'v{i}')) for i, name in enumerate(names)}
        self.query_text = url.query
        query = ImmutableMultiDict(parse_qsl(url.query, keep_blank_values=True))
        cookies = {}
        for header in self.headers.get_all('Cookie') or []:
            parsed = SimpleCookie()
            parsed.load(header)
            cookies.update({k: m.value for k, m in parsed.items()})
        header_list = Headers([(k, v) for k, v in self.headers.items()])
        parameters = RequestParameters(path=path_values, query=query, header=header_list, cookie=ImmutableMultiDict(cookies))
        self.presence = {'path': set(path_values), 'query': set(k for k, _ in parse_qsl(url.query, keep_blank_values=True)),
                         'header': {k.lower() for k in self.headers.keys()}, 'cookie': set(cookies)}
        self.check_parameters(parameters)
        self.check_body()

    # -- parameters -----------------------------------------------------------

    def needs_brackets(self, parameter):
        if parameter.location != 'query' or parameter.style != 'deepObject':
            return False
        schema = merge_all_of(self.server.synth, parameter.node.get('schema', {}))
        if isinstance(schema, dict) and (schema.get('type') == 'array' or 'items' in schema):
            return True  # openapi-core reads deepObject for objects only
        for member in (schema.get('properties') or {}).values():
            member = merge_all_of(self.server.synth, member)
            if isinstance(member, dict) and (member.get('type') in ('object', 'array') or 'properties' in member or 'items' in member):
                return True
        return False

    def present(self, parameter):
        names = self.presence[parameter.location]
        if parameter.location == 'header':
            return parameter.name.lower() in names
        if parameter.location == 'query':
            if parameter.name in names or any(n.startswith(parameter.name + '[') for n in names):
                return True
            schema = merge_all_of(self.server.synth, parameter.node.get('schema', {}))
            if parameter.style == 'form' and parameter.explode and isinstance(schema, dict) and 'properties' in schema:
                return any(p in names for p in schema['properties'])
            return False
        return parameter.name in names

    def check_parameters(self, parameters):
        operation = self.server.spec / 'paths' / self.op.path / self.op.method.lower()
        path_item = self.server.spec / 'paths' / self.op.path
        try:
            values = self.server.validator._get_parameters(parameters, operation, path_item)
            errors = []
        except ParametersError as error:
            values, errors = error.parameters, error.errors
        fallback = {p.name for p in self.op.parameters if self.needs_brackets(p)}
        for error in errors:
            name, location = getattr(error, 'name', None), getattr(error, 'location', None)
            if name in fallback and location == 'query':
                continue
            if self.ignorable(error) or self.empty_value_allowed(error, name, location) or _read_only_value(error):
                continue
            self.fail(f'{location}.{name}', f'openapi-core: {_describe(error)}')
        arguments = self.call.arguments
        for parameter in self.op.parameters:
            where = f'{parameter.location}.{parameter.name}'
            expected = arguments.get(parameter.location, {}).get(parameter.name)
            present = self.present(parameter)
            if expected is None:
                if present:
                    self.fail(where, 'sent though the call passed nil')
                continue
            if not present:
                self.fail(where, 'missing')
                continue
            if parameter.name in fallback:
                actual = self.bracket_parameter(parameter)
            else:
                location_values = getattr(values, parameter.location)
                if parameter.name not in location_values:
                    if expected == '' and parameter.location == 'query':
                        actual = dict(parse_qsl(self.query_text, keep_blank_values=True)).get(parameter.name)
                        if actual != '':
                            self.fail(where, f'{actual!r} != expected an empty value')
                    continue  # otherwise openapi-core reported why
                actual = location_values[parameter.name]
                if parameter.content_type and isinstance(actual, (str, bytes)) and is_json(parameter.content_type):
                    actual = json.loads(actual)
            if parameter.name in fallback or parameter.style == 'deepObject':
                expected, actual = _without_empty(expected), _without_empty(actual)
            for location, rule in differences(expected, _plain(actual), where):
                self.fail(location, rule)

    def empty_value_allowed(self, error, name, location):
        """openapi-core refuses `name=` in a query even when the schema's enum
        lists the empty string; the value is compared as it is instead."""
        expected = self.call.arguments.get(location, {}).get(name)
        return expected == '' and 'cannot be empty' in _describe(error)

    def bracket_parameter(self, parameter):
        """A nested deepObject parameter read with the bracket convention."""
        value = brackets.parse(self.query_text).get(parameter.name)
        value = brackets.coerce(value, parameter.node.get('schema', {}), lambda s: merge_all_of(self.server.synth, s))
        for message in self.server.synth.errors(parameter.schema_pointer, value, 'parameter'):
            self.fail(f'query.{parameter.name}', f'invalid: {message}')
        return value

    def ignorable(self, error):
        cause = error.__cause__ if error.__cause__ is not None else error
        if isinstance(cause, UnknownType):  # the spec names a type JSON Schema lacks (`type: int`)
            return True
        schema_errors = list(getattr(cause, 'schema_errors', []) or [])
        return bool(schema_errors) and all(self.server.synth.ignorable(e, 'request') for e in schema_errors)

    # -- body -------------------------------------------------------------------

    def check_body(self):
        expected = self.call.arguments.get('body', _ABSENT)
        request = self.entry.get('requestBody')
        if expected is _ABSENT:
            if self.body:
                self.fail('body', 'sent though the call passed nil')
            return
        if not self.body and request and request.get('encoding') not in ('text', 'data'):
            if expected not in ({}, ''):
                self.fail('body', 'missing')
                return
        content_type = self.headers.get('Content-Type') or ''
        mime = content_type.split(';')[0].strip().lower()
        declared = request['contentType'].split(';')[0].strip().lower()
        if mime != declared and not (declared.endswith('/*') and mime.startswith(declared[:-1])) and declared != '*/*':
            self.fail('header.Content-Type', f'{mime or "none"} != expected {declared}')
        encoding = request.get('encoding', 'json')
        if encoding == 'form' and (self.form_needs_brackets() or self.form_has_deep_encoding(request)):
            actual = self.bracket_body(request)
        elif encoding == 'multipart':
            actual = self.multipart_body(request)
        elif encoding == 'data':
            actual = None  # compared as bytes below; openapi-core validates raw bodies as text
        else:
            actual = self.openapi_core_body(content_type)
            if actual is _ABSENT:
                return
        if encoding == 'data':
            received = self.body or b''
            if received != base64.b64decode(expected):
                self.fail('body', f'{len(received)} bytes differ from the {len(base64.b64decode(expected))} expected')
            return
        if encoding == 'text':
            received = (self.body or b'').decode('utf-8', 'replace')
            if received != expected:
                self.fail('body', f'{received[:60]!r} != expected {expected[:60]!r}')
            return
        if encoding == 'form':
            # A form has no way to say "empty list" or "empty object": both are absent.
            expected, actual = _without_empty(expected), _without_empty(actual)
        for location, rule in differences(expected, _plain(actual), 'body'):
            self.fail(location, rule)

    def form_has_deep_encoding(self, request):
        """Whether the form's `encoding` puts a field in deepObject, which openapi-core cannot read for arrays."""
        body = oas.request_body(self.server.doc, self.op)[0] or {}
        encodings = (body.get('content') or {}).get(request['contentType'], {}).get('encoding') or {}
        return any(isinstance(e, dict) and e.get('style') == 'deepObject' for e in encodings.values())

    def schema_pointer(self, request):
        body, pointer = oas.request_body(self.server.doc, self.op)
        return oas.media_schema_pointer(self.server.doc, body, pointer, request['contentType'])

    def form_needs_brackets(self):
        text = (self.body or b'').decode('utf-8', 'replace')
        return brackets.has_brackets(text) or any(len(v) > 1 for v in _multi(text).values())

    def bracket_body(self, request):
        text = (self.body or b'').decode('utf-8', 'replace')
        pointer = self.schema_pointer(request)
        value = brackets.parse(text)
        if pointer:
            schema = merge_all_of(self.server.synth, oas.at(self.server.doc, pointer))
            # A form cannot carry an empty list: a required list that is absent
            # is read as empty, as form-reading servers default it.
            for name in (schema.get('required') or []) if isinstance(schema, dict) else []:
                member = merge_all_of(self.server.synth, (schema.get('properties') or {}).get(name, {}))
                if isinstance(value, dict) and name not in value and isinstance(member, dict) and member.get('type') == 'array':
                    value[name] = []
            value = brackets.coerce(value, oas.at(self.server.doc, pointer), lambda s: merge_all_of(self.server.synth, s))
            for message in self.server.synth.errors(pointer, value, 'request'):
                self.fail('body', f'invalid: {message}')
        return value

    def multipart_body(self, request):
        content_type = self.headers.get('Content-Type') or ''
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            f'Content-Type: {content_type}\r\n\r\n'.encode() + (self.body or b''))
        if not message.is_multipart():
            self.fail('body', 'not a multipart body')
            return {}
        pointer = self.schema_pointer(request)
        schema = merge_all_of(self.server.synth, oas.at(self.server.doc, pointer)) if pointer else {}
        properties = schema.get('properties') or {}
        body = oas.request_body(self.server.doc, self.op)[0] or {}
        encodings = (body.get('content') or {}).get(request['contentType'], {}).get('encoding') or {}
        value = {}
        for part in message.iter_parts():
            name = part.get_param('name', header='content-disposition')
            payload = part.get_payload(decode=True) or b''
            member = merge_all_of(self.server.synth, properties.get(name, {}))
            part_type = (part.get_content_type() or '').lower()
            if _is_binary(member):
                item = base64.b64encode(payload).decode()
            elif is_json(part_type) or (name in encodings and is_json(encodings[name].get('contentType', ''))) or \
                    (isinstance(member, dict) and member.get('type') in ('object', 'array')):
                try:
                    item = json.loads(payload)
                except ValueError:
                    item = payload.decode('utf-8', 'replace')
            else:
                item = brackets.coerce(payload.decode('utf-8', 'replace'), member, lambda s: merge_all_of(self.server.synth, s))
            if name in value:
                value[name] = (value[name] if isinstance(value[name], list) else [value[name]]) + [item]
            else:
                value[name] = item
        if pointer:
            value = brackets.coerce(value, oas.at(self.server.doc, pointer), lambda s: merge_all_of(self.server.synth, s))
            for message_text in self.server.synth.errors(pointer, value, 'request'):
                self.fail('body', f'invalid: {message_text}')
        return value

    def openapi_core_body(self, content_type):
        operation = self.server.spec / 'paths' / self.op.path / self.op.method.lower()
        try:
            return self.server.validator._get_body(self.body, content_type.lower() or 'application/octet-stream', operation)
        except MissingRequestBody:
            return _ABSENT
        except Exception as error:  # openapi-core wraps every body failure
            if not self.ignorable(error):
                self.fail('body', f'openapi-core: {_describe(error)}')
            try:
                return json.loads(self.body)
            except ValueError:
                return _ABSENT


_ABSENT = object()


def _without_empty(value):
    """`value` without the empty lists and objects inside it, which a form or
    a deepObject query cannot write (`a[]` with no element is no pair at all)."""
    if isinstance(value, dict):
        pruned = {k: _without_empty(v) for k, v in value.items()}
        return {k: v for k, v in pruned.items() if v not in ({}, [])}
    if isinstance(value, list):
        return [_without_empty(v) for v in value]
    return value


def _is_binary(schema):
    return isinstance(schema, dict) and (schema.get('format') in ('binary', 'byte') or 'contentEncoding' in schema
                                         or 'contentMediaType' in schema)


def _multi(text):
    found = {}
    for key, value in brackets.pairs(text):
        found.setdefault(key, []).append(value)
    return found


def _plain(value):
    """Values openapi-core hands back (multidicts, bytes, tuples) as JSON values."""
    if isinstance(value, bytes):
        try:
            return value.decode('utf-8')
        except UnicodeDecodeError:
            return base64.b64encode(value).decode()
    if hasattr(value, 'to_dict') and hasattr(value, 'getlist'):
        return {k: _plain(v if len(v) != 1 else v[0]) for k, v in value.to_dict(flat=False).items()}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _read_only_value(error):
    """openapi-core validates parameters as request data, so a parameter
    whose own schema says readOnly (GitHub's alert_number) is refused as
    "written"; readOnly is about object members, not a parameter's value."""
    cause = error.__cause__ if error.__cause__ is not None else error
    schema_errors = list(getattr(cause, 'schema_errors', []) or [])
    return bool(schema_errors) and all('read-only' in getattr(e, 'message', '') and not list(getattr(e, 'absolute_path', []))
                                       for e in schema_errors)


def _describe(error):
    cause = error.__cause__ if error.__cause__ is not None else error
    schema_errors = list(getattr(cause, 'schema_errors', []) or [])
    if schema_errors:
        first = schema_errors[0]
        where = '/'.join(str(p) for p in getattr(first, 'absolute_path', []))
        return f'{getattr(first, "message", first)}' + (f' at {where}' if where else '')
    try:
        return str(cause)
    except Exception:  # some openapi-core errors cannot format themselves
        return f'{type(cause).__name__} {getattr(cause, "value", "")!r}'


class _Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    # The headers and the body go out as two writes: with Nagle's algorithm
    # the body waits for the client's delayed ACK of the headers, 40 ms a
    # response on Linux (measured: 814 GitHub calls took 95 s, 60 of them idle).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def _any(self):
        length = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(length) if length else b''
        if not length and (self.headers.get('Transfer-Encoding') or '').lower() == 'chunked':
            body = self._chunked()
        status, media_type, raw = self.server.conformance.handle(self.command, self.path, self.headers, body)
        self.send_response(status)
        if media_type:
            self.send_header('Content-Type', media_type)
        self.send_header('Content-Length', str(len(raw)))
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(raw)

    def _chunked(self):
        chunks = []
        while True:
            size = int(self.rfile.readline().split(b';')[0].strip() or b'0', 16)
            if size == 0:
                self.rfile.readline()
                return b''.join(chunks)
            chunks.append(self.rfile.read(size))
            self.rfile.readline()

    do_GET = do_PUT = do_POST = do_DELETE = do_OPTIONS = do_HEAD = do_PATCH = do_TRACE = _any
