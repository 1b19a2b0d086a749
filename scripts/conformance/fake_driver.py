#!/usr/bin/env python3
"""A stand-in for a generated conformance driver, written in Python.

It speaks the driver protocol (PROTOCOL.md) for one spec so the harness can
be tested without the Swift side: `--manifest` lists every operation with
every parameter, and `--server-url URL` serializes each call the way
OpenAPI says (path styles simple/label/matrix, query form/spaceDelimited/
pipeDelimited/deepObject, header simple, cookie form; JSON, urlencoded
(nested members in the bracket convention), multipart, text and raw
bodies), sends it with urllib, and reports the response body as it came:
JSON re-encoded, text as text, anything else base64.

Usage: fake_driver.py SPEC --manifest | --server-url URL
       run.py --driver 'python3 fake_driver.py {spec}' ...
"""
import base64
import json
import os
import sys
import urllib.error
import urllib.request
import uuid
from urllib.parse import quote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oas  # noqa: E402
from server import STREAM_TYPES, is_json  # noqa: E402
from synth import Synthesizer, merge_all_of  # noqa: E402


def request_media_type(content):
    """(media type, encoding) the client sends: JSON first, then forms, text, bytes."""
    types = list(content)
    ranked = sorted(types, key=lambda t: (0 if is_json(t) else 1 if 'x-www-form-urlencoded' in t
                                          else 2 if t.startswith('multipart/') else 3 if t.startswith('text/') else 4))
    chosen = ranked[0]
    encoding = 'json' if is_json(chosen) else 'form' if 'x-www-form-urlencoded' in chosen \
        else 'multipart' if chosen.startswith('multipart/') else 'text' if chosen.startswith('text/') else 'data'
    return chosen, encoding


def decoding(response):
    content = list((response.get('content') or {}))
    if not content:
        return 'none'
    first = content[0]
    return 'json' if is_json(first) else 'text' if first.startswith('text/') else 'data'


def manifest(doc):
    entries = []
    for op in oas.operations(doc):
        body, _ = oas.request_body(doc, op)
        request = None
        if body and body.get('content'):
            media_type, encoding = request_media_type(body['content'])
            request = {'contentType': media_type, 'encoding': encoding, 'required': bool(body.get('required'))}
        responses = oas.responses(doc, op)
        streaming = any(m.split(';')[0] in STREAM_TYPES for _, r, _ in responses for m in (r.get('content') or {}))
        entries.append({
            'key': op.key, 'operationId': op.operation_id, 'requestBody': request,
            'parameters': [{'name': p.name, 'in': p.location, 'required': p.required} for p in op.parameters
                           if not (p.location == 'header' and p.name.lower() in ('accept', 'content-type', 'authorization'))],
            'responses': [{'status': s, 'decoding': decoding(r)} for s, r, _ in responses],
            'streaming': streaming})
    return {'operations': entries}


# -- serialization ------------------------------------------------------------

def scalar(value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if value is None:
        return ''
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return str(value)


def enc(text, safe=''):
    return quote(scalar(text), safe=safe)


def simple(value, explode):
    if isinstance(value, list):
        return ','.join(enc(v) for v in value)
    if isinstance(value, dict):
        if explode:
            return ','.join(f'{enc(k)}={enc(v)}' for k, v in value.items())
        return ','.join(f'{enc(k)},{enc(v)}' for k, v in value.items())
    return enc(value)


def path_segment(parameter, value):
    style, explode, name = parameter.style, parameter.explode, parameter.name
    if style == 'label':
        sep = '.' if explode else ','
        if isinstance(value, list):
            return '.' + sep.join(enc(v) for v in value)
        if isinstance(value, dict):
            return '.' + sep.join((f'{enc(k)}={enc(v)}' if explode else f'{enc(k)},{enc(v)}') for k, v in value.items())
        return '.' + enc(value)
    if style == 'matrix':
        if isinstance(value, list):
            return ''.join(f';{name}={enc(v)}' for v in value) if explode else f';{name}=' + ','.join(enc(v) for v in value)
        if isinstance(value, dict):
            return ''.join(f';{enc(k)}={enc(v)}' for k, v in value.items()) if explode else \
                f';{name}=' + ','.join(f'{enc(k)},{enc(v)}' for k, v in value.items())
        return f';{name}={enc(value)}'
    return simple(value, explode)


def brackets_pairs(prefix, value):
    """(key, text) pairs of a nested value in the bracket convention."""
    if isinstance(value, dict):
        for key, member in value.items():
            yield from brackets_pairs(f'{prefix}[{key}]', member)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from brackets_pairs(f'{prefix}[{index}]', item)
    else:
        yield prefix, scalar(value)


def query_pairs(parameter, value):
    name, style, explode = parameter.name, parameter.style, parameter.explode
    if parameter.content_type:
        return [(name, json.dumps(value))]
    if style == 'deepObject':
        return list(brackets_pairs(name, value))
    if isinstance(value, list):
        if style == 'spaceDelimited':
            return [(name, ' '.join(scalar(v) for v in value))]
        if style == 'pipeDelimited':
            return [(name, '|'.join(scalar(v) for v in value))]
        return [(name, scalar(v)) for v in value] if explode else [(name, ','.join(scalar(v) for v in value))]
    if isinstance(value, dict):
        if explode:
            return [(k, scalar(v)) for k, v in value.items()]
        return [(name, ','.join(f'{k},{scalar(v)}' for k, v in value.items()))]
    return [(name, scalar(value))]


def urlencode(pairs):
    return '&'.join(f'{quote(k, safe="[]")}={quote(v, safe="")}' for k, v in pairs)


def form_body(value, schema, synth):
    """A urlencoded body: flat members as they are, arrays of scalars as
    repeated keys, nested objects and arrays in the bracket convention."""
    pairs = []
    for key, member in (value or {}).items():
        if isinstance(member, list) and all(not isinstance(v, (dict, list)) for v in member):
            pairs.extend((key, scalar(v)) for v in member)
        else:
            pairs.extend(brackets_pairs(key, member))
    return urlencode(pairs).encode()


def multipart_body(value, schema, synth):
    boundary = 'conformance-' + uuid.UUID(int=0).hex[:12]
    properties = (schema or {}).get('properties') or {}
    parts = []
    for name, member in (value or {}).items():
        member_schema = merge_all_of(synth, properties.get(name, {})) or {}
        items = member if isinstance(member, list) and member_schema.get('type') == 'array' else [member]
        item_schema = merge_all_of(synth, member_schema.get('items', {})) if member_schema.get('type') == 'array' else member_schema
        for item in items:
            if isinstance(item_schema, dict) and (item_schema.get('format') in ('binary', 'byte') or 'contentEncoding' in item_schema):
                data, media = base64.b64decode(item), 'application/octet-stream'
            elif isinstance(item, (dict, list)):
                data, media = json.dumps(item).encode(), 'application/json'
            else:
                data, media = scalar(item).encode(), 'text/plain'
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n'
                         f'Content-Type: {media}\r\n\r\n'.encode() + data + b'\r\n')
    return b''.join(parts) + f'--{boundary}--\r\n'.encode(), f'multipart/form-data; boundary={boundary}'


class Driver:
    def __init__(self, doc, base_url):
        self.doc, self.base_url = doc, base_url.rstrip('/')
        self.synth = Synthesizer(doc)
        self.operations = {op.key: op for op in oas.operations(doc)}
        self.entries = {e['key']: e for e in manifest(doc)['operations']}

    def build(self, op, entry, arguments):
        path = op.path_template
        by_key = {(p.name, p.location): p for p in op.parameters}
        for name, value in arguments.get('path', {}).items():
            path = path.replace('{' + name + '}', path_segment(by_key[(name, 'path')], value))
        pairs = list(op.fixed_query)
        for name, value in arguments.get('query', {}).items():
            pairs.extend(query_pairs(by_key[(name, 'query')], value))
        url = self.base_url + path + ('?' + urlencode(pairs) if pairs else '')
        headers = {}
        for name, value in arguments.get('header', {}).items():
            parameter = by_key[(name, 'header')]
            headers[name] = json.dumps(value) if parameter.content_type else simple(value, parameter.explode).replace('%2C', ',')
        cookies = [f'{name}={simple(value, False)}' for name, value in arguments.get('cookie', {}).items()]
        if cookies:
            headers['Cookie'] = '; '.join(cookies)
        accept = [m for _, r, _ in oas.responses(self.doc, op) for m in (r.get('content') or {})]
        if accept:
            headers['Accept'] = ', '.join(dict.fromkeys(accept))
        data = None
        if 'body' in arguments:
            data, content_type = self.body(op, entry['requestBody'], arguments['body'])
            headers['Content-Type'] = content_type
        return urllib.request.Request(url, data=data, method=op.method, headers=headers)

    def body(self, op, request, value):
        media_type, encoding = request['contentType'], request['encoding']
        body, pointer = oas.request_body(self.doc, op)
        schema_pointer = oas.media_schema_pointer(self.doc, body, pointer, media_type)
        schema = merge_all_of(self.synth, oas.at(self.doc, schema_pointer)) if schema_pointer else {}
        if encoding == 'json':
            return json.dumps(value).encode(), media_type
        if encoding == 'form':
            return form_body(value, schema, self.synth), media_type
        if encoding == 'multipart':
            return multipart_body(value, schema, self.synth)
        if encoding == 'text':
            return value.encode(), media_type
        return base64.b64decode(value), media_type

    def call(self, line):
        key, index = line['key'], line['call']
        op, entry = self.operations[key], self.entries[key]
        try:
            request = self.build(op, entry, line['arguments'])
        except Exception as error:
            return {'key': key, 'call': index, 'outcome': 'failed', 'stage': 'arguments', 'error': str(error), 'status': None}
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, media_type, raw, headers = response.status, response.headers.get('Content-Type') or '', response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, media_type, raw, headers = error.code, error.headers.get('Content-Type') or '', error.read(), error.headers
        except OSError as error:
            return {'key': key, 'call': index, 'outcome': 'failed', 'stage': 'send', 'error': str(error), 'status': None}
        return {'key': key, 'call': index, 'outcome': 'ok', 'status': status, 'headers': dict(headers.items()), **self.decode(media_type, raw)}

    @staticmethod
    def decode(media_type, raw):
        base = media_type.split(';')[0].strip().lower()
        if not raw:
            return {'bodyKind': 'empty', 'body': None}
        if is_json(base):
            return {'bodyKind': 'json', 'body': json.loads(raw)}
        if base.startswith('text/') or base in STREAM_TYPES:
            return {'bodyKind': 'text', 'body': raw.decode('utf-8')}
        return {'bodyKind': 'data', 'body': base64.b64encode(raw).decode()}


def main(argv):
    spec = argv[1]
    doc = oas.load(spec)
    if argv[2] == '--manifest':
        json.dump(manifest(doc), sys.stdout)
        print()
        return 0
    driver = Driver(doc, argv[3])
    for text in sys.stdin:
        if text.strip():
            print(json.dumps(driver.call(json.loads(text))), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
