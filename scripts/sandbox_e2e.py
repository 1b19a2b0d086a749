#!/usr/bin/env python3
"""`make sandbox-e2e`: the four SDKs end to end against the sandbox process.

Builds the sandbox (Sandbox/Server) and the four sample apps (each a thin
command line over its SDK and generated client), starts the sandbox in
strict mode (every request and every answer checked against its spec) with
a SecureNode dataset that changes every 2 seconds,
and runs each app as an app team would:

- SOUL: sign in with the staging code, add a mood, list moods while the
  sandbox expires the access token of that call (the SDK refreshes and
  retries on its own); then offline: the server's port closes, moods are
  served from the cache with their age, a new mood is queued, the port
  opens again and the next run sends it first, once (the sandbox counts 2
  moods); sign out, and see the next call refused.
- Safepocket: start a PKCE sign-in, follow the sandbox's authorization page
  to its redirect, exchange the code, read accounts and two months of
  transactions; accounts served from the cache while the port is closed;
  sign out.
- SecureNode: a full sync of 5,000 numbers, lookups, an incremental sync
  after changes arrived, then calls recorded while the sandbox drops 25% of
  answers after applying them and fails 5% with 503, and the outbox
  delivered once the faults stop: every event is billed exactly once.
- MobileTracker: events tracked and flushed while 30% of answers are dropped
  and 20% fail: every
  event arrives (at least once; repeats are counted, not lost).

SOUL and Safepocket reach the sandbox through a gate: a port that forwards
to it and can close (connections refused, as for a stopped server) and open
again on the same address, while the sandbox keeps its state as a server
restarted over its database would.

Then checks the sandbox's record: no request rejected, no strict-mode
failure, and no token, code or full phone number in any app's output.
Last, starts a sandbox with a 1,000,000-number dataset, streams a full sync
and prints its peak RSS: `BENCH sandbox-peak-rss-1m <MB> MB` and
`BENCH sandbox-full-sync-1m <s> s`. Exits 1 on any failure."""
import http.client, json, os, re, socket, subprocess, sys, tempfile, threading, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support

root = os.path.abspath('.')
package = os.path.join(root, 'Sandbox', 'Server')
apps = ['soul-example', 'safepocket-example', 'securenode-example', 'tracker-example']
# The Makefile's flags for debug builds into .build (the same for every one, so each reuses the last).
debug_flags = (os.environ.get('DEBUG_BUILD_FLAGS') or open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'debug_build_flags')).read()).split()
outputs = []


fail = script_support.failing('sandbox-e2e')


def build():
    for command in (['swift', 'build', '--package-path', package, '--product', 'sandbox'],
                    *(['swift', 'build', *debug_flags, '--product', app] for app in apps)):
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            fail(f'{" ".join(command)} failed:\n{result.stdout[-3000:]}{result.stderr[-2000:]}')


class SandboxProcess:
    """The sandbox on a free port, its log lines collected."""

    def __init__(self, *flags):
        binary = os.path.join(package, '.build', 'debug', 'sandbox')
        self.process = subprocess.Popen([binary, '--port', '0', '--specs', 'specs', *flags],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if 'listening on http://127.0.0.1:' not in line:
            fail(f'the sandbox did not start: {line!r}')
        self.port = int(line.split('127.0.0.1:')[1].split()[0])
        self.base = f'http://127.0.0.1:{self.port}'
        self.lines = []
        threading.Thread(target=lambda: [self.lines.append(l) for l in self.process.stdout], daemon=True).start()

    def call(self, method, path, body=None):
        connection = http.client.HTTPConnection('127.0.0.1', self.port, timeout=120)
        headers = {'Content-Type': 'application/json'} if body is not None else {}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, response.getheader('Location'), (json.loads(data) if data else None)

    def state(self, backend):
        return self.call('GET', '/_sandbox/requests')[2].get(backend, {})

    def faults(self, **plan):
        status, _, body = self.call('PUT', '/_sandbox/faults', plan)
        if status != 200:
            fail(f'the fault plan {plan} was refused: {body}')

    def peak_rss_mb(self):
        with open(f'/proc/{self.process.pid}/status') as status:
            for line in status:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1]) / 1024
        return float('nan')

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Gate:
    """A port forwarding to the sandbox that can close (connections are
    refused, as by a stopped server) and open again on the same port."""

    def __init__(self, target_port):
        self.target = target_port
        self.port = 0
        self.listener = None
        self.connections = []
        self.lock = threading.Lock()
        self.open()

    def open(self):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(('127.0.0.1', self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def close(self):
        """Stops listening and cuts every open connection."""
        try:
            # close() alone leaves the socket listening while accept() blocks on it.
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            for connection in self.connections:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                connection.close()
            self.connections.clear()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(('127.0.0.1', self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def run(app, *args, expect=0):
    """Runs a sample app; returns its JSON output lines."""
    result = subprocess.run([os.path.join(root, '.build', 'debug', app), *args], capture_output=True, text=True, timeout=180)
    outputs.append(result.stdout + result.stderr)
    if expect is not None and (result.returncode == 0) != (expect == 0):
        fail(f'{app} {" ".join(args)} exited {result.returncode}:\n{result.stdout[-2000:]}{result.stderr[-2000:]}')
    lines = []
    for line in result.stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            pass
    return lines


def draws(seed, count):
    """The sandbox's fault draws for `seed` (SplitMix64, 53-bit units)."""
    mask, state, out = (1 << 64) - 1, seed, []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        out.append((z >> 11) / float(1 << 53))
    return out


def seed_where(condition):
    return next(seed for seed in range(1, 10000) if condition(draws(seed, 8)))


def soul(sandbox, folder):
    gate = Gate(sandbox.port)
    common = ['--base-url', f'http://127.0.0.1:{gate.port}/soul', '--state', folder]
    signed = run('soul-example', *common, '--staging', 'login', '+15555550123', '123456')
    if not any(l.get('event') == 'signed_in' for l in signed):
        fail(f'soul login: {signed}')
    run('soul-example', *common, 'add-mood', '7', 'calm after the sandbox')
    # A run starts from the stored refresh token (refresh, then the call).
    # Expire the access token of the call (the 2nd draw) and of no later
    # request: the SDK must refresh once more and retry on its own.
    sandbox.faults(expiredTokenShare=0.5, seed=seed_where(lambda d: d[1] < 0.5 and min(d[2:6]) >= 0.5))
    moods = run('soul-example', *common, 'moods')
    sandbox.faults()
    moods = moods[0]['moods'] if moods and 'moods' in moods[0] else moods
    if len(moods) != 1 or moods[0].get('score') != 7:
        fail(f'soul moods after the token expired: {moods}')
    state = sandbox.state('soul')['state']
    if state['expiredTokens'] != 1 or state['refusedRefreshes'] != 0 or state['moodsCreated'] != 1:
        fail(f'soul state: {state}')

    # Offline: the server's port closes.
    gate.close()
    cached = run('soul-example', *common, 'moods')[0]
    if cached.get('source') != 'cache' or 'age_seconds' not in cached or len(cached.get('moods', [])) != 1:
        fail(f'soul moods while offline: {cached}')
    queued = run('soul-example', *common, 'add-mood', '5', 'written offline')[0]
    if queued.get('queued') is not True:
        fail(f'soul add-mood while offline: {queued}')
    waiting = run('soul-example', *common, 'pending')
    if len(waiting) != 1:
        fail(f'soul pending while offline: {waiting}')
    # Back on the same address: the next run sends the queued mood first, once.
    gate.open()
    online = run('soul-example', *common, 'moods')[0]
    if online.get('source') != 'network' or len(online.get('moods', [])) != 2:
        fail(f'soul moods back online: {online}')
    run('soul-example', *common, 'moods')
    state = sandbox.state('soul')['state']
    if state['moodsCreated'] != 2 or run('soul-example', *common, 'pending'):
        fail(f'soul: the queued mood was not delivered exactly once: {state}')

    run('soul-example', *common, 'logout')
    run('soul-example', *common, 'moods', expect=1)
    gate.close()
    return (f'signed in, 1 mood, an access token expired mid-run and refreshed ({state["refreshCalls"]} refreshes in all); '
            f'offline: moods from the cache ({cached["age_seconds"]} s old), 1 mood queued and delivered once on reconnect; signed out')


def safepocket(sandbox, folder):
    gate = Gate(sandbox.port)
    common = ['--base-url', f'http://127.0.0.1:{gate.port}/safepocket', '--state', folder,
              '--authorize-endpoint', sandbox.base + '/safepocket/oauth2/authorize', '--client-id', 'sandbox-app']
    url = run('safepocket-example', *common, 'authorize-url')[0]['authorize_url']
    parsed = urllib.parse.urlsplit(url)
    status, location, body = sandbox.call('GET', parsed.path + '?' + parsed.query)
    if status != 302 or not location:
        fail(f'the authorization page answered {status} {body}')
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    run('safepocket-example', *common, 'exchange', '--', query['code'], query['state'])
    accounts = run('safepocket-example', *common, 'accounts')[0]['accounts']
    this_month = run('safepocket-example', *common, 'transactions')[0]['transactions']
    earlier = time.gmtime(time.time() - 200 * 86400)
    older = run('safepocket-example', *common, 'transactions', '--month', f'{earlier.tm_year:04d}-{earlier.tm_mon:02d}')[0]['transactions']
    if len(accounts) < 2 or not older:
        fail(f'safepocket accounts {accounts} or transactions {older}')
    gate.close()
    cached = run('safepocket-example', *common, 'accounts')[0]
    if cached.get('source') != 'cache' or 'age_seconds' not in cached or len(cached.get('accounts', [])) != len(accounts):
        fail(f'safepocket accounts while offline: {cached}')
    gate.open()
    run('safepocket-example', *common, 'logout')
    gate.close()
    state = sandbox.state('safepocket')['state']
    if state['codeExchanges'] != 1:
        fail(f'safepocket state: {state}')
    return (f'PKCE sign-in, {len(accounts)} accounts, {len(this_month)} + {len(older)} transaction lines, '
            f'accounts from the cache while offline ({cached["age_seconds"]} s old), signed out')


def securenode(sandbox, folder):
    common = ['--base-url', sandbox.base + '/securenode', '--api-key', 'sk_sandbox', '--state', folder]
    full = run('securenode-example', *common, 'sync')[-1]
    # 5,000 numbers, give or take the batches of 4 changes that arrived
    # (every 2 s) before this sync, by how long the earlier scenarios took.
    if full.get('kind') != 'full' or abs(full.get('records', 0) - 5000) > 16 or full.get('stored') != full.get('records'):
        fail(f'securenode full sync: {full}')
    found = run('securenode-example', *common, 'lookup', '+15550000042', '+19995550000')
    if [l.get('match') for l in found] != [True, False]:
        fail(f'securenode lookups: {found}')
    time.sleep(4.5)  # two batches of changes arrive
    delta = run('securenode-example', *common, 'sync')[-1]
    if delta.get('kind') != 'incremental' or delta.get('stored', 0) + delta.get('deleted', 0) == 0:
        fail(f'securenode incremental sync: {delta}')
    # Each failed attempt doubles the outbox's backoff (2 s base, full
    # jitter), and `deliver` waits it out: shares kept low enough that five
    # failures of one event in a row (a wait past a minute) stay unlikely.
    sandbox.faults(droppedResponseShare=0.25, serverErrorShare=0.05, seed=5)
    calls = 5
    for index in range(calls):
        # What is not delivered within 4 s stays in the outbox for `deliver`.
        run('securenode-example', *common, 'call', f'+1555000{index:04d}', '--outcome', 'ANSWERED', '--timeout', '4')
    sandbox.faults()
    delivered = run('securenode-example', *common, 'deliver', '--timeout', '150')[-1]
    state = sandbox.state('securenode')
    billed = state['state']['eventsBilled']
    if delivered.get('pending') != 0 or billed != calls:
        fail(f'securenode billing under faults: {calls} calls, {billed} billed, outbox {delivered}, state {state}')
    # The README's event body: identity displayed on the display, the call's outcome in meta.
    shapes = state['state'].get('eventShapes', {})
    if shapes != {'displayed/display/ANSWERED': calls}:
        fail(f'securenode event bodies are not the README\'s (outcome/surface/meta.call_outcome): {shapes}')
    return (f'full sync {full["records"]} records, incremental {delta["stored"]} stored + {delta["deleted"]} deleted, '
            f'{calls} calls billed {billed} times under {state["injected"]} injected faults ({state["state"]["billingReplays"]} replays)')


def securenode_damaged(folder):
    """A server that sends bare tombstones and empty logo URLs, behind a
    gateway that answers 403 pages at the root mount."""
    sandbox = SandboxProcess('--securenode-numbers', '300', '--securenode-change-interval', '1', '--securenode-changes', '9',
                             '--securenode-damaged-records', '--securenode-root-answer', 'forbidden', '--seed', '3')
    try:
        common = ['--base-url', sandbox.base + '/securenode', '--api-key', 'sk_sandbox', '--state', folder]
        full = run('securenode-example', *common, 'sync')[-1]
        if full.get('kind') != 'full' or full.get('records', 0) < 290:
            fail(f'securenode behind a gateway: {full}')
        time.sleep(2.5)
        delta = run('securenode-example', *common, 'sync')[-1]
        if delta.get('kind') != 'incremental' or delta.get('retry_pending') or delta.get('skipped') != 0 \
                or delta.get('dropped_fields', 0) == 0 or delta.get('deleted', 0) == 0:
            fail(f'securenode damaged records: {delta}')
        with open(os.path.join(folder, 'api-mount')) as mount:
            if mount.read() != '/api':
                fail('securenode pinned the gateway\'s mount')
        return (f'behind a gateway\'s 403 at the root: /api pinned; damaged delta: {delta["deleted"]} bare tombstones applied, '
                f'{delta["dropped_fields"]} empty logo URLs dropped, nothing skipped')
    finally:
        sandbox.stop()


def tracker(sandbox, folder):
    common = ['--base-url', sandbox.base + '/mobiletracker', '--api-key', 'tk_sandbox', '--brand-id', '7', '--state', folder]
    sandbox.faults(droppedResponseShare=0.3, serverErrorShare=0.2, seed=9)
    names = [f'E2E_EVENT_{index}' for index in range(8)]
    for name in names:
        run('tracker-example', *common, 'track', name, f'index={name[-1]}', expect=None)
    sandbox.faults()
    run('tracker-example', *common, 'flush')
    state = sandbox.state('mobiletracker')['state']
    missing = [name for name in names if state['eventsByName'].get(name, 0) < 1]
    if missing:
        fail(f'tracker events lost: {missing}; state {state}')
    return f'{len(names)} events tracked under faults, all arrived ({state["repeatedEvents"]} repeats, {state["sessions"]} session)'


def main():
    build()
    sandbox = SandboxProcess('--strict', '--securenode-numbers', '5000', '--securenode-change-interval', '2',
                             '--securenode-changes', '4', '--seed', '11', '--securenode-api-key', 'sk_sandbox', '--tracker-api-key', 'tk_sandbox')
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for name, scenario in [('soul', soul), ('safepocket', safepocket), ('securenode', securenode), ('mobiletracker', tracker)]:
                begin = time.monotonic()
                print(f'sandbox-e2e: {name}: {scenario(sandbox, os.path.join(scratch, name))} ({time.monotonic() - begin:.1f} s)')
            begin = time.monotonic()
            print(f'sandbox-e2e: securenode, damaged: {securenode_damaged(os.path.join(scratch, "securenode-damaged"))} '
                  f'({time.monotonic() - begin:.1f} s)')
        record = sandbox.call('GET', '/_sandbox/requests')[2]
        rejected = {name: entry['rejected'] for name, entry in record.items() if entry['rejected']}
        if rejected:
            fail(f'the sandbox rejected requests the apps sent: {rejected}; log: {"".join(sandbox.lines)[-3000:]}')
        strict = [line for line in sandbox.lines if 'strict:' in line]
        if strict:
            fail(f'strict mode found answers that break the specs: {strict[:3]}')
        text = '\n'.join(outputs)
        for secret in ['15555550123', 'sk_sandbox', 'tk_sandbox']:
            if secret in text:
                fail(f'an app printed a secret ({secret[:3]}...)')
        if re.search(r'\b[ar]t-[0-9a-f]{8}-', text):
            fail('an app printed an access or refresh token')
        print(f'sandbox-e2e: {sum(entry["requests"] for entry in record.values())} requests, 0 rejected, 0 strict failures, no secret in app output')
    finally:
        sandbox.stop()

    big = SandboxProcess('--securenode-numbers', '1000000', '--securenode-change-interval', '0')
    try:
        idle = big.peak_rss_mb()
        begin = time.monotonic()
        connection = http.client.HTTPConnection('127.0.0.1', big.port, timeout=300)
        connection.request('GET', '/securenode/api/mobile/branding/sync', headers={'X-API-Key': 'sk_sandbox'})
        response = connection.getresponse()
        size, tail = 0, b''
        while chunk := response.read(1 << 20):
            size += len(chunk)
            tail = (tail + chunk)[-200:]
        elapsed = time.monotonic() - begin
        if response.status != 200 or b'"synced_at"' not in tail:
            fail(f'the 1M full sync answered {response.status}, {size} bytes')
        peak = big.peak_rss_mb()
        print(f'sandbox-e2e: 1,000,000-number full sync: {size / 1e6:.0f} MB in {elapsed:.1f} s; peak RSS {idle:.0f} MB idle, {peak:.0f} MB after')
        print(f'BENCH sandbox-full-sync-1m {elapsed:.1f} s')
        print(f'BENCH sandbox-peak-rss-1m {peak:.0f} MB')
    finally:
        big.stop()
    print('sandbox-e2e: ok')


main()
