"""The calls the harness makes to one operation, planned from the spec.

Which parameters exist, which are required and whether the body is
required are read from the spec (`oas.py`); the client's manifest is
checked against them (`manifest_failures`), never the other way round.
Each call is a request (arguments for every parameter the spec declares,
headers OpenAPI reserves for the transport aside) and the response the
server answers it with (a documented status, its body and its documented
headers), both synthesized (`synth.py`) and kept on the call, so the server
sends exactly what was planned.

The calls, as many as it takes to cover what the operation documents
(`inventory.py`), up to MAX_CALLS:

* "full" with variant 0, and "minimal" (required members only, no member
  whose `default` a reader assumes);
* one call per documented status not yet answered;
* "nulls<k>" calls: every nullable member with k nullable members above
  it is null, in the request and in the response, for each branch choice
  that reaches more of them;
* "full" with variants 1, 2, ...: aimed at the enum values and oneOf/anyOf
  branches no call has taken yet (each enum takes one of them, each union
  a branch that is one or leads to one; else value k and branch k), with
  numbers at their edges and date-times with fractions and offsets, while
  they cover enum values or branches not yet covered (and at least
  EDGE_VARIANTS of them when a number or date appears).

A call's planned values are simulated with a `synth.Record`, so the plan
knows what each call covers; the COVERAGE line sums them.
"""
import base64
from dataclasses import dataclass, field

import inventory
import oas
from synth import Record, SynthesisError

MAX_CALLS = 40
# Path parameter values no request can carry as a segment of their own.
UNADDRESSABLE_SEGMENTS = ('', [], {}, '.', '..')
# A streamed array (x-stream-array) is sent with this many elements; the
# server holds the rest of the body after STREAM_PAUSE of them until the
# client reports its first element (a client decodes in batches of 256).
STREAM_ELEMENTS = 300
STREAM_PAUSE = 280
EDGE_VARIANTS = 6
MAX_NULL_DEPTH = 4
LOCATIONS = ('path', 'query', 'header', 'cookie', 'querystring')
# A body sent as a sequence of elements (the events method's `events`)
# has this many; the texts of elements the spec gives no schema, by format:
# JSON Lines and Sequences carry one JSON text each, an event's data may
# hold line breaks of each kind.
BODY_EVENTS = 3
TEXT_EVENTS = {
    'serverSentEvents': ['one line', 'café 中 😀\nover two lines', 'CR LF\r\nthen CR\rend', ''],
    'jsonLines': ['{"n":1}', '{"text":"café 中 😀"}', '[1,2,3]'],
    'jsonSequence': ['{"n":1}', '"a string"', '{"nested":{"list":[]}}'],
}


@dataclass
class Response:
    """What the server answers a call with."""
    status: inventory.Status
    media_type: str = None
    value: object = None        # the JSON value (or text) of the body
    defaults: dict = field(default_factory=dict)  # members left out -> their default
    null_members: set = field(default_factory=set)  # members sent as null
    headers: dict = field(default_factory=dict)   # documented headers -> text
    error: str = None
    stream_member: object = None  # for a streamed array: the member holding it ('' when the body is the array)
    event_stream: str = None    # a sequential media type read through the client's events method


@dataclass
class Call:
    key: str
    index: int
    mode: str        # full, minimal or nulls<k>
    choice: int      # the oneOf/anyOf branch index
    variant: int
    arguments: dict
    response: Response = None
    record: Record = None
    error: str = None  # set when the arguments could not be synthesized
    pages: object = None  # a paged call's pages.PagePlan

    def request_line(self):
        line = {'key': self.key, 'call': self.index, 'arguments': self.arguments}
        if self.pages is not None:
            line['pages'] = {'stopAfter': self.pages.stop_after, 'cancel': self.pages.cancels}
        if self.response is not None and self.response.event_stream:
            line['stream'] = self.response.event_stream
        return line


def _parameters(op):
    return [p for p in op.parameters if not (p.location == 'header' and p.name.lower() in inventory.IGNORED_HEADERS)]


def manifest_failures(doc, op, entry):
    """[(location, rule)] where the client's manifest disagrees with the
    spec: a parameter it does not expose or makes optional, a body it does
    not take or makes optional."""
    failures = []
    exposed = {(p['name'], p['in']): p for p in entry.get('parameters', [])}
    for parameter in _parameters(op):
        found = exposed.get((parameter.name, parameter.location))
        if found is None:
            failures.append((f'{parameter.location}.{parameter.name}', 'the client does not expose this parameter'))
        elif bool(found.get('required')) != parameter.required:
            failures.append((f'{parameter.location}.{parameter.name}',
                             f'the client makes it {"required" if found.get("required") else "optional"}, the spec '
                             f'{"required" if parameter.required else "optional"}'))
    body, _ = oas.request_body(doc, op)
    request = entry.get('requestBody')
    if body and body.get('content'):
        if request is None:
            failures.append(('body', 'the client takes no body'))
        elif bool(request.get('required')) != bool(body.get('required')):
            failures.append(('body', f'the client makes the body {"required" if request.get("required") else "optional"}, '
                                     f'the spec {"required" if body.get("required") else "optional"}'))
        elif request.get('contentType') not in body['content']:
            failures.append(('header.Content-Type', f'the client sends {request.get("contentType")}, which the spec does not offer'))
        elif oas.sequential_format(request.get('contentType')):
            # A sequential body is also taken as a sequence of elements, typed where the spec gives them a schema.
            sent = entry.get('requestEvents')
            typed = oas.stream_item_pointer(doc, body, oas.request_body(doc, op)[1], request['contentType']) is not None
            if sent is None:
                failures.append(('body', f'the client takes no sequence of elements for its {request["contentType"]} body'))
            elif bool(sent.get('typed')) != typed:
                failures.append(('body', f'the client takes {"typed elements" if sent.get("typed") else "texts"}, the spec gives the elements '
                                         f'{"a schema" if typed else "none"}'))
    return failures


def _parameter_value(synth, parameter, mode, variant, record, seek=frozenset()):
    pointer = parameter.schema_pointer
    if pointer is None:
        return 'value'
    # Parameters are never null: the nulls calls send them full.
    parameter_mode = 'full' if mode.startswith('nulls') else mode
    value = synth.value(pointer, mode=parameter_mode, direction='parameter', variant=variant, salt=parameter.name, record=record,
                        seek=seek)
    if parameter.location == 'path' and value in UNADDRESSABLE_SEGMENTS:
        # An empty path segment addresses nothing (`/apps//endpoints`), and
        # `.` and `..` are dot-segments every URL parser removes (RFC 3986,
        # 5.2.4; `%2E` is the same character): servers route them elsewhere.
        for salt in ('nonempty', 'nonempty2', 'nonempty3', 'nonempty4', 'nonempty5'):
            value = synth.value(pointer, mode='full', direction='parameter', variant=variant + 1, salt=parameter.name + salt)
            if value not in UNADDRESSABLE_SEGMENTS:
                break
    # A delimiter inside an item of a style that writes it as it writes the
    # item's own (a space in spaceDelimited, `|` in pipeDelimited, `,` in a
    # header or a cookie) cannot be read back by anyone: OpenAPI gives it
    # no escape. Such characters become `_` in items.
    if parameter.location == 'header' and not parameter.content_type:
        # Visible ASCII: a header value has no agreed encoding for anything
        # else (RFC 9110, 5.5), and transports differ in what they send.
        ascii_value = _ascii(value)
        if ascii_value != value and synth.is_valid(pointer, ascii_value, 'parameter'):
            value = ascii_value
    ambiguous = {'spaceDelimited': ' ', 'pipeDelimited': '|'}.get(parameter.style) or \
        (',' if parameter.location in ('header', 'cookie') else None)
    if ambiguous and isinstance(value, (list, dict)) and not parameter.content_type:
        cleaned = _without(value, ambiguous)
        if cleaned != value and synth.is_valid(pointer, cleaned, 'parameter'):
            value = cleaned
    if parameter.style == 'cookie' and isinstance(value, str):
        # OpenAPI 3.2's cookie style: the app escapes the value and the
        # client sends it as it is. The value is made of what a cookie may
        # hold (RFC 6265's cookie-octet) and carries an escape of its own,
        # which a client that escaped it again would send as `%252C`.
        for candidate in (''.join(c if _cookie_octet(c) else '_' for c in value) + '%2C',
                          ''.join(c if _cookie_octet(c) else '_' for c in value)):
            if synth.is_valid(pointer, candidate, 'parameter'):
                return candidate
    return value


def _cookie_octet(character):
    """RFC 6265, 4.1.1: visible ASCII but DQUOTE, comma, semicolon and backslash."""
    return '!' <= character <= '~' and character not in '",;\\'


def _ascii(value):
    if isinstance(value, str):
        return ''.join(c if ' ' <= c <= '~' else '_' for c in value)
    if isinstance(value, list):
        return [_ascii(v) for v in value]
    if isinstance(value, dict):
        return {_ascii(k): _ascii(v) for k, v in value.items()}
    return value


def _without(value, character):
    if isinstance(value, str):
        return value.replace(character, '_')
    if isinstance(value, list):
        return [_without(v, character) for v in value]
    if isinstance(value, dict):
        return {_without(k, character): _without(v, character) for k, v in value.items()}
    return value


def _body_value(synth, doc, op, request, mode, variant, record, aim=frozenset(), seek=frozenset()):
    body, body_pointer = oas.request_body(doc, op)
    pointer = oas.media_schema_pointer(doc, body, body_pointer, request['contentType']) if body else None
    encoding = request.get('encoding', 'json')
    if encoding != 'json' and mode.startswith('nulls'):
        mode = 'full'  # a form, multipart, text or raw body has no way to write null
    if encoding == 'data':
        if pointer:
            value = synth.value(pointer, mode=mode, direction='request', variant=variant, record=record, no_null=True, seek=seek)
            if isinstance(value, str):
                try:
                    base64.b64decode(value, validate=True)
                    return value
                except ValueError:
                    return base64.b64encode(value.encode()).decode()
        return base64.b64encode(b'conformance bytes \x00\x01\x02\xff').decode()
    if pointer is None:
        return 'conformance text' if encoding == 'text' else {}
    value = synth.value(pointer, mode=mode, direction='request', variant=variant, record=record, where='body', aim=aim,
                        no_null=encoding != 'json', seek=seek)
    if encoding == 'text' and not isinstance(value, str):
        return str(value)
    return value


def _body_events(synth, doc, op, sent, mode, variant):
    """The elements a call sends through the events method: values of the
    elements' schema, or texts where the spec gives them none."""
    body, body_pointer = oas.request_body(doc, op)
    pointer = oas.stream_item_pointer(doc, body, body_pointer, sent['contentType'])
    if pointer is None:
        return list(TEXT_EVENTS[sent['format']])
    element_mode = 'full' if mode.startswith('nulls') else mode
    return [synth.value(pointer, mode=element_mode, direction='request', variant=variant + index, salt=f'event{index}', no_null=True)
            for index in range(BODY_EVENTS)]


def _answer_media_type(status, events, index):
    """The media type a success answers call `index` with: when the client
    has an events method for the response's sequential media types, each
    of them in turn with the one its plain method reads (JSON, say), so
    that every media type is sent to the method that reads it."""
    plain = inventory.response_media_type(status.response)
    if not events or not status.key.startswith('2'):
        return plain, None
    offered = [m for m in (status.response.get('content') or {}) if m in events]
    if not offered:
        return plain, None
    choices = ([plain] if plain not in offered else []) + offered
    chosen = choices[index % len(choices)]
    return chosen, (chosen if chosen in offered else None)


def _response(synth, status, mode, variant, record, streamed=False, head=False, aim=frozenset(), seek=frozenset(), events=(), index=0):
    """The body and headers the server answers with `status`."""
    doc = synth.doc
    response = Response(status)
    try:
        for name, raw in (status.response.get('headers') or {}).items():
            if name.lower() in ('content-type', 'content-length', 'transfer-encoding') or \
                    (name.lower() == 'location' and 300 <= status.code < 400):
                continue
            header, pointer = oas.resolve(doc, raw, f'{status.pointer}/headers/{oas.escape(name)}')
            schema_pointer = pointer + '/schema' if isinstance(header, dict) and 'schema' in header else None
            value = synth.value(schema_pointer, mode='full', direction='response', variant=variant, salt='header' + name) \
                if schema_pointer else 'value'
            response.headers[name] = _header_text(value)
        if status.code in inventory.NO_BODY or head:
            return response
        media_type, response.event_stream = _answer_media_type(status, events, index)
        if media_type is None:
            return response
        response.media_type = media_type
        if response.event_stream:
            pointer = oas.stream_item_pointer(doc, status.response, status.pointer, media_type)
        else:
            pointer = oas.media_schema_pointer(doc, status.response, status.pointer, media_type)
        if pointer is None:
            return response
        local = Record()
        response.value = synth.value(pointer, mode=mode, direction='response', variant=variant, record=local, where='response.body',
                                     aim=aim, seek=seek)
        response.defaults = local.defaults
        response.null_members = local.null_members
        record.merge(local)
        media = (status.response.get('content') or {}).get(media_type) or {}
        marker = media.get('x-stream-array') if isinstance(media, dict) else None
        if streamed and marker not in (None, False) and status.key.startswith('2'):
            member = '' if marker is True else str(marker)
            items = response.value if member == '' else (response.value or {}).get(member)
            if isinstance(items, list) and items:
                many = [items[i % len(items)] for i in range(STREAM_ELEMENTS)]
                if member == '':
                    response.value = many
                else:
                    response.value = {k: v for k, v in response.value.items() if k != member}
                    response.value[member] = many
                response.stream_member = member
                base = 'response.body' + (f'.{member}' if member else '')
                response.defaults = _repeat_locations(response.defaults, base, len(items))
                response.null_members = set(_repeat_locations({k: None for k in response.null_members}, base, len(items)))
    except SynthesisError as error:
        response.error = str(error)
    return response


def _repeat_locations(found, base, period):
    """`found` (location -> value) with each location under `base[i]` also
    under every later index of the same item (`[i + period]`, ...)."""
    result = dict(found)
    for location, value in found.items():
        if not location.startswith(base + '['):
            continue
        index_text, _, rest = location[len(base) + 1:].partition(']')
        if not index_text.isdigit():
            continue
        for index in range(int(index_text), STREAM_ELEMENTS, period):
            result[f'{base}[{index}]{rest}'] = value
    return result


def _header_text(value):
    """A header's value as `simple` style writes it, in the visible ASCII a
    header carries (RFC 9110, 5.5: other octets are obsolete): any other
    character of a synthesized string is written as `_`."""
    text = _simple_text(value)
    return ''.join(c if ' ' <= c <= '~' else '_' for c in text).strip()


def _simple_text(value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, list):
        return ','.join(_simple_text(v) for v in value)
    if isinstance(value, dict):
        return ','.join(f'{k},{_simple_text(v)}' for k, v in value.items())
    return str(value)


def plan(synth, op, entry):
    """(the calls of `op`, its Inventory, [(location, rule)] the plan could
    not do), given the client's manifest entry."""
    doc = synth.doc
    request = entry.get('requestBody')
    found = inventory.of(synth, op, request.get('contentType') if request else None, (request or {}).get('encoding', 'json'))
    statuses = found.statuses or [inventory.Status('200', 200, {}, None)]
    body, _ = oas.request_body(doc, op)
    body_required = bool((body or {}).get('required'))
    parameters = _parameters(op)
    calls = []
    covered = Record()
    answered = set()
    problems = []

    def add(mode, variant, status, choice=None, aim=frozenset(), seek=frozenset()):
        choice = variant if choice is None else choice
        record = Record()
        arguments = {location: {} for location in LOCATIONS}
        call = Call(op.key, len(calls), mode, choice, variant, arguments, record=record)
        try:
            for parameter in parameters:
                if parameter.required or mode != 'minimal':
                    arguments[parameter.location][parameter.name] = _parameter_value(synth, parameter, mode, variant, record, seek)
            if request and (mode != 'minimal' or body_required):
                arguments['body'] = _body_value(synth, doc, op, request, mode, variant, record, aim, seek)
        except SynthesisError as error:
            call.error = str(error)
        call.response = _response(synth, status, mode, variant, record, streamed=bool(entry.get('streaming')), head=op.method == 'HEAD',
                                  aim=aim, seek=seek, events=entry.get('events') or (), index=len(calls))
        # A body of a sequential media type goes as a sequence of elements
        # through the events method: on every call whose answer is a stream
        # too (that method reads it), else on every other call.
        sent = entry.get('requestEvents')
        if sent and call.error is None and (call.response.event_stream or (not entry.get('events') and call.index % 2 == 1)):
            try:
                arguments.pop('body', None)
                arguments['bodyEvents'] = _body_events(synth, doc, op, sent, mode, variant)
            except SynthesisError as error:
                call.error = str(error)
        calls.append(call)
        answered.add(status.key)
        gained = len(record.enums - covered.enums) + len(record.branches - covered.branches) + len(record.nulls - covered.nulls)
        covered.merge(record)
        return gained

    add('full', 0, statuses[0])
    add('minimal', 0, statuses[1 % len(statuses)])
    for status in statuses:
        if status.key not in answered and len(calls) < MAX_CALLS:
            add('full', len(calls), status)
    # Nullable members: each depth, each status, the branch choices that reach more.
    if found.nulls:
        for depth in range(MAX_NULL_DEPTH):
            for status in statuses:
                for choice in range(8):
                    if not (found.nulls - covered.nulls) or len(calls) >= MAX_CALLS:
                        break
                    if add(f'nulls{depth}', choice, status, choice=choice, aim=frozenset(found.nulls - covered.nulls)) == 0 and choice > 0:
                        break
    # Enum values and branches; number and date edges.
    variant = 1
    dry = 0
    while len(calls) < MAX_CALLS and variant < MAX_CALLS:
        missing = (found.enums - covered.enums) or (found.branches - covered.branches)
        if not missing and variant > EDGE_VARIANTS:
            break
        # Aimed at the enum values and branches no call has taken yet.
        seek = frozenset(('e',) + k for k in found.enums - covered.enums) | frozenset(('b',) + k for k in found.branches - covered.branches)
        gained = add('full', variant, statuses[variant % len(statuses)], seek=seek)
        dry = 0 if gained else dry + 1
        if dry >= 6 and variant > EDGE_VARIANTS:
            break
        variant += 1
    uncovered = found.nulls - covered.nulls
    if uncovered:
        problems.append(('plan', f'{len(uncovered)} nullable members no call of {len(calls)} made null'))
    return calls, found, covered, problems
