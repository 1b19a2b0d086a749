"""Reading an OpenAPI document the way the conformance harness needs it.

The harness reads each spec on its own, independently of the Swift
generator: this module loads the YAML or JSON file (keeping dates as the
strings they are written as, since schemas compare them as strings),
resolves local `$ref`s while remembering the JSON pointer of the node a
reference lands on (the synthesizer validates its values against the
schema found at that pointer), and lists the operations of the document:
every method under every path item, webhooks excluded.
"""
import json
import re
import os
from dataclasses import dataclass, field

import yaml

METHODS = ('get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace')

try:
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader


class _Loader(_BaseLoader):
    """A safe loader that keeps timestamps as strings."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != 'tag:yaml.org,2002:timestamp']
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.copy().items()
}


def load(path):
    """The document at `path` (YAML or JSON) as plain Python values, every
    mapping key a string: YAML reads `200:` as an integer and `true:` as a
    boolean, where OpenAPI means the text (a status code, a name)."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if path.endswith('.json'):
        return _python_patterns(json.loads(text))
    return _python_patterns(_string_keys(yaml.load(text, Loader=_Loader)))


_NAMED_GROUP = re.compile(r'\(\?<(?![=!])')
_NAMED_BACKREFERENCE = re.compile(r'\\k<([A-Za-z_][A-Za-z0-9_]*)>')


def _python_patterns(value):
    """`value` with each `pattern` in the syntax of Python's `re`, which the
    validators use: OpenAPI patterns are ECMA-262, whose named groups
    `(?<name>...)` and `\\k<name>` Python writes `(?P<name>...)` and
    `(?P=name)` (api.video's `Content-Range` pattern)."""
    if isinstance(value, dict):
        return {k: (_python_pattern(v) if k == 'pattern' and isinstance(v, str) else _python_patterns(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_python_patterns(v) for v in value]
    return value


def _python_pattern(pattern):
    return _NAMED_BACKREFERENCE.sub(r'(?P=\1)', _NAMED_GROUP.sub('(?P<', pattern))


def _string_keys(value):
    if isinstance(value, dict):
        return {_key_text(k): _string_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_string_keys(v) for v in value]
    return value


def _key_text(key):
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return 'true' if key else 'false'
    if key is None:
        return 'null'
    return str(key)


def dialect(doc):
    """'3.1' for OpenAPI 3.1 (and later) documents, '3.0' otherwise."""
    version = str(doc.get('openapi', '3.0.0'))
    return '3.0' if version.startswith('3.0') else '3.1'


def escape(token):
    """A JSON pointer token for a key."""
    return str(token).replace('~', '~0').replace('/', '~1')


def unescape(token):
    return token.replace('~1', '/').replace('~0', '~')


def at(doc, pointer):
    """The node at JSON pointer `pointer` ('#/a/b' or '/a/b')."""
    node = doc
    for token in pointer.lstrip('#').split('/')[1:]:
        node = node[int(token)] if isinstance(node, list) else node[unescape(token)]
    return node


def resolve(doc, node, pointer):
    """Follows `$ref`s from `node` (found at `pointer`) to a node that is not
    a reference: (node, its pointer). Only references inside the document
    are followed; a `$ref` naming another file is left as it is."""
    seen = set()
    while isinstance(node, dict) and isinstance(node.get('$ref'), str) and node['$ref'].startswith('#'):
        ref = node['$ref']
        if ref in seen:
            break
        seen.add(ref)
        pointer = ref
        node = at(doc, ref)
    return node, pointer


@dataclass
class Parameter:
    name: str
    location: str          # path, query, header, cookie or querystring (3.2)
    required: bool
    node: dict             # the resolved parameter object
    pointer: str           # where it lives in the document

    @property
    def schema_pointer(self):
        if 'schema' in self.node:
            return self.pointer + '/schema'
        media = next(iter(self.node.get('content') or {}), None)
        return f'{self.pointer}/content/{escape(media)}/schema' if media else None

    @property
    def style(self):
        default = {'query': 'form', 'cookie': 'form'}.get(self.location, 'simple')
        return self.node.get('style', default)

    @property
    def explode(self):
        return self.node.get('explode', self.style == 'form')

    @property
    def content_type(self):
        """The media type of a parameter described with `content`, else None."""
        return next(iter(self.node.get('content') or {}), None)


@dataclass
class Operation:
    method: str            # upper case
    path: str              # the path template as written in the spec
    node: dict
    pointer: str
    parameters: list = field(default_factory=list)
    keys: tuple = ()       # where it stands in its path item: ('get',), ('additionalOperations', 'PURGE')

    @property
    def key(self):
        return f'{self.method} {self.path}'

    @property
    def path_template(self):
        """The path part of the key: some specs write a fixed query in it
        (`/keys?api-version=2021-05-01`), which a request sends as a query,
        or a fragment that tells two keys of one path apart (Box's
        `/metadata_templates/.../schema#add`), which no request sends."""
        return self.path.split('#', 1)[0].split('?', 1)[0]

    @property
    def fixed_query(self):
        """[(name, value)] of a query written into the path key."""
        path = self.path.split('#', 1)[0]
        if '?' not in path:
            return []
        from urllib.parse import parse_qsl
        return parse_qsl(path.split('?', 1)[1], keep_blank_values=True)

    @property
    def operation_id(self):
        return self.node.get('operationId')


def parameters_of(doc, path_item, path_pointer, op, op_pointer):
    """The operation's parameters, the path item's ones overridden by the
    operation's (same name and location)."""
    found = {}
    for holder, pointer in ((path_item, path_pointer), (op, op_pointer)):
        for index, raw in enumerate(holder.get('parameters') or []):
            node, where = resolve(doc, raw, f'{pointer}/parameters/{index}')
            location = node.get('in')
            if location == 'querystring':
                node, where = _querystring_as_form(node, where)
            found[(node.get('name'), location)] = Parameter(
                node['name'], location, bool(node.get('required')) or location == 'path', node, where)
    return list(found.values())


def _querystring_as_form(node, pointer):
    """An `in: querystring` parameter (OpenAPI 3.2) written as a form, read
    as what it is on the wire: an exploded `form` object in the query, whose
    schema is its content's. (The parameter keeps its location, so the
    arguments and the manifest name it as the spec does.)"""
    media = next(iter(node.get('content') or {}), None)
    if media is None or media.split(';')[0].strip().lower() != 'application/x-www-form-urlencoded':
        return node, pointer
    form = dict(node, style='form', explode=True, schema=node['content'][media].get('schema', {}))
    form.pop('content', None)
    return form, f'{pointer}/content/{escape(media)}'


def operations(doc):
    """Every operation of the document, in document order: the Path Item's
    fixed fields (3.2's `query` among them), then 3.2's
    `additionalOperations`, each method as it is sent."""
    result = []
    is_32 = str(doc.get('openapi', '')).startswith('3.2')
    for path, raw_item in (doc.get('paths') or {}).items():
        item_pointer = '#/paths/' + escape(path)
        item, item_pointer = resolve(doc, raw_item, item_pointer)
        entries = [(m.upper(), (m,)) for m in METHODS + (('query',) if is_32 else ()) if m in item]
        if is_32:
            entries += [(name, ('additionalOperations', name)) for name in (item.get('additionalOperations') or {})]
        for method, keys in entries:
            op_pointer = item_pointer + ''.join('/' + escape(k) for k in keys)
            op = item
            for k in keys:
                op = op[k]
            result.append(Operation(method, path, op, op_pointer,
                                    parameters_of(doc, item, item_pointer, op, op_pointer), keys))
    return result


def request_body(doc, op):
    """The resolved request body object of `op` and its pointer, or (None, None)."""
    if 'requestBody' not in op.node:
        return None, None
    return resolve(doc, op.node['requestBody'], op.pointer + '/requestBody')


def media_schema_pointer(doc, holder, holder_pointer, media_type):
    """Pointer to the schema of `media_type` in a request body or response,
    or None when the media type has no schema."""
    media = (holder.get('content') or {}).get(media_type)
    if not isinstance(media, dict) or 'schema' not in media:
        return None
    return f'{holder_pointer}/content/{escape(media_type)}/schema'


def sequential_format(media_type):
    """'serverSentEvents', 'jsonLines' or 'jsonSequence' for a sequential
    media type (parameters and case ignored), else None."""
    base = (media_type or '').split(';')[0].strip().lower()
    if base == 'text/event-stream':
        return 'serverSentEvents'
    if base in ('application/jsonl', 'application/x-ndjson', 'application/x-jsonlines', 'application/jsonlines'):
        return 'jsonLines'
    if base == 'application/json-seq':
        return 'jsonSequence'
    return None


def stream_item_pointer(doc, holder, holder_pointer, media_type):
    """Pointer to the schema of one element of a sequential media type, or
    None when the spec gives the elements none (each is then text): 3.2's
    `itemSchema` or `x-item-schema` (for server-sent events, the
    `contentSchema` of its `data`, or None when `data` is a plain string),
    else `schema` unless it describes the stream as a string."""
    media = (holder.get('content') or {}).get(media_type)
    if not isinstance(media, dict):
        return None
    base = f'{holder_pointer}/content/{escape(media_type)}'
    for key in ('itemSchema', 'x-item-schema'):
        if key not in media or (key == 'itemSchema' and not str(doc.get('openapi', '')).startswith('3.2')):
            continue
        item, pointer = resolve(doc, media[key], f'{base}/{key}')
        if media_type.split(';')[0].strip().lower() == 'text/event-stream' and isinstance(item, dict):
            data = (item.get('properties') or {}).get('data')
            if data is not None:
                data, data_pointer = resolve(doc, data, f'{pointer}/properties/data')
                return f'{data_pointer}/contentSchema' if isinstance(data, dict) and 'contentSchema' in data else None
        return pointer
    if 'schema' not in media:
        return None
    schema, _ = resolve(doc, media['schema'], f'{base}/schema')
    if isinstance(schema, dict) and schema.get('type') in ('string', ['string']):
        return None
    return f'{base}/schema'


def responses(doc, op):
    """[(status string, resolved response, pointer)] in document order."""
    result = []
    for status, raw in (op.node.get('responses') or {}).items():
        node, pointer = resolve(doc, raw, f'{op.pointer}/responses/{escape(status)}')
        result.append((str(status), node, pointer))
    return result


def spec_name(path):
    return os.path.basename(path)
