#!/usr/bin/env python3
"""`make guide`: follows docs/OwnSpec.md word for word in a scratch package.

Usage: own_spec_guide.py SPEC [--work DIR] [--keep]

The guide's fenced blocks are its steps, in order: a ```sh block runs in the
app package's folder (bash, stopping at the first failing command); a
```swift PATH block is written to PATH. The team's spec is SPEC, copied to
openapi.yaml; the folder is a git repository with the spec committed, as a
team's would be. The two changes made to the guide's text: this
repository's URL becomes the working tree published as a tagged git
repository (scripts/published_package.py), and the server URL's port
(8080) becomes the port of a petstore double this script runs, which
answers as the spec says and records every request.

Then checks what a new user would: the app's output (calls, a retry, the
four error kinds), that the double saw only requests the spec allows (no
`//` in a path, JSON bodies with the right content type), and what the
package fetched and built (never Hummingbird or SwiftNIO).
Prints `guide: N steps ok, ...` and exits 1 on any failure."""
import argparse, http.server, json, os, re, shutil, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support
import published_package as published

parser = argparse.ArgumentParser()
parser.add_argument('spec')
parser.add_argument('--work', default=None, help='scratch folder (default: a new temporary one)')
parser.add_argument('--keep', action='store_true', help='keep the scratch folder')
args = parser.parse_args()

root = os.path.abspath('.')
guide_path = os.path.join(root, 'docs', 'OwnSpec.md')
work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix='own-spec-guide-')
app = os.path.join(work, 'PetsApp')


fail = script_support.failing('guide')


# --- The guide's steps --------------------------------------------------------

def steps(text):
    """(kind, path, body) for each fenced block the script acts on."""
    found = []
    for match in re.finditer(r'^```([^\n]*)\n(.*?)^```\s*$', text, re.S | re.M):
        info, body = match.group(1).split(), match.group(2)
        if info[:1] == ['sh']:
            found.append(('sh', None, body))
        elif info[:1] == ['swift'] and len(info) == 2:
            found.append(('swift', info[1], body))
    return found


# --- A petstore that answers as the spec says ---------------------------------

PETS = [{'id': 1, 'name': 'Rex'}, {'id': 2, 'name': 'Tom'}]


class Petstore(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    requests = []
    violations = []
    lock = threading.Lock()
    list_calls = 0

    def log_message(self, *_):
        pass

    def reply(self, status, body=None, headers=()):
        data = b'' if body is None else json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if body is not None:
            self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def violation(self, rule):
        with Petstore.lock:
            Petstore.violations.append(f'{self.command} {self.path}: {rule}')
        self.reply(400, {'code': 400, 'message': rule})

    def record(self, body):
        with Petstore.lock:
            Petstore.requests.append((self.command, self.path, dict(self.headers), body))

    def do_GET(self):
        self.record(None)
        path, _, query = self.path.partition('?')
        if '//' in path:
            return self.violation('a path with // (the server URL was not normalised)')
        if 'application/json' not in self.headers.get('Accept', ''):
            return self.violation('Accept does not name application/json')
        if path == '/v1/pets':
            limit = dict(p.split('=', 1) for p in query.split('&') if '=' in p).get('limit')
            if limit is not None and not (limit.isdigit() and int(limit) <= 100):
                return self.violation(f'limit {limit} breaks maximum: 100')
            with Petstore.lock:
                Petstore.list_calls += 1
                first = Petstore.list_calls == 1
            if first:  # one 503 first: the retry layer must absorb it
                return self.reply(503, {'code': 503, 'message': 'warming up'}, [('Retry-After', '0')])
            return self.reply(200, PETS[: int(limit or 100)], [('x-next', '/v1/pets?page=2')])
        match = re.fullmatch(r'/v1/pets/([^/]+)', path)
        if not match:
            return self.violation('no such path in the spec')
        pet = match.group(1)
        if pet == '0':
            return self.reply(404, {'code': 404, 'message': 'no pet 0'})
        if pet == '500':
            return self.reply(500, {'code': 500, 'message': 'database down'})
        if pet == 'broken':
            return self.reply(200, {'id': 'seven', 'name': 'Rex'})
        return self.reply(200, PETS[0])

    def do_POST(self):
        length = int(self.headers.get('Content-Length', '0'))
        body = self.rfile.read(length)
        self.record(body)
        if self.path != '/v1/pets':
            return self.violation('no such path in the spec')
        if self.headers.get('Content-Type', '').split(';')[0] != 'application/json':
            return self.violation('the body is not sent as application/json')
        try:
            pet = json.loads(body)
        except ValueError:
            return self.violation('the body is not JSON')
        if not (isinstance(pet, dict) and isinstance(pet.get('id'), int) and isinstance(pet.get('name'), str)):
            return self.violation('the body is not a Pet (id: integer, name: string required)')
        self.reply(201)


# --- Run ---------------------------------------------------------------------

if not os.path.isfile(args.spec):
    fail(f'no spec at {args.spec}')
shutil.rmtree(work, ignore_errors=True)
os.makedirs(app)
repository_url, _ = published.publish(work)
# The URL the guide names for this repository.
GUIDE_URL = 'https://github.com/your-org/openapi-mobile-clients.git'
shutil.copyfile(args.spec, os.path.join(app, 'openapi.yaml'))
git = ['git', '-c', 'user.name=guide', '-c', 'user.email=guide@example.invalid']
for command in (['git', 'init', '-q'], ['git', 'add', 'openapi.yaml'], git + ['commit', '-q', '-m', 'The spec']):
    subprocess.run(command, cwd=app, check=True)

server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Petstore)
threading.Thread(target=server.serve_forever, daemon=True).start()
port = server.server_address[1]

blocks = steps(open(guide_path, encoding='utf-8').read())
if not any(kind == 'swift' for kind, _, _ in blocks) or not any(kind == 'sh' for kind, _, _ in blocks):
    fail(f'{guide_path} has no ```sh or ```swift PATH blocks')
outputs = []
started = time.monotonic()
for number, (kind, path, body) in enumerate(blocks, 1):
    if kind == 'swift':
        target = os.path.join(app, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, 'w', encoding='utf-8') as f:
            f.write(body.replace(GUIDE_URL, repository_url))
        print(f'guide step {number}: wrote {path}')
        continue
    script = body.replace('127.0.0.1:8080', f'127.0.0.1:{port}')
    print(f'guide step {number}: {script.strip().splitlines()[0]}' + (' ...' if script.strip().count('\n') else ''))
    run = subprocess.run(['bash', '-e', '-o', 'pipefail', '-c', script], cwd=app, capture_output=True, text=True)
    outputs.append((script, run))
    if run.returncode != 0:
        fail(f'step {number} exited {run.returncode}:\n{script}\n--- stdout\n{run.stdout[-3000:]}\n--- stderr\n{run.stderr[-3000:]}')
seconds = time.monotonic() - started
server.shutdown()

# What the app printed, from the step that ran it.
app_run = next((run for script, run in outputs if 'swift run PetsApp' in script), None)
if app_run is None:
    fail('the guide never runs the app (no `swift run PetsApp` step)')
printed = app_run.stdout.splitlines()
expected = [
    r'pets: Rex, Tom',
    r'created: Tom',
    r'refused: listPets: query\.limit .*maximum 100.*',
    r'not found: no pet 0',
    r'status 500: database down',
    r'bad response at id',
    r'network failure: unreachable',
]
if len(printed) != len(expected) or not all(re.fullmatch(e, line) for e, line in zip(expected, printed)):
    fail('the app printed:\n' + '\n'.join(printed) + '\nexpected lines matching:\n' + '\n'.join(expected))

# What the server saw.
if Petstore.violations:
    fail('the double saw requests the spec does not allow:\n' + '\n'.join(Petstore.violations))
lists = [r for r in Petstore.requests if r[0] == 'GET' and r[1].startswith('/v1/pets?')]
if [r[1] for r in lists] != ['/v1/pets?limit=2', '/v1/pets?limit=2']:
    fail(f'expected listPets twice (a 503, then its retry): {[r[1] for r in lists]}')
# A 500 on a GET is retried (3 attempts in all); a 404 and a 200 are not; the refused call never left.
seen = [r[:2] for r in Petstore.requests]
if [p for m, p in seen if p.startswith('/v1/pets/')] != ['/v1/pets/0'] + ['/v1/pets/500'] * 3 + ['/v1/pets/broken']:
    fail(f'expected each pet call once, the 500 three times: {seen}')
if len(seen) != 8 or ('POST', '/v1/pets') not in seen:
    fail(f'expected 8 requests (list, its retry, create, five pet calls): {seen}')

# What the package pulled in.
if not any(GUIDE_URL in body for kind, _, body in blocks if kind == 'swift'):
    fail(f'the guide no longer names this repository as {GUIDE_URL}')
unwanted = published.report('guide-app', app)
if unwanted:
    fail(f'the app fetched what must never reach it: {unwanted}')
identities = [name for name, _ in published.fetched(app)]

# The header the guide quotes is the one the generator writes.
quoted = re.search(r'^```\n(// Generated by clientgen[^\n]*\n//[^\n]*)\n```', open(guide_path, encoding='utf-8').read(), re.M)
header = ''.join(open(os.path.join(app, 'Sources', 'PetsAPI', 'Client.swift'), encoding='utf-8').readlines()[:2]).rstrip('\n')
if not quoted or quoted.group(1) != header:
    fail(f'the guide quotes a header that is not what clientgen writes:\n{header}')

generated = sum(open(os.path.join(app, 'Sources', 'PetsAPI', f), encoding='utf-8').read().count('\n')
                for f in os.listdir(os.path.join(app, 'Sources', 'PetsAPI')))
print(f'guide: {len(blocks)} steps ok in {seconds:.0f} s; {os.path.basename(args.spec)} -> {generated} generated lines; '
      f'{len(Petstore.requests)} requests, 0 violations; fetched {len(identities)} packages ({", ".join(identities)})')
if not args.keep:
    shutil.rmtree(work, ignore_errors=True)
