"""End-to-end tests of the harness's own checks on a small spec: the fake
driver's requests pass, and requests or responses that differ from the
synthesized call are reported at the right location."""
import base64
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import calls as call_plans  # noqa: E402
from fake_driver import Driver, manifest  # noqa: E402
from run import response_failures  # noqa: E402
from server import ConformanceServer  # noqa: E402
from synth import Synthesizer  # noqa: E402

SPEC = {
    'openapi': '3.0.3',
    'info': {'title': 'Checkout', 'version': '1'},
    'paths': {
        '/sessions/{id}': {
            'post': {
                'operationId': 'createSession',
                'parameters': [
                    {'name': 'id', 'in': 'path', 'required': True, 'schema': {'type': 'integer', 'minimum': 1}},
                    {'name': 'expand', 'in': 'query', 'schema': {'type': 'array', 'items': {'type': 'string', 'enum': ['a', 'b']}}},
                    {'name': 'filter', 'in': 'query', 'style': 'deepObject', 'explode': True, 'schema': {
                        'type': 'object', 'properties': {'range': {'type': 'object', 'properties': {
                            'gte': {'type': 'integer'}, 'lt': {'type': 'integer'}}}}}},
                    {'name': 'X-Trace', 'in': 'header', 'schema': {'type': 'string', 'pattern': '^t-[0-9]{4}$'}},
                ],
                'requestBody': {'required': True, 'content': {'application/x-www-form-urlencoded': {'schema': {
                    '$ref': '#/components/schemas/Session'}}}},
                'responses': {'200': {'description': 'ok', 'content': {'application/json': {'schema': {
                    '$ref': '#/components/schemas/Result'}}}}},
            },
        },
    },
    'components': {'schemas': {
        'Session': {'type': 'object', 'required': ['line_items'], 'properties': {
            'line_items': {'type': 'array', 'minItems': 1, 'items': {'type': 'object', 'required': ['price'], 'properties': {
                'price': {'type': 'string'}, 'quantity': {'type': 'integer', 'minimum': 1}}}},
            'mode': {'type': 'string', 'enum': ['payment', 'setup']},
            'metadata': {'type': 'object', 'additionalProperties': {'type': 'string'}}}},
        'Result': {'type': 'object', 'required': ['id'], 'properties': {
            'id': {'type': 'string', 'format': 'uuid'},
            'created': {'type': 'string', 'format': 'date-time'},
            'amount': {'type': 'number'},
            'payment': {'oneOf': [{'$ref': '#/components/schemas/Card'}, {'$ref': '#/components/schemas/Bank'}]}}},
        'Card': {'type': 'object', 'required': ['brand'], 'properties': {'brand': {'type': 'string'}},
                 'additionalProperties': False},
        'Bank': {'type': 'object', 'required': ['iban'], 'properties': {'iban': {'type': 'string'}},
                 'additionalProperties': False},
    }},
}


def setup():
    synth = Synthesizer(SPEC)
    server = ConformanceServer(SPEC, synth).start()
    driver = Driver(SPEC, server.url)
    entry = manifest(SPEC)['operations'][0]
    op = driver.operations[entry['key']]
    plan = call_plans.plan(synth, op, entry)[0]
    return server, driver, op, entry, plan


def test_plan_covers_what_the_operation_documents():
    server, _, op, entry, plan = setup()
    server.stop()
    assert [(c.mode, c.variant) for c in plan[:2]] == [('full', 0), ('minimal', 0)]
    full = plan[0].arguments
    assert set(full['query']) == {'expand', 'filter'} and 'X-Trace' in full['header']
    assert 'mode' not in plan[1].arguments['body'] and plan[1].arguments['query'] == {}
    synth = Synthesizer(SPEC)
    calls, found, covered, problems = call_plans.plan(synth, op, entry)
    assert problems == []
    assert {c.response.status.key for c in calls} == {s.key for s in found.statuses}
    assert found.branches <= covered.branches and found.enums <= covered.enums and found.nulls <= covered.nulls


def test_values_are_deterministic():
    first = setup()[4]
    second = setup()[4]
    assert [c.arguments for c in first] == [c.arguments for c in second]


def test_fake_driver_calls_pass():
    server, driver, op, entry, plan = setup()
    try:
        for call in plan:
            server.expect(op, call, entry)
            result = driver.call(call.request_line())
            outcome = server.result()
            assert outcome.failures == []
            assert response_failures(result, outcome.sent) == []
    finally:
        server.stop()


def test_wrong_values_are_reported_where_they_are():
    server, driver, op, entry, plan = setup()
    call = plan[0]
    try:
        server.expect(op, call, entry)
        request = driver.build(op, entry, call.arguments)
        body = request.data.decode().replace('line_items%5B0%5D%5Bprice%5D=', 'line_items%5B0%5D%5Bprice%5D=x')
        body = body.replace('line_items[0][price]=', 'line_items[0][price]=x')
        url = request.full_url.replace('filter%5Brange%5D%5Bgte%5D=', 'filter%5Brange%5D%5Bgte%5D=9')
        url = url.replace('filter[range][gte]=', 'filter[range][gte]=9')
        urllib.request.urlopen(urllib.request.Request(url, data=body.encode(), method='POST', headers=dict(request.header_items())))
        locations = {location for location, _ in server.result().failures}
        assert 'body.line_items[0].price' in locations
        assert 'query.filter.range.gte' in locations
    finally:
        server.stop()


def test_response_differences_are_reported():
    server, driver, op, entry, plan = setup()
    try:
        call = plan[0]
        server.expect(op, call, entry)
        result = driver.call(call.request_line())
        sent = server.result().sent
        same = dict(result, body=dict(result['body'], created=result['body']['created'].replace('Z', '.000+00:00')))
        assert response_failures(same, sent) == []
        changed = dict(result, body=dict(result['body'], id='other'))
        assert [loc for loc, _ in response_failures(changed, sent)] == ['response.body.id']
        dropped = dict(result, body={k: v for k, v in result['body'].items() if k != 'payment'})
        assert [loc for loc, _ in response_failures(dropped, sent)] == ['response.body.payment']
    finally:
        server.stop()


def test_raw_bodies_compare_as_bytes():
    class Sent:
        status, kind, raw, streaming = 200, 'data', b'\x00\xff', False
    ok = {'outcome': 'ok', 'status': 200, 'bodyKind': 'data', 'body': base64.b64encode(b'\x00\xff').decode()}
    assert response_failures(ok, Sent) == []
    assert response_failures(dict(ok, body=base64.b64encode(b'\x00').decode()), Sent)
    assert json.dumps(ok)


def test_uuids_compare_without_regard_to_case_and_nothing_else_does():
    from compare import differences
    lower, upper = '3f2504e0-4f89-11d3-9a0c-0305e82c3301', '3F2504E0-4F89-11D3-9A0C-0305E82C3301'
    assert differences(lower, upper, 'body.id') == []
    assert differences(lower, upper.replace('3301', '3302'), 'body.id') == [('body.id', f"uuid {upper.replace('3301', '3302')} != expected {lower}")]
    # Any other string keeps its case.
    assert differences('abc', 'ABC', 'body.name') != []
    assert differences('3f2504e0', '3F2504E0', 'body.short') != []
