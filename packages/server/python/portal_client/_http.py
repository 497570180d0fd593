"""The client's HTTP: JSON calls with the token, the CLI's time limit and retries, and errors by kind."""

from __future__ import annotations

import base64
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Iterable, Optional

from .errors import (
    AuthError,
    ConflictError,
    NetworkError,
    NotFoundError,
    PortalError,
    RateLimitError,
    ServerError,
    ValidationError,
)

# The same network behaviour as the `portal` CLI: a call with no answer after this many seconds fails (PORTAL_TIMEOUT),
# and reads (GET) are tried again after these waits when the server cannot be reached or answers 502, 503 or 504.
DEFAULT_TIMEOUT = 30.0
RETRY_DELAYS = (0.3, 0.9)
RETRYABLE = (502, 503, 504)
# A session token is refreshed when under 30 minutes remain, at most once a minute (SPEC section 6).
REFRESH_BEFORE_S = 30 * 60
REFRESH_EVERY_S = 60
KEY_PREFIX = "pk_"


def error_for(
    status: int, message: str, code: Optional[str] = None, retry_after: Optional[float] = None
) -> PortalError:
    """The error of the kind an HTTP status means."""
    if status == 429:
        return RateLimitError(message, status=status, code=code, retry_after=retry_after)
    if status in (401, 403):
        return AuthError(message, status=status, code=code)
    if status == 404:
        return NotFoundError(message, status=status, code=code)
    if status == 409:
        return ConflictError(message, status=status, code=code)
    if status >= 500:
        return ServerError(message, status=status, code=code)
    if 400 <= status < 500:
        return ValidationError(message, status=status, code=code)
    return PortalError(message, status=status, code=code)


def http_error(err: urllib.error.HTTPError) -> PortalError:
    """The API's error body as an error of its kind; a body that is not the API's (a proxy's page) gives the status."""
    plain = "HTTP %d" % err.code
    message, code = plain, None
    try:
        body = json.loads(err.read().decode("utf-8"))
        message = str(body["error"]["message"])
        code = body["error"].get("code")
    except Exception:  # noqa: BLE001 - any unreadable body: the status says what happened
        code = None
    if err.code >= 500:
        message = "Server error %d%s. Try again later." % (err.code, "" if message == plain else ": " + message)
    retry_after = None
    header = err.headers.get("retry-after") if err.headers else None
    if header:
        try:
            retry_after = float(header)
        except ValueError:
            retry_after = None
    return error_for(err.code, message, code, retry_after)


def _token_expiry(token: str) -> Optional[float]:
    """The `exp` of a session token (a JWT), or None when it is not one."""
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return float(claims["exp"])
    except Exception:  # noqa: BLE001 - not a JWT: nothing to refresh
        return None


class Transport:
    """Sends the calls of one client: the token, base URL, time limit and retries in one place."""

    def __init__(self, token: str, base_url: str, timeout: Optional[float]) -> None:
        self.token = token
        self.base_url = base_url
        self.timeout = timeout
        self._refreshed_at = 0.0

    def url(self, path: str) -> str:
        return path if path.startswith(("http://", "https://")) else self.base_url + path

    def origin(self) -> str:
        parts = urllib.parse.urlsplit(self.base_url)
        return "%s://%s" % (parts.scheme, parts.netloc)

    def timed_out(self) -> NetworkError:
        seconds = ("%g" % self.timeout) if self.timeout else "?"
        return NetworkError(
            "No answer from %s: timed out after %s s. Try again, or allow longer with timeout= or PORTAL_TIMEOUT."
            % (self.origin(), seconds),
            code="timeout",
        )

    def unreachable(self, err: urllib.error.URLError) -> NetworkError:
        reason = err.reason.strerror if isinstance(err.reason, OSError) and err.reason.strerror else err.reason
        return NetworkError(
            "Cannot reach %s (%s). Check the API address and your network, then try again."
            % (self.origin(), str(reason).lower()),
            code="network",
        )

    def open(self, request: urllib.request.Request, retry: bool, use: Callable[[Any], Any]) -> Any:
        """Opens a request and hands the answer to `use`; reads are tried again on 502/503/504 and lost connections."""
        attempt = 0
        while True:
            again = retry and attempt < len(RETRY_DELAYS)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                    return use(resp)
            except urllib.error.HTTPError as err:
                if again and err.code in RETRYABLE:
                    time.sleep(RETRY_DELAYS[attempt])
                    attempt += 1
                    continue
                raise http_error(err) from None
            except (socket.timeout, TimeoutError):
                # A timed-out call is not repeated: the limit is the caller's bound on waiting.
                raise self.timed_out() from None
            except urllib.error.URLError as err:
                if isinstance(err.reason, (socket.timeout, TimeoutError)):
                    raise self.timed_out() from None
                if again:
                    time.sleep(RETRY_DELAYS[attempt])
                    attempt += 1
                    continue
                raise self.unreachable(err) from None
            except ConnectionError as err:
                if again:
                    time.sleep(RETRY_DELAYS[attempt])
                    attempt += 1
                    continue
                raise NetworkError(
                    "The connection to %s broke (%s). Try again." % (self.origin(), err), code="network"
                ) from None

    def call(
        self, method: str, path: str, body: Optional[Dict[str, Any]] = None, query: Optional[Dict[str, Any]] = None
    ) -> Dict[str, Any]:
        """One JSON call with the token; answers the decoded body."""
        self._refresh_if_due(path)
        url = self.url(path)
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        data = None
        headers = {"Authorization": "Bearer " + self.token, "Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        raw = self.open(request, method == "GET", lambda resp: resp.read())
        try:
            result = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            raise ServerError("The server's answer to %s %s was not JSON." % (method, path)) from None
        if isinstance(result, dict) and isinstance(result.get("token"), str):
            # Any answer may carry a fresh token; it replaces the one in use (SPEC section 6).
            self.token = result["token"]
        return result

    def put_bytes(self, url: str, chunks: Iterable[bytes], size: int) -> None:
        """Streams a body of `size` bytes to a signed storage URL (no token: the link is its own permission)."""
        request = urllib.request.Request(
            self.url(url),
            # An iterable body is sent chunk by chunk, with the length given.
            data=chunks,
            method="PUT",
            headers={"Content-Type": "application/octet-stream", "Content-Length": str(size)},
        )
        self.open(request, False, lambda resp: resp.read())

    def _refresh_if_due(self, path: str) -> None:
        if self.token.startswith(KEY_PREFIX) or path == "/api/user/refresh":
            return
        expiry = _token_expiry(self.token)
        now = time.time()
        if expiry is None or expiry - now > REFRESH_BEFORE_S or now - self._refreshed_at < REFRESH_EVERY_S:
            return
        self._refreshed_at = now
        try:
            self.call("POST", "/api/user/refresh")
        except PortalError:
            # The call itself says what is wrong with the token (expired, signed out).
            return
