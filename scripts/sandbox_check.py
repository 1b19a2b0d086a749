#!/usr/bin/env python3
"""`make sandbox-check`: builds the sandbox (Sandbox/Server, Hummingbird 2),
starts it on a free loopback port with the four specs, and checks it as a
client would see it: a valid request gets the documented answer, a request
the spec forbids gets a 400 naming the rule and the spec's file:line, an
unknown backend a 404, the admin endpoint counts what each backend
received, a fault plan put through the admin endpoint injects a 429
with Retry-After after its latency, and a dropped response closes the
connection before any byte of an answer. Then measures a request mix over
loopback.

Prints `BENCH sandbox-build-debug <s> s` (the clean or incremental build it
ran), `BENCH sandbox-requests-per-s <n> req/s` (median of 3 runs of a mix of
valid and rejected requests over 4 keep-alive connections) and a last line
`sandbox: ok`; exits 1 on any failure."""
import http.client, json, os, statistics, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support

root = os.path.abspath('.')
package = os.path.join(root, 'Sandbox', 'Server')


fail = script_support.failing('sandbox')


started = time.monotonic()
build = subprocess.run(['swift', 'build', '--package-path', package, '--product', 'sandbox'], capture_output=True, text=True)
if build.returncode != 0:
    fail('build failed:\n' + build.stdout[-4000:] + build.stderr[-2000:])
print(f'BENCH sandbox-build-debug {time.monotonic() - started:.1f} s')

binary = os.path.join(package, '.build', 'debug', 'sandbox')
server = subprocess.Popen([binary, '--port', '0', '--specs', 'specs'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    line = server.stdout.readline()
    if 'listening on http://127.0.0.1:' not in line:
        fail(f'no listening line: {line!r} {server.stderr.read()[-2000:] if server.poll() is not None else ""}')
    port = int(line.split('127.0.0.1:')[1].split()[0])
    log_lines = []
    threading.Thread(target=lambda: [log_lines.append(l) for l in server.stdout], daemon=True).start()

    last_headers = {}

    def violations():
        """The broken rules of the last answer, from its Sandbox-Violations header."""
        return json.loads(last_headers.get('sandbox-violations', '[]'))

    def call(method, path, body=None, connection=None):
        own = connection is None
        connection = connection or http.client.HTTPConnection('127.0.0.1', port, timeout=10)
        headers = {'Content-Type': 'application/json'} if body is not None else {}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        data = response.read()
        if own:
            connection.close()
        last_headers.clear()
        last_headers.update({name.lower(): value for name, value in response.getheaders()})
        return response.status, (json.loads(data) if data and response.getheader('Content-Type', '').startswith('application/json') else data)

    status, body = call('POST', '/soul/api/auth/otp/request', {'phone': '+15555550123'})
    if status != 200 or body.get('preview_code') != '123456':
        fail(f'a staging OTP request got {status} {body}')
    status, body = call('POST', '/soul/api/auth/verify-otp', {'phone': '+15555550123', 'otp': '123456'})
    if status != 200 or 'access_token' not in body:
        fail(f'a valid verifyOTP got {status} {body}')
    status, body = call('POST', '/soul/api/auth/verify-otp', {'phone': '5555550123', 'otp': '123456'})
    rules = violations()
    if status != 400 or not isinstance(body, dict) or not isinstance(body.get('detail'), str) \
            or [v.get('rule') for v in rules] != ['pattern'] or 'specs/soul.yaml:' not in rules[0].get('spec', ''):
        fail(f'an invalid phone got {status} {body} {rules} (wanted SOUL\'s documented 400 body, the rule in Sandbox-Violations)')
    if '5555550123' in json.dumps(body) + json.dumps(rules):
        fail('the rejection echoes the phone number')
    status, body = call('GET', '/billing/api/x')
    if status != 404:
        fail(f'an unknown backend got {status} {body}')
    status, body = call('GET', '/securenode/api/mobile/branding/sync')
    if status != 401 or body.get('error') != 'unauthorized' or [v.get('rule') for v in violations()] != ['security']:
        fail(f'a sync without its API key got {status} {body} (wanted the spec\'s 401)')
    status, body = call('GET', '/_sandbox/requests')
    if status != 200 or body.get('soul', {}).get('requests') != 3 or body.get('soul', {}).get('rejected') != 1:
        fail(f'the admin record is {body}')
    time.sleep(0.2)
    if not any('soul POST /api/auth/verify-otp rejected (verifyOTP)' in l for l in log_lines):
        fail(f'no log line for the rejection: {log_lines}')

    # Faults through the admin endpoint: a 429 with Retry-After, after the injected latency.
    plan = {'latencyMilliseconds': 150, 'serverErrorShare': 0, 'rateLimitShare': 1, 'rateLimitRetryAfter': 3, 'malformedBodyShare': 0, 'seed': 7}
    status, body = call('PUT', '/_sandbox/faults', plan)
    if status != 200 or body.get('rateLimitShare') != 1:
        fail(f'the fault plan was not taken: {status} {body}')
    connection = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    begin = time.monotonic()
    connection.request('GET', '/soul/healthz')
    response = connection.getresponse()
    response.read()
    waited = time.monotonic() - begin
    connection.close()
    if response.status != 429 or response.getheader('Retry-After') != '3' or waited < 0.15:
        fail(f'an injected 429 came as {response.status}, Retry-After {response.getheader("Retry-After")}, after {waited:.3f} s')
    # A dropped response: the request is applied, then the connection closes
    # before any byte of an answer (no status line at all).
    status, body = call('PUT', '/_sandbox/faults', {'droppedResponseShare': 1, 'seed': 7})
    if status != 200:
        fail(f'the drop plan was not taken: {status} {body}')
    connection = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    connection.request('GET', '/soul/healthz')
    try:
        response = connection.getresponse()
        fail(f'a dropped response still answered {response.status}')
    except (http.client.RemoteDisconnected, ConnectionResetError):
        pass
    connection.close()
    status, body = call('PUT', '/_sandbox/faults', dict(plan, latencyMilliseconds=0, rateLimitShare=0))
    if status != 200:
        fail(f'the faults could not be cleared: {status} {body}')

    # A mix over loopback: valid and rejected requests, 4 keep-alive connections
    # (SOUL's state answers: a code request that may meet the rate limit, a
    # verification of a code no longer pending, the health check, a broken mood).
    mix = [('POST', '/soul/api/auth/verify-otp', {'phone': '+15555550123', 'otp': '123456'}),
           ('GET', '/soul/healthz', None),
           ('POST', '/soul/api/moods', {'score': 11}),
           ('POST', '/soul/api/auth/otp/request', {'phone': '+15555550123'})]

    def run_mix(count):
        def worker():
            connection = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
            for i in range(count):
                call(*mix[i % len(mix)], connection=connection)
            connection.close()
        threads = [threading.Thread(target=worker) for _ in range(4)]
        begin = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return 4 * count / (time.monotonic() - begin)

    rates = [run_mix(500) for _ in range(3)]
    print(f'sandbox: {", ".join(f"{r:.0f}" for r in rates)} requests/s over 3 runs of 2000')
    print(f'BENCH sandbox-requests-per-s {statistics.median(rates):.0f} req/s')
    print('sandbox: ok')
finally:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
