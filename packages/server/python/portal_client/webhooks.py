"""Webhooks: receiving them (`verify_webhook(body, headers, secret)` checks a delivery's Standard Webhooks signature,
standardwebhooks.com, with the endpoint's signing secret and answers its event, standard library only) and managing
an account's endpoints (`client.webhooks()`, `client.create_webhook(...)`, ...: bound to `Client`, owners only, so a
signed-in `Client.login(...)`).

    from portal_client import verify_webhook, WebhookVerificationError

    try:
        event = verify_webhook(request_body_bytes, request_headers, "whsec_...")
    except WebhookVerificationError:
        return 400                       # not from the portal, changed on the way, or too old to trust
    if event["type"] == "run.finished":
        ...
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._common import Pages, _id
from .errors import PortalError
from .models import _build, _Named

__all__ = [
    "verify_webhook",
    "sign_webhook",
    "WebhookVerificationError",
    "WEBHOOK_TOLERANCE",
    "WebhookEndpoint",
    "WebhookDelivery",
    "WebhookAttempt",
]

#: Seconds a delivery's `webhook-timestamp` may differ from now, either way: an older one may be a replay.
WEBHOOK_TOLERANCE = 5 * 60
SECRET_PREFIX = "whsec_"

Headers = Union[Mapping[str, str], Iterable[Tuple[str, str]], Any]


class WebhookVerificationError(PortalError):
    """A delivery that cannot be trusted: a header missing, a signature that does not match the body and secret, or
    a timestamp more than five minutes from now. Answer it with a 400 and do not act on it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="webhook_verification")


def _header(headers: Headers, name: str) -> Optional[str]:
    """A header by name in any case, from a dict, a list of pairs, or a framework's headers object (`.get`)."""
    items: Iterable[Tuple[str, str]]
    if hasattr(headers, "items"):
        items = headers.items()
    elif hasattr(headers, "get"):
        value = headers.get(name)
        return None if value is None else str(value)
    else:
        items = headers
    for key, value in items:
        if str(key).lower() == name:
            return str(value)
    return None


def _key(secret: str) -> bytes:
    raw = secret[len(SECRET_PREFIX) :] if secret.startswith(SECRET_PREFIX) else secret
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("The signing secret should be the whsec_... text shown for the endpoint.") from None


def _signature(key: bytes, msg_id: str, timestamp: str, body: bytes) -> str:
    signed = msg_id.encode() + b"." + timestamp.encode() + b"." + body
    return base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def sign_webhook(body: Union[bytes, str], secret: str, msg_id: str, timestamp: Optional[int] = None) -> Dict[str, str]:
    """The Standard Webhooks headers the portal sends with `body` (for testing your receiver)."""
    data = body.encode() if isinstance(body, str) else bytes(body)
    at = str(int(time.time()) if timestamp is None else int(timestamp))
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": at,
        "webhook-signature": "v1," + _signature(_key(secret), msg_id, at, data),
    }


def verify_webhook(
    body: Union[bytes, str],
    headers: Headers,
    secret: str,
    tolerance: int = WEBHOOK_TOLERANCE,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery and answers its event, `{"type", "timestamp", "data"}`; raises WebhookVerificationError when
    it cannot be trusted. `body` is the request's raw body (bytes as received: parsing and re-encoding it changes
    the bytes signed), `headers` its headers (any case), `secret` the endpoint's `whsec_...` signing secret.

    Any of the space-separated signatures may match: while a rotated secret's old one still signs, a delivery carries
    a signature of each."""
    data = body.encode() if isinstance(body, str) else bytes(body)
    msg_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not stamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.")
    try:
        at = int(stamp)
    except ValueError:
        raise WebhookVerificationError("The webhook-timestamp header is not a time in epoch seconds.") from None
    current = time.time() if now is None else now
    if at < current - tolerance:
        raise WebhookVerificationError("The delivery's timestamp is too old: it may be a replay.")
    if at > current + tolerance:
        raise WebhookVerificationError("The delivery's timestamp is in the future.")
    expected = _signature(_key(secret), msg_id, stamp, data)
    for part in signatures.split(" "):
        version, _, value = part.partition(",")
        if version == "v1" and hmac.compare_digest(value.encode(), expected.encode()):
            try:
                event = json.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise WebhookVerificationError("The delivery's body is not JSON.") from None
            return event if isinstance(event, dict) else {"data": event}
    raise WebhookVerificationError("No signature matches: check the endpoint's signing secret.")


# ---- managing endpoints (owners of the account) ----


@dataclass
class WebhookEndpoint(_Named):
    """An endpoint of the account: where events are sent (`url`), which (`events`), and `state` ("active", "paused"
    or "failing": paused by the portal after failing for days). `secret` is set only on the answer of
    `create_webhook` and `rotate_webhook`: it is never shown again. `lastStatus` is the last attempt's status code."""

    stamp: str = ""
    client: str = ""
    name: str = ""
    url: str = ""
    events: List[str] = field(default_factory=list)
    state: str = ""
    createdAt: int = 0
    previousSecretUntil: Optional[int] = None
    lastAttemptAt: Optional[int] = None
    lastStatus: Optional[int] = None
    failingSince: Optional[int] = None
    secret: Optional[str] = None


@dataclass
class WebhookAttempt:
    """One try of a delivery: when (`at`), the receiver's status code (None: no answer, see `error`), how long it took
    (`durationMs`) and the first bytes of its answer."""

    at: int = 0
    status: Optional[int] = None
    durationMs: int = 0
    answer: str = ""
    error: str = ""


@dataclass
class WebhookDelivery(_Named):
    """One event sent to an endpoint: its `stamp` is the `webhook-id` header of every attempt, `state` "pending",
    "delivered" or "failed". `body` and `attempts` are read by `client.delivery(...)`."""

    stamp: str = ""
    webhook: str = ""
    type: str = ""
    createdAt: int = 0
    state: str = ""
    attempts: int = 0
    nextAttemptAt: Optional[int] = None
    lastAttemptAt: Optional[int] = None
    lastStatus: Optional[int] = None
    lastError: str = ""
    body: Optional[str] = None
    tries: List[WebhookAttempt] = field(default_factory=list)


def _endpoint(answer: Dict[str, Any]) -> WebhookEndpoint:
    endpoint = _build(WebhookEndpoint, answer["webhook"])
    if isinstance(answer.get("secret"), str):
        endpoint.secret = answer["secret"]
    return endpoint


def webhooks(self: Any) -> List[WebhookEndpoint]:
    """The account's webhook endpoints (owners only)."""
    answer = self._call("GET", "/api/client/webhook/item", query={"client": self.client_id()})
    return [_build(WebhookEndpoint, x) for x in answer.get("webhook", {}).get("list", [])]


def create_webhook(self: Any, url: str, events: Sequence[str], name: Optional[str] = None) -> WebhookEndpoint:
    """Adds an endpoint for these events (e.g. ["run.finished", "run.failed"]); its `secret` is set this once."""
    body: Dict[str, Any] = {"client": self.client_id(), "url": url, "events": list(events)}
    if name:
        body["name"] = name
    return _endpoint(self._call("PUT", "/api/client/webhook/item", body))


def webhook(self: Any, endpoint: Any) -> WebhookEndpoint:
    """One endpoint, by object or id."""
    return _endpoint(self._call("GET", "/api/client/webhook/show", query={"webhook": _id(endpoint)}))


def update_webhook(
    self: Any,
    endpoint: Any,
    name: Optional[str] = None,
    url: Optional[str] = None,
    events: Optional[Sequence[str]] = None,
    active: Optional[bool] = None,
) -> WebhookEndpoint:
    """Renames, moves or re-subscribes an endpoint, or pauses (active=False) or resumes (active=True) it."""
    body: Dict[str, Any] = {"webhook": _id(endpoint)}
    if name is not None:
        body["name"] = name
    if url is not None:
        body["url"] = url
    if events is not None:
        body["events"] = list(events)
    if active is not None:
        body["active"] = 1 if active else 0
    return _endpoint(self._call("POST", "/api/client/webhook/update", body))


def rotate_webhook(self: Any, endpoint: Any) -> WebhookEndpoint:
    """A new signing secret (set on the answer's `secret` this once); the old one keeps signing for 24 hours."""
    return _endpoint(self._call("POST", "/api/client/webhook/rotate", {"webhook": _id(endpoint)}))


def remove_webhook(self: Any, endpoint: Any) -> None:
    """Removes the endpoint and its delivery log."""
    self._call("POST", "/api/client/webhook/remove", {"webhook": _id(endpoint)})


def test_webhook(self: Any, endpoint: Any, type: Optional[str] = None) -> WebhookDelivery:
    """Sends a test event (`webhook.test`, or `type`) to the endpoint; answers its delivery."""
    body: Dict[str, Any] = {"webhook": _id(endpoint)}
    if type:
        body["type"] = type
    return _build(WebhookDelivery, self._call("POST", "/api/client/webhook/test", body)["delivery"])


def deliveries(self: Any, endpoint: Any) -> Pages[WebhookDelivery]:
    """The endpoint's deliveries, newest first, fetched page by page as they are iterated."""
    return self._paged(
        "/api/client/webhook/delivery", "delivery", {"webhook": _id(endpoint)}, lambda x: _build(WebhookDelivery, x)
    )


def delivery(self: Any, item: Any) -> WebhookDelivery:
    """One delivery with its `body` as sent and its `tries` (each attempt), oldest first."""
    answer = self._call("GET", "/api/client/webhook/delivery/show", query={"delivery": _id(item)})
    found = _build(WebhookDelivery, answer["delivery"])
    found.body = answer.get("body")
    found.tries = [_build(WebhookAttempt, a) for a in answer.get("attempt", {}).get("list", [])]
    return found


def redeliver(self: Any, item: Any) -> WebhookDelivery:
    """Sends a delivery again, with the same `webhook-id`."""
    answer = self._call("POST", "/api/client/webhook/delivery/redeliver", {"delivery": _id(item)})
    return _build(WebhookDelivery, answer["delivery"])


#: The methods bound to Client (see __init__.py).
CLIENT_METHODS = (
    webhooks,
    create_webhook,
    webhook,
    update_webhook,
    rotate_webhook,
    remove_webhook,
    test_webhook,
    deliveries,
    delivery,
    redeliver,
)
