"""Schemathesis hooks for `make sandbox-fuzz`: how each backend's fuzz run
signs in, the way an app does, through the sandbox's own API.

- SOUL: `POST /api/auth/otp/request` for a number, then
  `POST /api/auth/verify-otp` with the code the staging answer previews;
  every protected call carries `Authorization: Bearer <access_token>`.
- Safepocket: the hosted sign-in page (`GET /oauth2/authorize` with a PKCE
  S256 challenge) redirects with a code, `POST /auth/token` exchanges it
  with the verifier; calls carry the access token.
- SecureNode and MobileTracker: the API key the sandbox was started with,
  in `X-API-Key`.

Which backend, its base URL and its key come from the environment
(`SANDBOX_FUZZ_BACKEND`, `SANDBOX_FUZZ_BASE`, `SANDBOX_FUZZ_API_KEY`) that
run.py sets for each run. A sign-in that fails stops the run with the
status and body it got: a fuzz run without credentials would only show
that the sandbox refuses them.
"""
import base64, hashlib, json, os, secrets, urllib.error, urllib.parse, urllib.request

import schemathesis

BACKEND = os.environ.get('SANDBOX_FUZZ_BACKEND', '')
BASE = os.environ.get('SANDBOX_FUZZ_BASE', '')
API_KEY = os.environ.get('SANDBOX_FUZZ_API_KEY', '')
# Each sign-in uses a number of its own: SOUL allows three code requests
# per number a minute.
_sign_ins = iter(range(10_000_000))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _call(method, path, body=None, query=None):
    url = BASE + path + ('?' + urllib.parse.urlencode(query) if query else '')
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={'Content-Type': 'application/json'} if data else {})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _require(condition, step, status, body):
    if not condition:
        raise RuntimeError(f'sandbox-fuzz: signing in to {BACKEND} failed at {step}: {status} {body[:300]!r}')


def _soul_token():
    phone = f'+1555{next(_sign_ins):07d}'
    status, _, body = _call('POST', '/api/auth/otp/request', {'phone': phone})
    _require(status == 200, 'otp/request', status, body)
    code = json.loads(body).get('preview_code')
    _require(code, 'otp/request (no preview_code: start the sandbox in staging mode)', status, body)
    status, _, body = _call('POST', '/api/auth/verify-otp', {'phone': phone, 'otp': code})
    _require(status == 200, 'verify-otp', status, body)
    return json.loads(body)['access_token']


def _safepocket_token():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b'=').decode()
    redirect = 'safepocket://auth/callback'
    status, headers, body = _call('GET', '/oauth2/authorize', query={
        'response_type': 'code', 'client_id': 'sandbox-fuzz', 'redirect_uri': redirect, 'state': 'fuzz',
        'code_challenge': challenge, 'code_challenge_method': 'S256'})
    location = headers.get('Location') or headers.get('location') or ''
    _require(status == 302 and location, 'oauth2/authorize', status, body)
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query).get('code', [''])[0]
    status, _, body = _call('POST', '/auth/token', {'grantType': 'authorization_code', 'code': code, 'redirectUri': redirect, 'codeVerifier': verifier})
    _require(status == 200, 'auth/token', status, body)
    return json.loads(body)['accessToken']


# No refetch on a 401: a fuzzed refresh token or a fuzzed bearer is
# refused with 401 on purpose, and signing in again would not change it.
@schemathesis.auth(refresh_interval=600, retry_on=[])
class SandboxSignIn:
    """Signs in once per ten minutes and puts the credential on every call."""

    def get(self, case, context):
        if BACKEND == 'soul':
            return _soul_token()
        if BACKEND == 'safepocket':
            return _safepocket_token()
        return API_KEY

    def set(self, case, data, context):
        case.headers = case.headers or {}
        if BACKEND in ('soul', 'safepocket'):
            case.headers['Authorization'] = f'Bearer {data}'
        else:
            case.headers['X-API-Key'] = data
