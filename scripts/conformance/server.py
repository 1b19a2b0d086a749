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
4. checks the text of each scalar on the wire against OpenAPI's
   serialisation (a boolean is `true` or `false`, an integer its digits),
   and refuses a query parameter the operation does not declare;
5. answers with the response the call plans (calls.py): a documented
   status, its documented headers, and a body of the media type a client
   reads (JSON for application/json and +json types, a string for text/*,
   bytes otherwise), which the request's Accept header must allow. Event
   streams (text/event-stream, application/jsonl, application/json-seq)
   get a stream of events sent in small chunks, cut at awkward places
   (inside a UTF-8 character, between a CR and its LF).

The server sits under a base path (`BASE_PATH`): the client's server URL
includes it, and a request that leaves it out fails.

Each failure is kept as (location, rule), e.g. ('query.expand', 'missing');
`result()` hands the call's failures and the response it sent to the
orchestrator, which checks the driver's report against that response.
"""
import base64
import copy
import email.parser
import email.policy
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

from jsonschema.exceptions import UnknownType
from jsonschema_path import SchemaPath
from openapi_core.datatypes import RequestParameters
from openapi_core.validation.request.exceptions import MissingRequestBody, ParametersError
from openapi_core.validation.request.validators import V30RequestValidator, V31RequestValidator
from werkzeug.datastructures import Headers, ImmutableMultiDict

import brackets
import pages as pages_module
import oas
import styles
from compare import DROPPABLE, differences
from synth import SynthesisError, _relative, merge_all_of

STREAM_TYPES = ('text/event-stream', 'application/jsonl', 'application/x-ndjson', 'application/json-seq')
# The path the server's URL ends with: requests must keep it.
BASE_PATH = '/conformance/v1'
# Where a 3xx without a documented Location points: a host no resolver knows.
REDIRECT_TARGET = 'https://redirect.invalid/conformance'
# A streamed body goes out in pieces of at most this many bytes.
STREAM_CHUNK = 7
# How long a streamed array waits for the client's first element.
STREAM_WAIT = 15


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
    event_meta: list = None    # server-sent events: each one's `event` and `id` ({'event': None, 'id': 'e0-0'})
    through_events: bool = False  # the call asked for the client's events method
    headers: dict = field(default_factory=dict)
    defaults: dict = field(default_factory=dict)
    pause_at: int = None       # a streamed array: bytes sent before the client's first element
    null_members: set = field(default_factory=set)


@dataclass
class Outcome:
    arrived: bool = False
    failures: list = field(default_factory=list)   # [(location, rule)]
    sent: Sent = None


class ConformanceServer:
    def __init__(self, doc, synth):
        self.doc = doc
        self.synth = synth
        # openapi-core's document with each path key as `core_path_key` writes it.
        self.spec = SchemaPath.from_dict({**doc, 'paths': {core_path_key(k): v for k, v in (doc.get('paths') or {}).items()}})
        cls = V30RequestValidator if oas.dialect(doc) == '3.0' else V31RequestValidator
        self.validator = cls(self.spec)
        self.lock = threading.Lock()
        self.expected = None
        self.outcome = Outcome()
        self.first_element = threading.Event()
        self.httpd = ThreadingHTTPServer(('127.0.0.1', 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.conformance = self
        self.thread = None

    @property
    def url(self):
        return f'http://127.0.0.1:{self.httpd.server_address[1]}{BASE_PATH}'

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
                return Sent(500, 'text/plain', 'text', 'no call expected', b'no call expected')
            op, call, entry = self.expected
            self.method_is_head = method == 'HEAD'
            outcome = self.outcome
            if call.pages is not None:
                return self.handle_page(op, call, entry, method, target, headers, body, outcome)
            if outcome.arrived:
                outcome.failures.append(('request', 'more than one request for the call'))
            outcome.arrived = True
            check = _RequestCheck(self, op, call, entry, method, target, headers, body)
            try:
                check.run()
            except Exception as error:  # a harness defect must not pass silently
                check.fail('request', f'checker error {type(error).__name__}: {error}')
            outcome.failures.extend(check.failures)
            sent = self.respond(call, headers, outcome)
            outcome.sent = sent
            return sent

    def handle_page(self, op, call, entry, method, target, headers, body, outcome):
        """A request of a paged call (pages.py): checked with the cursor the
        previous page gave, answered with the next planned page."""
        plan = call.pages
        index = plan.served
        plan.served += 1
        outcome.arrived = True
        if index >= len(plan.pages):
            outcome.failures.append(('request', f'a request for page {index + 1} after the last page ({len(plan.pages)})'))
            return Sent(500, 'text/plain', 'text', 'no such page', b'no such page')
        expected = copy.copy(call)
        expected.arguments = pages_module.arguments_for(call.arguments, plan, index)
        check = _RequestCheck(self, op, expected, entry, method, target, headers, body)
        try:
            check.run()
        except Exception as error:  # a harness defect must not pass silently
            check.fail('request', f'checker error {type(error).__name__}: {error}')
        outcome.failures.extend((f'page{index + 1}.{location}', rule) for location, rule in check.failures)
        value, page_headers = plan.pages[index]
        sent = encode_body(call.response.media_type, value, call)
        sent.status, sent.headers = call.response.status.code, dict(page_headers)
        outcome.sent = sent
        return sent

    def respond(self, call, headers, outcome):
        """The planned response of `call` as it goes out."""
        planned = call.response
        if planned.error:
            outcome.failures.append(('response', f'harness: cannot synthesize the response: {planned.error}'))
            return Sent(500)
        sent = Sent(planned.status.code, headers=dict(planned.headers), defaults=dict(planned.defaults),
                    null_members=set(planned.null_members))
        if planned.media_type is None or self.method_is_head:
            return sent
        if not _accepts(headers.get('Accept'), planned.media_type):
            outcome.failures.append(('header.Accept', f'{headers.get("Accept")!r} does not accept {planned.media_type}, '
                                                      f'the media type of the documented {planned.status.key} response'))
        body = encode_body(planned.media_type, planned.value, call)
        body.status, body.headers, body.defaults, body.null_members = sent.status, sent.headers, sent.defaults, sent.null_members
        body.through_events = bool(planned.event_stream)
        if planned.stream_member is not None and body.kind == 'json':
            body.raw, body.pause_at = streamed_array(planned.value, planned.stream_member)
            body.streaming = True
            self.first_element.clear()
        return body

    def late_stream(self):
        with self.lock:
            self.outcome.failures.append(('response.body', 'the client read the streamed body whole: no element reached the app '
                                                           f'before the body ended ({STREAM_WAIT} s after the first elements)'))

    def element_arrived(self):
        """The driver reported a streamed call's first element."""
        self.first_element.set()


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


def encode_body(media_type, value, call):
    """The body of `value` (None: the media type has no schema) as sent."""
    base = media_type.split(';')[0].strip().lower()
    if base in STREAM_TYPES:
        return stream_body(media_type, value, call)
    if is_json(base):
        value = {'any': 'value'} if value is None else value
        return Sent(0, media_type, 'json', value, json.dumps(value).encode(), False)
    if base.startswith('text/'):
        text = value if isinstance(value, str) else f'conformance text {call.index}'
        return Sent(0, media_type, 'text', text, text.encode())
    data = base64.b64decode(value) if isinstance(value, str) and _is_base64(value) else b'conformance \x00\x01\xfe\xff'
    return Sent(0, media_type, 'data', data, data)


def _is_base64(text):
    try:
        base64.b64decode(text, validate=True)
        return True
    except ValueError:
        return False


def streamed_array(value, member):
    """(the JSON text of a body whose array (`member`, or the body itself
    when '') holds STREAM_ELEMENTS elements, the offset after the
    STREAM_PAUSE-th element)."""
    from calls import STREAM_PAUSE
    items = value if member == '' else value[member]
    head = ''.join(json.dumps(item) + ', ' for item in items[:STREAM_PAUSE])
    tail = ', '.join(json.dumps(item) for item in items[STREAM_PAUSE:])
    if member == '':
        prefix = '[' + head
        return (prefix + tail + ']').encode(), len(prefix.encode())
    others = json.dumps({k: v for k, v in value.items() if k != member})
    opening = (others[:-1] + ', ' if len(others) > 2 else '{') + json.dumps(member) + ': ['
    prefix = opening + head
    return (prefix + tail + ']}').encode(), len(prefix.encode())


def stream_body(media_type, value, call):
    """Three events whose payloads are the planned value (an object when
    the spec gives none), the second with text outside ASCII so that a
    chunk boundary falls inside a UTF-8 character. Each call writes its
    stream another way the formats allow, to try to break the client's
    reader: server-sent events with CR LF, LF or CR line ends in turn, a
    byte order mark, comments, an unknown field, `retry`, a field without a
    colon, `data` without its space, data split over several lines, an
    `event` name on some events and an `id` that carries over to the next;
    JSON Lines with CR LF and blank lines; JSON Sequences with an empty
    record."""
    base = media_type.split(';')[0].strip().lower()
    if value is None:
        # No schema: each element is its text, compared exactly (a second
        # line in an event's data, where the format allows one).
        events = [f'text, call {call.index}', 'caf\u00e9 \u4e2d \U0001F600' + ('\nand a second line' if base == 'text/event-stream' else ''),
                  '{"not": "decoded"}']
    else:
        events = [value, value, value]
    meta = None
    if base == 'text/event-stream':
        end = ('\r\n', '\n', '\r')[call.index % 3]
        lines = ['\ufeff: a byte order mark, then a comment' if call.index % 2 else ': a comment', 'retry: 2500', 'x-unknown: ignored', '']
        meta = []
        for i, payload in enumerate(events):
            text = payload if value is None else json.dumps(payload, ensure_ascii=False)
            name = 'update' if i == 1 else None
            if name:
                lines.append(f'event: {name}')
            if i != 2:
                lines.append(f'id: e{call.index}-{i}')
            if i == 1:
                # Over several data lines, joined by line feeds: the text's
                # own lines, or the JSON written over several (and a last
                # empty line, which adds a line feed JSON reads as space).
                pretty = (payload if value is None else json.dumps(payload, ensure_ascii=False, indent=1)).split('\n')
                lines += [f'data: {line}' for line in pretty] + ([] if value is None else ['data'])
            elif i == 2:
                lines += [f'data:{text}', ': between events']
            else:
                lines.append(f'data: {text}')
            lines.append('')
            meta.append({'event': name, 'id': f'e{call.index}-{min(i, 1)}'})
        text = end.join(lines) + end
    elif base == 'application/json-seq':
        records = [v if value is None else json.dumps(v, ensure_ascii=False) for v in events]
        text = f'\x1e{records[0]}\n\x1e{records[1]}\n\x1e\n\x1e{records[2]}\n'
    else:
        records = [v if value is None else json.dumps(v, ensure_ascii=False) for v in events]
        text = records[0] + '\r\n\n' + ''.join(record + '\n' for record in records[1:])
    sent = Sent(0, media_type, 'text', text, text.encode(), True, events)
    sent.event_meta = meta
    return sent


def read_sequential(body, format_name):
    """The texts of the elements of a received sequential body, read here:
    JSON Lines split at LF (CR LF too, blank lines skipped), JSON Text
    Sequences at RS (RFC 7464, empty records skipped), server-sent events by
    the WHATWG rules (lines end at CR LF, LF or CR; `data` fields joined by
    LF; a blank line dispatches an event that has a `data` field)."""
    text = body.decode('utf-8', 'replace')
    if format_name == 'jsonLines':
        return [line.rstrip('\r') for line in text.split('\n') if line.strip()]
    if format_name == 'jsonSequence':
        return [record.strip() for record in text.split('\x1e') if record.strip()]
    if text.startswith('\ufeff'):
        text = text[1:]
    events, data = [], None
    for line in re.split(r'\r\n|\r|\n', text):
        if line == '':
            if data is not None:
                events.append('\n'.join(data))
            data = None
            continue
        if line.startswith(':'):
            continue
        name, _, value = line.partition(':')
        if value.startswith(' '):
            value = value[1:]
        if name == 'data':
            data = (data or []) + [value]
    return events


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
        if not url.path.startswith(BASE_PATH + '/') and url.path != BASE_PATH:
            self.fail('path', f'{url.path} leaves out the server URL\'s path {BASE_PATH}')
            return
        request_path = url.path[len(BASE_PATH):] or '/'
        regex, names = path_regex(self.op.path_template)
        match = regex.match(request_path)
        if not match:
            self.fail('path', f'{request_path} does not match {self.op.path_template}')
            return
        sent_pairs = parse_qsl(url.query, keep_blank_values=True)
        for name, value in self.op.fixed_query:
            if (name, value) not in sent_pairs:
                self.fail(f'query.{name}', f'the path\'s own query {name}={value} was not sent')
        fixed_names = {name for name, _ in self.op.fixed_query}
        self.raw_path = {name: match.group(f'v{i}') for i, name in enumerate(names)}
        path_values = {name: unquote(match.group(f'v{i}')) for i, name in enumerate(names)}
        self.query_text = url.query
        query = ImmutableMultiDict(parse_qsl(url.query, keep_blank_values=True))
        cookies = {}
        self.cookie_pairs = []
        for header in self.headers.get_all('Cookie') or []:
            for item in header.split(';'):
                name, _, value = item.strip().partition('=')
                if name:
                    self.cookie_pairs.append((name, value))
                    cookies.setdefault(name, value)
        header_list = Headers([(k, v) for k, v in self.headers.items()])
        parameters = RequestParameters(path=path_values, query=query, header=header_list, cookie=ImmutableMultiDict(cookies))
        self.presence = {'path': set(path_values), 'query': set(k for k, _ in parse_qsl(url.query, keep_blank_values=True)) - fixed_names,
                         'header': {k.lower() for k in self.headers.keys()}, 'cookie': set(cookies)}
        self.raw_cookies = cookies
        self.check_undeclared(sent_pairs, fixed_names)
        self.check_parameters(parameters)
        self.check_wire_text(sent_pairs)
        self.check_body()

    # -- the wire ---------------------------------------------------------------

    def parameter_schema(self, parameter):
        """The parameter's schema, allOf merged, and a nullable union of one
        other branch read as that branch (`anyOf: [{type: object, ...},
        {type: 'null'}]`): no style writes null."""
        synth = self.server.synth
        schema = merge_all_of(synth, parameter.node.get('schema', {}))
        for key in ('anyOf', 'oneOf'):
            branches = schema.get(key) if isinstance(schema, dict) else None
            if isinstance(branches, list):
                others = [b for b in branches if not _is_null_only(synth, b)]
                if len(others) == 1:
                    return merge_all_of(synth, others[0])
        return schema

    def open_form_map(self, parameter):
        """Whether the parameter is an exploded form map (`additionalProperties`
        and no `properties`): its keys are the query's names."""
        schema = self.parameter_schema(parameter)
        return parameter.location == 'query' and parameter.style == 'form' and bool(parameter.explode) and \
            isinstance(schema, dict) and not schema.get('properties') and schema.get('additionalProperties') not in (None, False)

    def map_names(self, parameter, pairs):
        """The query names an exploded form map holds: those no other
        parameter declares."""
        claimed = {name for name, _ in self.op.fixed_query}
        for other in self.op.parameters:
            if other is not parameter and other.location == 'query':
                claimed |= {n for n in self.declared_query_names(other) if n is not None}
        return tuple(dict.fromkeys(key for key, _ in pairs if key.split('[', 1)[0] not in claimed))

    def declared_query_names(self, parameter):
        """The query names a parameter may write: its own, `name[...]` for
        deepObject, and an exploded form object's member names."""
        schema = self.parameter_schema(parameter)
        names = {parameter.name}
        if parameter.location == 'querystring' and not (parameter.content_type or '').lower().startswith('application/x-www-form-urlencoded'):
            # A querystring of another media type (JSON) is one text, not name=value pairs.
            return {None}
        if parameter.style != 'deepObject' and parameter.explode and isinstance(schema, dict):
            names |= set(schema.get('properties') or {})
            if schema.get('additionalProperties') not in (None, False):
                names.add(None)  # a map's keys are data: any name
        return names

    def check_undeclared(self, pairs, fixed_names):
        declared = set(fixed_names)
        open_names = False
        for parameter in self.op.parameters:
            if parameter.location not in ('query', 'querystring'):
                continue
            names = self.declared_query_names(parameter)
            open_names |= None in names
            declared |= {n for n in names if n is not None}
        if open_names:
            return
        for name, _ in pairs:
            base = name.split('[', 1)[0]
            if name not in declared and base not in declared:
                self.fail(f'query.{name}', 'undeclared query parameter')

    def check_wire_text(self, pairs):
        """A boolean is written `true` or `false`, an integer as its digits,
        in every location (OpenAPI: the value's JSON text, unquoted)."""
        arguments = self.call.arguments
        for parameter in self.op.parameters:
            expected = arguments.get(parameter.location, {}).get(parameter.name)
            if expected is None or parameter.content_type:
                continue
            schema = merge_all_of(self.server.synth, parameter.node.get('schema', {}))
            texts = self.wire_texts(parameter, pairs)
            if texts is None:
                continue
            values = expected if isinstance(expected, list) else [expected]
            if not all(isinstance(v, (bool, int)) and not isinstance(v, float) for v in values) or not values:
                continue
            wanted = [('true' if v else 'false') if isinstance(v, bool) else str(v) for v in values]
            if texts != wanted:
                self.fail(f'{parameter.location}.{parameter.name}', f'wire text {texts} != {wanted} (OpenAPI writes a boolean '
                                                                    f'true or false, an integer as its digits)')

    def wire_texts(self, parameter, pairs):
        """The scalar texts a primitive or an array parameter arrived as, or
        None where this check does not read the style."""
        delimiters = {'form': ',', 'simple': ',', 'spaceDelimited': ' ', 'pipeDelimited': '|'}
        if parameter.location == 'query' and parameter.style in delimiters:
            found = [v for k, v in pairs if k == parameter.name]
            if parameter.explode or len(found) != 1:
                return found
            return found[0].split(delimiters[parameter.style]) if found[0] else []
        if parameter.location == 'header' and parameter.style == 'simple':
            text = self.headers.get(parameter.name)
            return None if text is None else [t.strip() for t in text.split(',')]
        if parameter.location == 'path' and parameter.style == 'simple':
            text = self.raw_path.get(parameter.name)
            return None if text is None else [unquote(t) for t in text.split(',')]
        if parameter.location == 'cookie' and parameter.style == 'form':
            text = self.raw_cookies.get(parameter.name)
            return None if text is None else [unquote(t) for t in text.split(',')]
        return None

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
        if parameter.location == 'querystring':
            # The whole query string: there when the query holds anything
            # beyond what the path template fixes.
            return bool(self.presence['query'])
        names = self.presence[parameter.location]
        if parameter.location == 'header':
            return parameter.name.lower() in names
        if parameter.location == 'query':
            if parameter.name in names or any(n.startswith(parameter.name + '[') for n in names):
                return True
            schema = self.parameter_schema(parameter)
            if parameter.style != 'deepObject' and parameter.explode and isinstance(schema, dict) and 'properties' in schema:
                return any(p in names for p in schema['properties'])
            if self.open_form_map(parameter):
                return bool(self.map_names(parameter, styles.raw_pairs(self.query_text)))
            return False
        if parameter.location == 'cookie' and parameter.explode:
            schema = merge_all_of(self.server.synth, parameter.node.get('schema', {}))
            if isinstance(schema, dict) and 'properties' in schema and any(p in names for p in schema['properties']):
                return True
        return parameter.name in names

    def reads_itself(self, parameter):
        """Whether the harness reads the parameter with its own style reader
        (styles.py): the styles openapi-core does not read."""
        if parameter.location == 'querystring' or parameter.style == 'cookie':
            return True  # OpenAPI 3.2's: openapi-core reads neither
        if parameter.content_type or parameter.location == 'query' and parameter.style == 'deepObject':
            return False
        if parameter.style in ('label', 'matrix', 'spaceDelimited', 'pipeDelimited') or self.open_form_map(parameter):
            return True
        kind = styles.kind_of(self.parameter_schema(parameter))
        # An unexploded array or object: its items are split where the client
        # wrote the delimiter, before decoding (a `,` inside an item is `%2C`).
        return kind != 'primitive' and (parameter.location in ('header', 'cookie', 'path') or not parameter.explode)

    def own_reading(self, parameter):
        """The parameter's value by the harness's own style reader, coerced to
        its schema and validated; MISSING when it is not there."""
        schema = self.parameter_schema(parameter)
        kind = styles.kind_of(schema)
        members = tuple((schema.get('properties') or {}) if isinstance(schema, dict) else ())
        if self.open_form_map(parameter):
            members = self.map_names(parameter, styles.raw_pairs(self.query_text))
        if parameter.location == 'querystring' and parameter.content_type and is_json(parameter.content_type):
            # The whole query string is the value's JSON text, percent-encoded.
            try:
                raw = json.loads(unquote(self.query_text)) if self.query_text else styles.MISSING
            except ValueError as error:
                self.fail(f'querystring.{parameter.name}', f'not JSON: {error}')
                return styles.MISSING
        elif parameter.location == 'path':
            raw = styles.read_path(self.raw_path.get(parameter.name), parameter.style, parameter.explode, kind, parameter.name)
        elif parameter.location in ('query', 'querystring'):
            raw = styles.read_query(styles.raw_pairs(self.query_text), parameter.style, parameter.explode, kind,
                                    parameter.name, members)
        elif parameter.location == 'header':
            raw = styles.read_header(self.headers.get(parameter.name), parameter.explode, kind)
        else:
            # The cookie style (3.2): the value as the app escaped it, never decoded here.
            raw = styles.read_cookie(self.cookie_pairs, parameter.explode, kind, parameter.name, members,
                                     decode=parameter.style != 'cookie')
        if raw is styles.MISSING:
            return raw
        value = brackets.coerce(raw, parameter.node.get('schema', {}), lambda s: merge_all_of(self.server.synth, s))
        for message in self.server.synth.errors(parameter.schema_pointer, value, 'parameter'):
            self.fail(f'{parameter.location}.{parameter.name}', f'invalid: {message}')
        return value

    def check_parameters(self, parameters):
        path_item = self.server.spec / 'paths' / core_path_key(self.op.path)
        operation = core_operation(path_item, self.op)
        try:
            values = self.server.validator._get_parameters(parameters, operation, path_item)
            errors = []
        except ParametersError as error:
            values, errors = error.parameters, error.errors
        except Exception:  # openapi-core cannot read this operation's parameters at all: the harness's own reader does
            values, errors = None, []
        own = {(p.name, p.location) for p in self.op.parameters if values is None or self.reads_itself(p)}
        fallback = {p.name for p in self.op.parameters if self.needs_brackets(p)}
        for error in errors:
            name, location = getattr(error, 'name', None), getattr(error, 'location', None)
            if name in fallback and location == 'query' or (name, location) in own:
                continue
            if self.ignorable(error) or self.empty_value_allowed(error, name, location) or _read_only_value(error):
                continue
            if self.default_of_absent(name, location):
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
            if (parameter.name, parameter.location) in own:
                actual = self.own_reading(parameter)
                if actual is styles.MISSING:
                    self.fail(where, 'missing (by its style)')
                    continue
            elif parameter.name in fallback:
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
                if parameter.location in ('header', 'cookie') and isinstance(actual, str):
                    actual = styles.utf8(actual)
                if parameter.content_type and isinstance(actual, (str, bytes)) and is_json(parameter.content_type):
                    actual = json.loads(actual)
            if parameter.name in fallback or parameter.style == 'deepObject':
                expected, actual = _without_empty(expected), _without_empty(actual)
            for location, rule in differences(expected, _plain(actual), where):
                self.fail(location, rule)

    def own_json_body(self):
        """The JSON body as read here, checked against its schema with the
        rules `synth.errors` forgives (nulls the call sent among them)."""
        try:
            value = json.loads(self.body or b'null')
        except ValueError as error:
            self.fail('body', f'not JSON: {error}')
            return _ABSENT
        request = self.entry.get('requestBody') or {}
        pointer = self.schema_pointer(request) if request else None
        record = getattr(self.call, 'record', None)
        allowed = _relative(record.null_members, 'body') if record is not None else set()
        for message in (self.server.synth.errors(pointer, value, 'request', allowed_nulls=allowed) if pointer else []):
            self.fail('body', f'invalid: {message}')
        return value

    def own_text_body(self, request):
        """A text body as read here (UTF-8), checked against its schema."""
        text = (self.body or b'').decode('utf-8', 'replace')
        pointer = self.schema_pointer(request)
        for message in (self.server.synth.errors(pointer, text, 'request') if pointer else []):
            self.fail('body', f'invalid: {message}')
        return text

    def default_of_absent(self, name, location):
        """Whether the parameter is absent and has a schema `default`:
        openapi-core then checks the default in its place, which is the
        spec's to get right (PayPal's `start_time` defaults to the words
        "Current date and time" under a date-time pattern), not the client's."""
        for parameter in self.op.parameters:
            if parameter.name == name and parameter.location == location:
                schema = self.parameter_schema(parameter)
                return isinstance(schema, dict) and 'default' in schema and not self.present(parameter)
        return False

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
        # The rules the synthesizer's own check forgives (synth.py): an
        # implicit discriminator, a hidden member, and null where the call
        # sent null to a member its schema makes nullable.
        record = getattr(self.call, 'record', None)
        allowed = _relative(record.null_members, 'body') if record is not None else set()
        return bool(schema_errors) and all(self.server.synth.forgiven(e, 'request', allowed) for e in schema_errors)

    # -- body -------------------------------------------------------------------

    def check_body(self):
        if 'bodyEvents' in self.call.arguments:
            self.check_body_events()
            return
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
        if encoding == 'form' and self.form_has_styled_encoding(request):
            actual = self.styled_form_body(request)
        elif encoding == 'form':
            # Every form is read here: openapi-core reads neither nested
            # members nor some flat forms (it handed back None for Box's).
            actual = self.bracket_body(request)
        elif encoding == 'multipart':
            actual = self.multipart_body(request)
        elif encoding == 'data':
            actual = None  # compared as bytes below; openapi-core validates raw bodies as text
        elif encoding == 'text' and mime != 'text/plain':
            # openapi-core decodes text/plain alone and hands other text
            # (text/event-stream, text/csv) back as bytes: read here.
            actual = self.own_text_body(request)
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
        record = getattr(self.call, 'record', None)
        droppable = {k: v for k, v in (record.defaults if record is not None else {}).items() if v is DROPPABLE}
        for location, rule in differences(expected, _plain(actual), 'body', droppable):
            self.fail(location, rule)

    def check_body_events(self):
        """A body sent as a sequence of elements: its Content-Type, and each
        element read here by the format's rules, compared with the one the
        call passed and checked against the elements' schema."""
        sent = self.entry.get('requestEvents') or {}
        expected = self.call.arguments['bodyEvents']
        mime = (self.headers.get('Content-Type') or '').split(';')[0].strip().lower()
        declared = sent.get('contentType', '').split(';')[0].strip().lower()
        if mime != declared:
            self.fail('header.Content-Type', f'{mime or "none"} != expected {declared}')
        format_name = oas.sequential_format(declared)
        texts = read_sequential(self.body or b'', format_name)
        if len(texts) != len(expected):
            self.fail('body.events', f'{len(texts)} elements read, {len(expected)} sent')
        body, body_pointer = oas.request_body(self.server.doc, self.op)
        pointer = oas.stream_item_pointer(self.server.doc, body, body_pointer, sent.get('contentType'))
        for index, (text, value) in enumerate(zip(texts, expected)):
            where = f'body.events[{index}]'
            if pointer is None:
                # A text goes as it is; an event's line breaks arrive as LF.
                wanted = re.sub(r'\r\n|\r', '\n', value) if format_name == 'serverSentEvents' else value
                if text != wanted:
                    self.fail(where, f'{text[:60]!r} != expected {wanted[:60]!r}')
                continue
            try:
                actual = json.loads(text)
            except ValueError as error:
                self.fail(where, f'not JSON: {error}')
                continue
            for message in self.server.synth.errors(pointer, actual, 'request'):
                self.fail(where, f'invalid: {message}')
            for location, rule in differences(value, _plain(actual), where):
                self.fail(location, rule)

    def form_encodings(self, request):
        body = oas.request_body(self.server.doc, self.op)[0] or {}
        return (body.get('content') or {}).get(request['contentType'], {}).get('encoding') or {}

    def form_has_styled_encoding(self, request):
        """Whether a field of the form sets a style other than deepObject, or
        explode: read by the style rules (styles.py), as openapi-core does not."""
        return any(isinstance(e, dict) and (e.get('style') in ('spaceDelimited', 'pipeDelimited')
                                            or (e.get('style', 'form') == 'form' and e.get('explode') is False))
                   for e in self.form_encodings(request).values())

    def styled_form_body(self, request):
        """A form body whose fields are read each by its encoding's style."""
        text = (self.body or b'').decode('utf-8', 'replace')
        pairs = styles.raw_pairs(text)
        pointer = self.schema_pointer(request)
        schema = merge_all_of(self.server.synth, oas.at(self.server.doc, pointer)) if pointer else {}
        encodings = self.form_encodings(request)
        value = {}
        claimed = set()
        for name, member in (schema.get('properties') or {}).items():
            member = merge_all_of(self.server.synth, member)
            encoding = encodings.get(name) or {}
            style = encoding.get('style', 'form')
            explode = encoding.get('explode', style == 'form')
            kind = styles.kind_of(member)
            members = tuple((member.get('properties') or {}) if isinstance(member, dict) else ())
            read = styles.read_query(pairs, style, explode, kind, name, members)
            if read is not styles.MISSING:
                value[name] = read
                claimed.add(name)
                if kind == 'object' and explode and style == 'form':
                    claimed |= set(members)
        value = brackets.coerce(value, oas.at(self.server.doc, pointer), lambda s: merge_all_of(self.server.synth, s)) if pointer else value
        for key, _ in pairs:
            if key.split('[', 1)[0] not in claimed:
                self.fail(f'body.{key}', 'a form field the schema does not declare')
        if pointer:
            for message in self.server.synth.errors(pointer, value, 'request'):
                self.fail('body', f'invalid: {message}')
        return value

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
        media = (body.get('content') or {}).get(request['contentType'], {})
        if isinstance(schema, dict) and (schema.get('type') == 'array' or 'items' in schema):
            return self.positional_parts(message, pointer, schema, media)
        encodings = media.get('encoding') or {}
        value = {}
        as_json = set()
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
                    as_json.add(name)
                except ValueError:
                    item = payload.decode('utf-8', 'replace')
            else:
                item = brackets.coerce(payload.decode('utf-8', 'replace'), member, lambda s: merge_all_of(self.server.synth, s))
            if name in value:
                value[name] = (value[name] if isinstance(value[name], list) else [value[name]]) + [item]
            else:
                value[name] = item
        if pointer:
            # Text parts take their schema's types (a repeated name is an
            # array); a JSON part is read as JSON already, its null a null.
            coerced = brackets.coerce(value, oas.at(self.server.doc, pointer), lambda s: merge_all_of(self.server.synth, s))
            if isinstance(coerced, dict):
                value = {k: (value[k] if k in as_json else v) for k, v in coerced.items()}
            for message_text in self.server.synth.errors(pointer, value, 'request'):
                self.fail('body', f'invalid: {message_text}')
        return value

    def positional_parts(self, message, pointer, schema, media):
        """A multipart body of an array: each part an item, by position, its
        media type the one OpenAPI 3.2's `prefixEncoding` (the first items)
        or `itemEncoding` (the rest) names, JSON read as JSON, binary as
        base64, text coerced to the item schema; no part names a field."""
        prefix = [e.get('contentType') for e in (media.get('prefixEncoding') or []) if isinstance(e, dict)]
        item_type = (media.get('itemEncoding') or {}).get('contentType') if isinstance(media.get('itemEncoding'), dict) else None
        items = merge_all_of(self.server.synth, schema.get('items') or {})
        value = []
        for index, part in enumerate(message.iter_parts()):
            where = f'body[{index}]'
            if part.get('Content-Disposition'):
                self.fail(where, f'a part by position carries Content-Disposition: {part.get("Content-Disposition")}')
            declared = prefix[index] if index < len(prefix) else item_type
            part_type = (part.get_content_type() or '').lower()
            if declared and part_type != declared.split(',')[0].split(';')[0].strip().lower():
                self.fail(f'{where}.Content-Type', f'{part_type} != expected {declared}')
            payload = part.get_payload(decode=True) or b''
            if _is_binary(items):
                value.append(base64.b64encode(payload).decode())
            elif is_json(part_type):
                try:
                    value.append(json.loads(payload))
                except ValueError as error:
                    self.fail(where, f'not JSON: {error}')
                    value.append(None)
            else:
                value.append(brackets.coerce(payload.decode('utf-8', 'replace'), items, lambda s: merge_all_of(self.server.synth, s)))
        for message_text in self.server.synth.errors(pointer, value, 'request'):
            self.fail('body', f'invalid: {message_text}')
        return value

    def openapi_core_body(self, content_type):
        mime = content_type.split(';')[0].strip().lower()
        if is_json(mime) and mime != 'application/json':
            # openapi-core reads `application/json` alone as JSON; a `+json`
            # type (application/json-patch+json) it hands back as bytes.
            return self.own_json_body()
        operation = core_operation(self.server.spec / 'paths' / core_path_key(self.op.path), self.op)
        try:
            return self.server.validator._get_body(self.body, content_type.lower() or 'application/octet-stream', operation)
        except MissingRequestBody:
            return _ABSENT
        except RecursionError:
            # openapi-core recurses through a recursive schema without end
            # (OpenAI's conversation items): the body is read and validated here.
            return self.own_json_body()
        except Exception as error:  # openapi-core wraps every body failure
            if not self.ignorable(error):
                self.fail('body', f'openapi-core: {_describe(error)}')
            try:
                return json.loads(self.body)
            except ValueError:
                return _ABSENT


_ABSENT = object()


def core_operation(path_item, op):
    """openapi-core's view of `op` in its path item: by its keys there
    (`query`, `additionalOperations/PURGE` in 3.2), its method otherwise."""
    operation = path_item
    for key in (op.keys or (op.method.lower(),)):
        operation = operation / key
    return operation


def core_path_key(path):
    """A path key as the harness hands it to openapi-core's document: its
    path reader splits a key at `#` (Box's `/files/{file_id}#add_shared_link`
    named nothing, and the body read as None), so `#` is written `%23`."""
    return path.replace('#', '%23')


def _is_null_only(synth, node):
    node = synth.resolve(node)
    return isinstance(node, dict) and (node.get('type') == 'null' or node.get('enum') == [None])


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
        try:
            self._answer()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away: the call's result says what it saw
        except Exception as error:  # a harness defect is the call's named failure, not an empty reply
            conformance = self.server.conformance
            with conformance.lock:
                conformance.outcome.failures.append(('response', f'harness: the server failed: {type(error).__name__}: {error}'))

    def _answer(self):
        length = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(length) if length else b''
        if not length and (self.headers.get('Transfer-Encoding') or '').lower() == 'chunked':
            body = self._chunked()
        sent = self.server.conformance.handle(self.command, self.path, self.headers, body)
        self.send_response(sent.status)
        if sent.media_type:
            self.send_header('Content-Type', sent.media_type)
        for name, value in sent.headers.items():
            self.send_header(name, value)
        if 300 <= sent.status < 400 and 'location' not in {name.lower() for name in sent.headers}:
            # The driver's transport follows no redirect, so the client reads
            # the 3xx as documented; a client that follows it fails to reach
            # this host (RFC 6761: .invalid never resolves).
            self.send_header('Location', REDIRECT_TARGET)
        if sent.streaming:
            # In small pieces: a client must read a stream as it comes.
            self.send_header('Transfer-Encoding', 'chunked')
            self.end_headers()
            chunk = STREAM_CHUNK if sent.pause_at is None else 4096
            start = 0
            while start < len(sent.raw):
                end = min(start + chunk, len(sent.raw))
                if sent.pause_at is not None and start < sent.pause_at < end:
                    end = sent.pause_at
                piece = sent.raw[start:end]
                self.wfile.write(b'%x\r\n%s\r\n' % (len(piece), piece))
                self.wfile.flush()
                if end == sent.pause_at and not self.server.conformance.first_element.wait(STREAM_WAIT):
                    self.server.conformance.late_stream()
                start = end
            self.wfile.write(b'0\r\n\r\n')
            return
        self.send_header('Content-Length', str(len(sent.raw)))
        self.end_headers()
        if self.command != 'HEAD' and sent.status not in (204, 205, 304):
            self.wfile.write(sent.raw)

    def _chunked(self):
        chunks = []
        while True:
            size = int(self.rfile.readline().split(b';')[0].strip() or b'0', 16)
            if size == 0:
                self.rfile.readline()
                return b''.join(chunks)
            chunks.append(self.rfile.read(size))
            self.rfile.readline()

    do_GET = do_PUT = do_POST = do_DELETE = do_OPTIONS = do_HEAD = do_PATCH = do_TRACE = do_QUERY = _any

    def __getattr__(self, name):
        # Any other method (an OpenAPI 3.2 additional operation's, `PURGE`)
        # is answered the same way: the request check says whether it is the
        # operation's.
        if name.startswith('do_'):
            return self._any
        raise AttributeError(name)
