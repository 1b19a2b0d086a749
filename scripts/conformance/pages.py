"""Paged lists: the calls that go through a client's pages method.

An operation whose manifest entry has `pagination` (how the client's
`...Pages` method follows the list: the style, the query parameters a next
request fills, the page's items member, the page members that say what
comes next (dotted wire paths), the item's id member) gets four more
calls, each answered with several pages built from a page the plan
synthesized for a success status:

* `pages-end`: pages of 3, 2 and 1 items, the last ending the list by the
  convention (no next cursor, or a `done`/`has_more` flag that ends it
  while a cursor is still given; `has_more` false; no next link in the
  `Link` header or the page; the offset reaching `total`; the page number
  reaching the pages, or the items, in all);
* `pages-empty`: pages of 3 and 2 items that say more follows, then an
  empty page that still says so: the client must stop at the empty page;
* `pages-stop`: the driver stops iterating after the first page, and no
  second request may come;
* `pages-cancel`: the driver cancels its task after the first page and
  iterates on: the sequence must end with `CancellationError` before a
  second request.

Each request is checked as any request of the call (`_RequestCheck`), with
what the previous page gave in the parameters it fills (none on the
first: the call's own are left out) and every other argument as the call
passed it; the driver reports each page it read, and every item must
arrive once, in order.
"""
import copy
import re
import uuid
from dataclasses import dataclass, field

from compare import differences

_UUID = re.compile(r'[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}')
# (mode, page sizes, pages the driver reads (0: all), whether it then cancels its task rather than break)
VARIANTS = (('pages-end', (3, 2, 1), 0, False), ('pages-empty', (3, 2, 0), 0, False), ('pages-stop', (3, 2, 1), 1, False),
            ('pages-cancel', (3, 2, 1), 1, True))


@dataclass
class PagePlan:
    """What one paged call's server answers and expects."""
    style: str
    parameters: list       # the query parameters a next request fills
    pages: list            # [(page value, {header: text})], answered in order
    cursors: list          # what request k must carry in them ({} on the first: the app's own, here none)
    stop_after: int        # pages the driver reads (0: all)
    cancels: bool = False  # the driver cancels its task after them: the sequence must end with CancellationError
    items_member: str = None
    templates: list = field(default_factory=list)  # each item's template index in the synthesized page, in order
    base_defaults: dict = field(default_factory=dict)   # the synthesized page's, at `response.body...`
    base_nulls: set = field(default_factory=set)
    served: int = 0
    failures: list = field(default_factory=list)

    @property
    def expected_requests(self):
        return self.stop_after or len(self.pages)

    def expected_items(self):
        read = self.pages[:self.expected_requests]
        return [item for value, _ in read for item in _items(value, self.items_member)]


def _items(value, member):
    if member is None:
        return value if isinstance(value, list) else []
    return (value or {}).get(member) or [] if isinstance(value, dict) else []


def _set(value, path, member):
    """Sets the member at a dotted wire path, making the objects on the way."""
    keys = path.split('.')
    for key in keys[:-1]:
        if not isinstance(value.get(key), dict):
            value[key] = {}
        value = value[key]
    value[keys[-1]] = member


def _remove(value, path):
    """Removes the member at a dotted path; inside an object (`_links.next.href`),
    the object that holds it (`next`), as a page without a next leaves it out."""
    keys = path.split('.')
    holder_keys = keys[:-2] if len(keys) > 1 else []
    for key in holder_keys:
        value = value.get(key) if isinstance(value, dict) else None
    if isinstance(value, dict):
        value.pop(keys[-2] if len(keys) > 1 else keys[-1], None)


def base_page(calls):
    """A success page the plan synthesized (a JSON value), or None."""
    for call in calls:
        response = call.response
        if call.error is None and response is not None and response.error is None and 200 <= response.status.code < 300 \
                and response.media_type and 'json' in response.media_type and response.value is not None:
            return response
    return None


def plans(pagination, base, first_page=None):
    """[(mode, PagePlan)], or a reason none can be built. `first_page`: the
    first page's number as the spec says it, which a list numbered by page
    is served from (the manifest's `first` where the spec does not say)."""
    style, parameter = pagination['style'], pagination['parameter']
    items_member, member, item_id = pagination.get('items'), pagination.get('member'), pagination.get('itemId')
    linked = pagination.get('parameters') or []
    template_items = _items(base.value, items_member)
    if not template_items:
        return None, 'the synthesized page has no item to page with'
    result = []
    for mode, sizes, stop, cancels in VARIANTS:
        count = 0
        pages, cursors, templates = [], [], []
        ends_early = sizes[-1] == 0
        for index, size in enumerate(sizes):
            last = index == len(sizes) - 1
            items = []
            for _ in range(size):
                template = count % len(template_items)
                item = copy.deepcopy(template_items[template])
                # Told apart by their id where they have one of a kind the harness can vary.
                key = item_id or 'id'
                if isinstance(item, dict) and isinstance(item.get(key), str) and _UUID.fullmatch(item[key]):
                    item[key] = str(uuid.UUID(int=(VARIANTS.index((mode, sizes, stop, cancels)) << 32) + count + 1))
                elif isinstance(item, dict) and isinstance(item.get(key), str):
                    item[key] = f'{mode}-item-{count}'
                elif isinstance(item, dict) and isinstance(item.get(key), int) and not isinstance(item.get(key), bool):
                    item[key] = 1000 + count
                items.append(item)
                templates.append(template)
                count += 1
            value = copy.deepcopy(base.value)
            if items_member is None:
                value = items
            else:
                value[items_member] = items
            headers = dict(base.headers)
            more = not last or ends_early
            if style == 'cursor':
                flag = pagination.get('flag')
                if flag:
                    # The flag alone ends the list: the last page still gives a cursor.
                    _set(value, member, f'{mode}-cursor-{index + 1}')
                    _set(value, flag, (not more) if pagination.get('flagEndsList') else more)
                elif more:
                    _set(value, member, f'{mode}-cursor-{index + 1}')
                else:
                    _remove(value, member)
                cursors.append({} if index == 0 else {parameter: f'{mode}-cursor-{index}'})
            elif style == 'lastItem':
                _set(value, member, more)
                cursors.append({} if index == 0 else {parameter: pages[-1][0][items_member][-1][item_id or 'id']})
            elif style == 'link':
                # Each query item of the next URL, the integers numbered, the
                # strings told apart by page; and one the call does not take.
                def carried(page_index):
                    # Letters and digits alone: what a token's pattern allows (PayPal's `^[A-Za-z0-9+/=]+$`).
                    return {p['name']: (page_index + 2 if p['integer'] else re.sub('[^A-Za-z0-9]', '', f'{mode}{p["name"]}{page_index + 2}'))
                            for p in linked}
                target = 'https://api.example.invalid/next?' + '&'.join(f'{name}={value}' for name, value in carried(index).items()) + '&other=1'
                relation, href = pagination.get('linkRelation'), pagination.get('linkTarget')
                if member is None:
                    headers = {k: v for k, v in headers.items() if k.lower() != 'link'}
                    if more:
                        headers['Link'] = f'<{target}>; rel="next", <https://api.example.invalid/last?{parameter}=9>; rel="last"'
                elif relation:
                    # An array of link objects: the others kept, `next` only while more follows.
                    links = [link for link in (value.get(member) or []) if isinstance(link, dict) and link.get(relation) != 'next']
                    if more:
                        template = copy.deepcopy((value.get(member) or [{}])[0]) if value.get(member) else {}
                        template.update({relation: 'next', href: target})
                        links.append(template)
                    value[member] = links
                elif more:
                    _set(value, member, target)
                else:
                    _remove(value, member)
                cursors.append({} if index == 0 else carried(index - 1))
            elif style == 'offset':
                total = sum(sizes) + (5 if ends_early else 0)
                _set(value, pagination['total'], total)
                cursors.append({} if index == 0 else {parameter: sum(sizes[:index])})
            elif style == 'pageNumber':
                first = pagination['first'] if first_page is None else first_page
                _set(value, member, first + index)
                if pagination.get('totalCountsPages'):
                    total = len(sizes) + (2 if ends_early else 0)
                else:
                    total = sum(sizes) + (5 if ends_early else 0)
                _set(value, pagination['total'], total)
                cursors.append({} if index == 0 else {parameter: first + index})
            else:
                return None, f'unknown pagination style {style!r}'
            pages.append((value, headers))
        result.append((mode, PagePlan(style, [p['name'] for p in linked] or [parameter], pages, cursors, stop, cancels, items_member,
                                      templates, dict(base.defaults or {}), set(base.null_members or ()))))
    return result, None


def arguments_for(arguments, plan, index):
    """The call's arguments as request `index` must carry them."""
    expected = copy.deepcopy(arguments)
    query = expected.setdefault('query', {})
    for name in plan.parameters:
        query.pop(name, None)
    query.update(plan.cursors[index])
    return expected


def result_failures(result, plan):
    """[(location, rule)] of the driver's report of a paged call."""
    if result.get('outcome') != 'ok':
        found = [(result.get('stage') or 'driver', f'driver {result.get("stage")}: {result.get("error")}')]
        if plan.served > plan.expected_requests:
            found.insert(0, ('request', f'{plan.served} page requests, expected {plan.expected_requests}'
                                        + (' (the task was cancelled after the first page)' if plan.cancels else '')))
        return found
    body = result.get('body')
    if not isinstance(body, dict) or not isinstance(body.get('pages'), list):
        return [('response.pages', f'the driver did not go through the pages method (body {str(body)[:80]})')]
    found = list(plan.failures)
    if body.get('cancelled', False) != plan.cancels:
        found.append(('response.pages', 'the task was cancelled after the first page, and the sequence did not end with CancellationError'
                      if plan.cancels else 'the sequence ended with CancellationError, though nothing cancelled it'))
    reported = body['pages']
    if len(reported) != plan.expected_requests:
        found.append(('response.pages', f'{len(reported)} pages read, expected {plan.expected_requests}'))
    if plan.served != plan.expected_requests:
        found.append(('request', f'{plan.served} page requests, expected {plan.expected_requests}'
                                 + (' (the task was cancelled after the first page)' if plan.cancels else '')))
    items = [item for page in reported for item in _items(page, plan.items_member)]
    expected = plan.expected_items()
    if len(items) != len(expected):
        found.append(('response.items', f'{len(items)} items arrived, expected {len(expected)} (each once, in order)'))
    else:
        # A page is a response: a member sent as null may read back absent
        # (compare.py), as in every other call's response.
        nulls = set()

        def collect(value, where):
            if isinstance(value, dict):
                for key, member in value.items():
                    if member is None:
                        nulls.add(f'{where}.{key}')
                    collect(member, f'{where}.{key}')
            elif isinstance(value, list):
                for index, element in enumerate(value):
                    collect(element, f'{where}[{index}]')
        collect(expected, 'response.items')
        # What the synthesized page's items allow (a default read back, a
        # member added for a oneOf branch dropped, a null read as absent),
        # carried to each item made from them.
        prefix = 'response.body' + (f'.{plan.items_member}' if plan.items_member else '')
        defaults = {}
        for index, template in enumerate(plan.templates[:len(expected)]):
            head = f'{prefix}[{template}]'
            for location, value in plan.base_defaults.items():
                if location == head or location.startswith(head + '.') or location.startswith(head + '['):
                    defaults[f'response.items[{index}]' + location[len(head):]] = value
            for location in plan.base_nulls:
                if location == head or location.startswith(head + '.') or location.startswith(head + '['):
                    nulls.add(f'response.items[{index}]' + location[len(head):])
        found += differences(expected, items, 'response.items', defaults=defaults, null_members=nulls)
    return found
