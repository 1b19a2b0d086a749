"""Unit tests of the bracket parser (python3 -m pytest scripts/conformance)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from brackets import coerce, has_brackets, parse, split_key  # noqa: E402


def test_split_key():
    assert split_key('a') == ['a']
    assert split_key('a[b][0][]') == ['a', 'b', '0', '']
    assert split_key('a[b') == ['a[b']
    assert split_key('[x]') == ['[x]']


def test_flat_pairs_and_repeated_keys():
    assert parse('a=1&b=two') == {'a': '1', 'b': 'two'}
    assert parse('tag=a&tag=b') == {'tag': ['a', 'b']}
    assert parse('empty=&x') == {'empty': '', 'x': ''}


def test_percent_and_plus_decoding():
    assert parse('q=a+b%26c&k%5Bx%5D=1') == {'q': 'a b&c', 'k': {'x': '1'}}


def test_nested_objects_and_indexed_lists():
    assert parse('line_items[0][price]=p1&line_items[0][quantity]=2&line_items[1][price]=p2') == {
        'line_items': [{'price': 'p1', 'quantity': '2'}, {'price': 'p2'}]}
    assert parse('a[b][0][c]=v') == {'a': {'b': [{'c': 'v'}]}}


def test_indices_out_of_order_are_sorted():
    assert parse('tags[1]=b&tags[0]=a') == {'tags': ['a', 'b']}


def test_empty_brackets_append():
    assert parse('expand[]=a&expand[]=b') == {'expand': ['a', 'b']}


def test_empty_brackets_group_members_like_rack():
    assert parse('a[][x]=1&a[][y]=2&a[][x]=3') == {'a': [{'x': '1', 'y': '2'}, {'x': '3'}]}


def test_deep_object_parameter():
    assert parse('filter[name]=rex&filter[state]=ok&limit=5') == {'filter': {'name': 'rex', 'state': 'ok'}, 'limit': '5'}


def test_has_brackets():
    assert has_brackets('a[b]=1')
    assert not has_brackets('a=1&b=2')


def test_coerce_to_schema_types():
    schema = {'type': 'object', 'properties': {
        'n': {'type': 'integer'}, 'x': {'type': 'number'}, 'ok': {'type': 'boolean'},
        'tags': {'type': 'array', 'items': {'type': 'integer'}}, 's': {'type': 'string'}}}
    value = {'n': '3', 'x': '1.5', 'ok': 'true', 'tags': '7', 's': '10'}
    assert coerce(value, schema, lambda s: s) == {'n': 3, 'x': 1.5, 'ok': True, 'tags': [7], 's': '10'}


def test_coerce_leaves_bad_values_for_the_validator():
    assert coerce('abc', {'type': 'integer'}, lambda s: s) == 'abc'
