"""Parameter values read back from the wire by OpenAPI's style rules
(OpenAPI 3.0/3.1, "Style Values" and "Style Examples"), for the styles
openapi-core does not read (label and matrix paths, exploded or object
spaceDelimited and pipeDelimited queries, form bodies whose `encoding`
sets a field's style):

    path   simple  5 | 3,4,5 | role,admin,id,7 | role=admin,id=7 (explode)
           label   .5 | .3,4,5 | .3.4.5 (explode) | .role,admin,id,7 | .role=admin.id=7 (explode)
           matrix  ;p=5 | ;p=3,4,5 | ;p=3;p=4;p=5 (explode) | ;p=role,admin,id,7 | ;role=admin;id=7 (explode)
    query  form    p=5 | p=3,4,5 | p=3&p=4&p=5 (explode) | p=role,admin,id,7 | role=admin&id=7 (explode)
           spaceDelimited / pipeDelimited: form with ' ' or '|' between the values of an unexploded array or object
           deepObject  p[role]=admin&p[id]=7
    header simple, as the path's, without percent-encoding
    cookie form: p=5 | p=3,4,5 | p=role,admin,id,7; exploded, one cookie per item or member

Each reader returns the value as strings (a string, a list of them or an
object of them), or `MISSING`; `brackets.coerce` turns it into the types
the schema names.
"""
from urllib.parse import unquote

MISSING = object()


def utf8(text):
    """A header's text as the UTF-8 a client sent (Python's server reads
    header bytes as latin-1)."""
    try:
        return text.encode('latin-1').decode('utf-8')
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text
DELIMITERS = {'form': ',', 'simple': ',', 'spaceDelimited': ' ', 'pipeDelimited': '|'}


def kind_of(schema):
    """'array', 'object' or 'primitive' for a (merged) schema."""
    if not isinstance(schema, dict):
        return 'primitive'
    kind = schema.get('type')
    if isinstance(kind, list):
        kinds = [k for k in kind if k != 'null']
        kind = kinds[0] if kinds else None
    if kind == 'array' or 'items' in schema:
        return 'array'
    if kind == 'object' or 'properties' in schema or 'additionalProperties' in schema:
        return 'object'
    return 'primitive'


def _pairs_to_object(items):
    """['role', 'admin', 'id', '7'] -> {'role': 'admin', 'id': '7'}."""
    return {items[i]: items[i + 1] for i in range(0, len(items) - 1, 2)}


def _exploded_object(items):
    """['role=admin', 'id=7'] -> {'role': 'admin', 'id': '7'}."""
    result = {}
    for item in items:
        key, _, value = item.partition('=')
        result[key] = value
    return result


def _simple(text, kind, explode, decode):
    parts = [decode(p) for p in text.split(',')] if text != '' else []
    if kind == 'array':
        return parts
    if kind == 'object':
        return _exploded_object(parts) if explode else _pairs_to_object(parts)
    return decode(text)


def read_path(segment, style, explode, kind, name):
    """A path parameter's value from its raw (percent-encoded) segment."""
    if segment is None:
        return MISSING
    if style == 'simple':
        return _simple(segment, kind, explode, unquote)
    if style == 'label':
        if not segment.startswith('.'):
            return MISSING
        body = segment[1:]
        if kind == 'primitive':
            return unquote(body)
        parts = [unquote(p) for p in (body.split('.') if explode else body.split(','))] if body != '' else []
        if kind == 'array':
            return parts
        return _exploded_object(parts) if explode else _pairs_to_object(parts)
    if style == 'matrix':
        if not segment.startswith(';'):
            return MISSING
        items = [unquote(p) for p in segment[1:].split(';')]
        if kind == 'object' and explode:
            return _exploded_object(items)
        values = [item.partition('=')[2] for item in items if item.partition('=')[0] == name]
        if kind == 'array':
            return values if explode else (values[0].split(',') if values and values[0] != '' else [])
        if kind == 'object':
            return _pairs_to_object(values[0].split(',')) if values else {}
        return values[0] if values else MISSING
    return MISSING


def raw_pairs(text):
    """The (decoded name, raw value) pairs of a query or form text: a value
    stays percent-encoded, so that a delimiter the client wrote (`,`) is
    told apart from one inside a value (`%2C`)."""
    found = []
    for part in text.split('&'):
        if part:
            key, _, value = part.partition('=')
            found.append((unquote(key.replace('+', ' ')), value))
    return found


def _decoded(text):
    return unquote(text.replace('+', ' '))


def read_query(pairs, style, explode, kind, name, member_names=()):
    """A query parameter's value from the (decoded name, raw value) pairs
    (`raw_pairs`): split at the style's delimiter, then each piece decoded."""
    delimiter = {'form': ',', 'simple': ',', 'spaceDelimited': '%20', 'pipeDelimited': '%7C'}.get(style, ',')

    def split(text):
        # A space may arrive as `+` or `%20`, a pipe as `|` or `%7C`.
        text = text.replace('+', '%20').replace('|', '%7C')
        return [_decoded(piece) for piece in text.split(delimiter)] if text != '' else []

    pairs = [(key, value) for key, value in pairs]
    own = [value for key, value in pairs if key == name]
    if style == 'deepObject':
        prefix = name + '['
        found = {key[len(prefix):-1]: _decoded(value) for key, value in pairs if key.startswith(prefix) and key.endswith(']')}
        return found if found else MISSING
    if kind == 'object' and explode:
        found = {key: _decoded(value) for key, value in pairs if key in member_names}
        return found if found else MISSING
    if not own:
        return MISSING
    if kind == 'array':
        if explode:
            return [_decoded(value) for value in own]
        return split(own[0])
    if kind == 'object':
        return _pairs_to_object(split(own[0]))
    return _decoded(own[0])


def read_header(text, explode, kind):
    if text is None:
        return MISSING
    text = utf8(text)
    return _simple(text.strip(), kind, explode, lambda part: part.strip())


def read_cookie(cookies, explode, kind, name, member_names=(), decode=True):
    """A cookie parameter's value from the request's cookies ([(name, value)]),
    percent-decoded unless `decode` is false (OpenAPI 3.2's `cookie` style,
    whose values the app escapes and the client sends as they are)."""
    cookies = [(key, utf8(value)) for key, value in cookies]
    unquote_ = unquote if decode else (lambda text: text)
    own = [unquote_(value) for key, value in cookies if key == name]
    if kind == 'object' and explode:
        found = {key: unquote_(value) for key, value in cookies if key in member_names}
        return found if found else MISSING
    if not own:
        return MISSING
    if kind == 'array':
        return own if explode and len(own) > 1 else (own[0].split(',') if own[0] != '' else [])
    if kind == 'object':
        return _pairs_to_object(own[0].split(','))
    return own[0]
